//! `kubernetes.Semver`: `blang/semver` v4 parsing and precedence, and the Kubernetes library's
//! normalisation (`semver(s, true)`: one leading `v` dropped, leading zeros removed from the first
//! three dot-separated parts, missing minor/patch filled with `0`). Error texts are blang's.

use std::cmp::Ordering;

use super::go::quote;

/// A parsed version. Build metadata is kept for printing but plays no part in comparisons.
#[derive(Clone, Debug)]
pub struct Semver {
    /// Major number.
    pub major: u64,
    /// Minor number.
    pub minor: u64,
    /// Patch number.
    pub patch: u64,
    pre: Vec<PreRelease>,
    build: Vec<String>,
}

/// One dot-separated pre-release identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PreRelease {
    Num(u64),
    Alpha(String),
}

const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

fn only(s: &str, set: &str) -> bool {
    s.chars().all(|c| set.contains(c))
}

fn only_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// `strconv.ParseUint(s, 10, 64)` with Go's error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    let err = |why: &str| format!("strconv.ParseUint: parsing {}: {why}", quote(s));
    if s.is_empty() || !only_digits(s) {
        return Err(err("invalid syntax"));
    }
    s.parse().map_err(|_| err("value out of range"))
}

/// A numeric part (major, minor, patch) named `what`.
fn number(part: &str, what: &str) -> Result<u64, String> {
    if !only_digits(part) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            quote(part)
        ));
    }
    if leading_zero(part) {
        let what = capitalised(what);
        return Err(format!(
            "{what} number must not contain leading zeroes {}",
            quote(part)
        ));
    }
    parse_uint(part)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

fn pre_release(s: &str) -> Result<PreRelease, String> {
    if s.is_empty() {
        return Err("Prerelease is empty".to_owned());
    }
    if only_digits(s) {
        if leading_zero(s) {
            let msg = "Numeric PreRelease version must not contain leading zeroes";
            return Err(format!("{msg} {}", quote(s)));
        }
        return parse_uint(s).map(PreRelease::Num);
    }
    if only(s, ALPHANUM) {
        return Ok(PreRelease::Alpha(s.to_owned()));
    }
    Err(format!(
        "Invalid character(s) found in prerelease {}",
        quote(s)
    ))
}

/// `semver.Parse`: strict SemVer 2.0 as blang reads it.
pub fn parse(s: &str) -> Result<Semver, String> {
    if s.is_empty() {
        return Err("Version string empty".to_owned());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts[..] else {
        return Err("No Major.Minor.Patch elements found".to_owned());
    };
    let major = number(major, "major")?;
    let minor = number(minor, "minor")?;
    let (rest, build) = match rest.find('+') {
        Some(i) => (&rest[..i], rest[i + 1..].split('.').collect()),
        None => (rest, Vec::new()),
    };
    let (patch, pre) = match rest.find('-') {
        Some(i) => (&rest[..i], rest[i + 1..].split('.').collect()),
        None => (rest, Vec::new()),
    };
    let patch = number(patch, "patch")?;
    let pre = pre
        .into_iter()
        .map(pre_release)
        .collect::<Result<Vec<_>, _>>()?;
    for b in &build {
        if b.is_empty() {
            return Err("Build meta data is empty".to_owned());
        }
        if !only(b, ALPHANUM) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                quote(b)
            ));
        }
    }
    let build = build.into_iter().map(str::to_owned).collect();
    Ok(Semver {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

/// `semver(s, true)`: Kubernetes' `normalizeAndParse`.
pub fn parse_normalized(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() <= 1 {
                return p.to_owned();
            }
            let t = p.trim_start_matches('0');
            if t.starts_with(|c: char| c.is_ascii_digit()) {
                t.to_owned()
            } else {
                format!("0{t}")
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        parts.resize(3, "0".to_owned());
    }
    parse(&parts.join("."))
}

/// `semver(s)` or `semver(s, normalize)`.
pub fn parse_with(s: &str, normalize: bool) -> Result<Semver, String> {
    if normalize {
        parse_normalized(s)
    } else {
        parse(s)
    }
}

/// `isSemver(s)` or `isSemver(s, normalize)`.
pub fn is_semver(s: &str, normalize: bool) -> bool {
    parse_with(s, normalize).is_ok()
}

impl PreRelease {
    fn compare(&self, other: &PreRelease) -> Ordering {
        match (self, other) {
            (PreRelease::Num(a), PreRelease::Num(b)) => a.cmp(b),
            (PreRelease::Num(_), PreRelease::Alpha(_)) => Ordering::Less,
            (PreRelease::Alpha(_), PreRelease::Num(_)) => Ordering::Greater,
            (PreRelease::Alpha(a), PreRelease::Alpha(b)) => a.cmp(b),
        }
    }
}

impl Semver {
    /// SemVer precedence: numbers, then a release above its pre-releases, then identifiers.
    pub fn compare(&self, other: &Semver) -> Ordering {
        let numbers =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if numbers != Ordering::Equal {
            return numbers;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&other.pre) {
            let c = a.compare(b);
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }

    /// `compareTo`: -1, 0 or 1.
    pub fn compare_to(&self, other: &Semver) -> i64 {
        self.compare(other) as i64
    }

    /// `isGreaterThan`.
    pub fn is_greater_than(&self, other: &Semver) -> bool {
        self.compare(other) == Ordering::Greater
    }

    /// `isLessThan`.
    pub fn is_less_than(&self, other: &Semver) -> bool {
        self.compare(other) == Ordering::Less
    }

    /// `major()` as CEL's int (Go converts the `uint64` with wrap-around).
    pub fn major_int(&self) -> i64 {
        self.major as i64
    }

    /// `minor()` as CEL's int.
    pub fn minor_int(&self) -> i64 {
        self.minor as i64
    }

    /// `patch()` as CEL's int.
    pub fn patch_int(&self) -> i64 {
        self.patch as i64
    }
}

/// CEL `==` is blang's `EQ`: equal precedence, build metadata ignored.
impl PartialEq for Semver {
    fn eq(&self, other: &Semver) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl PartialOrd for Semver {
    fn partial_cmp(&self, other: &Semver) -> Option<Ordering> {
        Some(self.compare(other))
    }
}

impl std::fmt::Display for Semver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                PreRelease::Num(n) => write!(f, "{n}")?,
                PreRelease::Alpha(s) => f.write_str(s)?,
            }
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}
