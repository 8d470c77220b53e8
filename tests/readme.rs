//! The README's samples stay true: every ```console block's `$ admission-ls …` command is run from the
//! repository root with the built binary and its standard output compared with the lines that
//! follow it (durations compared as `(…ms)`; a last line `…` means the output goes on).

#[path = "support/cli.rs"]
mod cli;

use cli::{run, timeless};

/// (command, expected output lines, whether the output goes on after them).
type Sample = (String, Vec<String>, bool);

fn samples(readme: &str) -> Vec<Sample> {
    let mut samples: Vec<Sample> = Vec::new();
    let mut in_console = false;
    for line in readme.lines() {
        if !in_console {
            in_console = line.trim() == "```console";
            continue;
        }
        if line.trim() == "```" {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            samples.push((command.to_string(), Vec::new(), false));
        } else if let Some((_, lines, goes_on)) = samples.last_mut() {
            if line == "…" {
                *goes_on = true;
            } else {
                lines.push(line.to_string());
            }
        }
    }
    samples
}

#[test]
fn every_readme_sample_is_what_the_binary_prints() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let samples = samples(&readme);
    assert!(
        samples.len() >= 4,
        "the README's console samples were not found"
    );
    let mut wrong = Vec::new();
    for (command, lines, goes_on) in &samples {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(
            words.first(),
            Some(&"admission-ls"),
            "a sample runs admission-ls: {command}"
        );
        let (code, stdout, stderr) = run(&words[1..]);
        assert!(
            code == 0 || code == 1,
            "`{command}` exited {code}: {stderr}"
        );
        let actual = timeless(&stdout);
        let expected = timeless(&(lines.join("\n") + "\n"));
        let same = if *goes_on {
            actual.starts_with(&expected)
        } else {
            actual == expected
        };
        if !same {
            wrong.push(format!(
                "$ {command}\n--- README\n{expected}--- binary\n{actual}"
            ));
        }
    }
    println!(
        "README samples checked: {}",
        samples
            .iter()
            .map(|s| s.0.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
