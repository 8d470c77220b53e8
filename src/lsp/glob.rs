//! The exclude globs of `check --exclude` and of the project configuration file's `exclude` (for
//! `check` and the server's workspace scan alike): shell globs (`*` and `?` within one path component, `**`
//! across components). A pattern with a `/` is matched against the whole path as printed; one
//! without is matched against each component, so `vendor` or `*.test.yaml` exclude wherever they
//! occur, as in a `.gitignore`.

use std::path::Path;

/// Whether `path` is excluded by any of `patterns`.
pub fn excluded(path: &Path, patterns: &[String]) -> bool {
    let printed = path.to_string_lossy();
    let printed = printed.trim_start_matches("./");
    patterns.iter().any(|pattern| matches(pattern, printed))
}

fn matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
    if pattern.contains('/') {
        let pattern: Vec<&str> = pattern.split('/').collect();
        let path: Vec<&str> = path.split('/').collect();
        components_match(&pattern, &path)
    } else {
        path.split('/')
            .any(|component| component_matches(pattern.as_bytes(), component.as_bytes()))
    }
}

/// `pattern` against `path`, component by component; `**` stands for any number of components.
/// A prefix that matches excludes everything under it (a folder pattern).
fn components_match(pattern: &[&str], path: &[&str]) -> bool {
    match (pattern.split_first(), path.split_first()) {
        (None, _) => true,
        (Some((&"**", rest)), _) => (0..=path.len()).any(|skip| {
            path.get(skip..)
                .is_some_and(|tail| components_match(rest, tail))
        }),
        (Some(_), None) => false,
        (Some((first, rest)), Some((component, tail))) => {
            component_matches(first.as_bytes(), component.as_bytes())
                && components_match(rest, tail)
        }
    }
}

/// One component against one glob component: `*` any run of bytes, `?` one byte. Iterative with
/// one backtrack point, so a pattern of many stars costs no more than its length times the name's.
fn component_matches(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || Some(&c) == name.get(n) => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern
        .get(p..)
        .is_some_and(|rest| rest.iter().all(|&c| c == b'*'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let cases = [
            ("vendor", "vendor/a.yaml", true),
            ("vendor", "x/vendor/a.yaml", true),
            ("*.test.yaml", "a/b.test.yaml", true),
            ("*.test.yaml", "a/b.yaml", false),
            ("charts/*/templates", "charts/x/templates/a.yaml", true),
            ("charts/*/templates", "y/charts/x/templates/a.yaml", false),
            ("**/templates/*.yaml", "y/charts/x/templates/a.yaml", true),
            ("**/templates/*.yaml", "templates/a.yaml", true),
            ("a?.yaml", "ab.yaml", true),
            ("a?.yaml", "a.yaml", false),
            ("config/crd/**", "config/crd/bases/x.yaml", true),
            ("config/crd/**", "config/rbac/x.yaml", false),
        ];
        for (pattern, path, want) in cases {
            assert_eq!(
                excluded(Path::new(path), &[pattern.to_owned()]),
                want,
                "{pattern} {path}"
            );
        }
    }
}
