//! "Did you mean": the closest candidate name by optimal-string-alignment distance (Damerau–
//! Levenshtein with adjacent transpositions), for undeclared names and undefined fields.

/// The candidate closest to `name`, if one is close enough to be a likely typo: at most one edit
/// for short names, two from five characters, three from twelve. Ties go to the smallest name, so
/// the answer is deterministic.
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<String> {
    let limit = match name.chars().count() {
        0..=1 => return None,
        2..=4 => 1,
        5..=11 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name || candidate.len().abs_diff(name.len()) > limit {
            continue;
        }
        let distance = distance(name, candidate);
        let better = match best {
            None => true,
            Some((d, c)) => distance < d || (distance == d && candidate < c),
        };
        if distance <= limit && better {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Optimal string alignment distance over characters; case differences cost half (rounded down
/// overall), so `Replicas` is close to `replicas`.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        rows[at(i, 0)] = i * 2;
    }
    for j in 0..=b.len() {
        rows[at(0, j)] = j * 2;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let (ca, cb) = (a[i - 1], b[j - 1]);
            let cost = if ca == cb {
                0
            } else if ca.eq_ignore_ascii_case(&cb) {
                1
            } else {
                2
            };
            let mut best = (rows[at(i - 1, j)] + 2)
                .min(rows[at(i, j - 1)] + 2)
                .min(rows[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && ca == b[j - 2] && a[i - 2] == cb {
                best = best.min(rows[at(i - 2, j - 2)] + 2);
            }
            rows[at(i, j)] = best;
        }
    }
    rows[at(a.len(), b.len())] / 2
}
