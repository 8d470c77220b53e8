//! Timing statistics and the table the benchmarks print.

// Each bench uses a different part of this module.
#![allow(dead_code)]

use std::time::Duration;

/// Summary of a set of samples.
pub struct Stats {
    /// Number of samples.
    pub n: usize,
    /// Median.
    pub median: Duration,
    /// 95th percentile (nearest rank).
    pub p95: Duration,
    /// Smallest.
    pub min: Duration,
    /// Largest.
    pub max: Duration,
}

impl Stats {
    /// Summarises `samples` (must not be empty).
    pub fn of(mut samples: Vec<Duration>) -> Stats {
        samples.sort();
        let rank = |q: f64| {
            samples[((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len()) - 1]
        };
        Stats {
            n: samples.len(),
            median: rank(0.5),
            p95: rank(0.95),
            min: samples[0],
            max: samples[samples.len() - 1],
        }
    }
}

/// Prints the table header.
pub fn header() {
    println!(
        "{:<48} {:>5} {:>10} {:>10} {:>10} {:>10}  target",
        "benchmark", "n", "median", "p95", "min", "max"
    );
}

/// Prints one row, with the target the design sets.
pub fn row(name: &str, stats: &Stats, target: &str) {
    println!(
        "{:<48} {:>5} {:>10} {:>10} {:>10} {:>10}  {target}",
        name,
        stats.n,
        ms(stats.median),
        ms(stats.p95),
        ms(stats.min),
        ms(stats.max)
    );
}

/// Milliseconds with two decimals.
pub fn ms(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1000.0)
}
