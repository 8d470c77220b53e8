//! The target Kubernetes version: one type for every front end (CLI flags, editor settings, test
//! suites, editor commands), always one of the bundled minor versions.
//!
//! Written forms: `1.31`, `v1.31`, surrounding spaces ignored. A YAML suite may write the version
//! unquoted (`kubeVersion: 1.30`); callers pass the scalar's source text, never its float value,
//! so `1.30` stays 1.30 rather than becoming 1.3.

use std::fmt;

use super::bundled;

/// A bundled Kubernetes minor version (1.NN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    minor: u32,
}

/// Why a version was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionError {
    /// Not of the form `1.NN`.
    Malformed(String),
    /// A well-formed version without bundled schemas.
    Unsupported(u32),
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionError::Malformed(text) => write!(
                f,
                "expected a Kubernetes version like 1.{}, got `{text}`",
                bundled::newest()
            ),
            VersionError::Unsupported(minor) => write!(
                f,
                "Kubernetes 1.{minor} is not supported: the bundled versions are {}",
                KubeVersion::supported_range()
            ),
        }
    }
}

impl std::error::Error for VersionError {}

impl Default for KubeVersion {
    /// The newest bundled version, the default target everywhere.
    fn default() -> Self {
        KubeVersion::newest()
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl std::str::FromStr for KubeVersion {
    type Err = VersionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        KubeVersion::parse(text)
    }
}

impl KubeVersion {
    /// The newest bundled version.
    pub fn newest() -> KubeVersion {
        KubeVersion {
            minor: bundled::newest(),
        }
    }

    /// The oldest bundled version.
    pub fn oldest() -> KubeVersion {
        KubeVersion {
            minor: bundled::versions().first().copied().unwrap_or_default(),
        }
    }

    /// The minor number (31 for 1.31).
    pub fn minor(self) -> u32 {
        self.minor
    }

    /// Parses `1.NN` or `v1.NN` and requires a bundled version.
    pub fn parse(text: &str) -> Result<KubeVersion, VersionError> {
        KubeVersion::from_minor(parse_minor(text)?)
    }

    /// The bundled version `1.minor`.
    pub fn from_minor(minor: u32) -> Result<KubeVersion, VersionError> {
        if bundled::versions().contains(&minor) {
            Ok(KubeVersion { minor })
        } else {
            Err(VersionError::Unsupported(minor))
        }
    }

    /// Parses like [`KubeVersion::parse`], but a well-formed version outside the bundled range
    /// becomes the nearest bundled one; the second value says so, for a warning. The editor uses
    /// this: a setting it cannot honour exactly still gives diagnostics.
    pub fn parse_clamped(text: &str) -> Result<(KubeVersion, Option<String>), VersionError> {
        let minor = parse_minor(text)?;
        let clamped = minor.clamp(KubeVersion::oldest().minor, KubeVersion::newest().minor);
        let version = KubeVersion::from_minor(clamped)?;
        let warning = (clamped != minor).then(|| {
            format!(
                "Kubernetes 1.{minor} is not bundled (bundled: {}); using {version}",
                KubeVersion::supported_range()
            )
        });
        Ok((version, warning))
    }

    /// The bundled range as written in messages: `1.30 to 1.37`.
    pub fn supported_range() -> String {
        format!("{} to {}", KubeVersion::oldest(), KubeVersion::newest())
    }
}

fn parse_minor(text: &str) -> Result<u32, VersionError> {
    let malformed = || VersionError::Malformed(text.to_string());
    let trimmed = text.trim();
    let trimmed = trimmed.strip_prefix('v').unwrap_or(trimmed);
    let (major, minor) = trimmed.split_once('.').ok_or_else(malformed)?;
    if major != "1" || minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed());
    }
    minor.parse().map_err(|_| malformed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_forms_parse_to_the_same_version() {
        let newest = KubeVersion::newest();
        for text in [
            newest.to_string(),
            format!("v{newest}"),
            format!("  {newest} "),
        ] {
            assert_eq!(KubeVersion::parse(&text), Ok(newest), "{text}");
        }
        // An unquoted YAML `1.30` reaches us as its source text, and keeps its zero.
        let oldest = KubeVersion::oldest();
        assert_eq!(KubeVersion::parse(&oldest.to_string()), Ok(oldest));
        assert_eq!(
            oldest.minor() % 10,
            0,
            "the oldest bundled version ends in 0"
        );
    }

    #[test]
    fn malformed_and_unbundled_versions_are_refused_with_the_range() {
        for bad in [
            "", "1", "1.", "2.30", "1.x", "1.3.1", "1.-1", "one.two", "v", "1.30beta",
        ] {
            assert!(
                matches!(KubeVersion::parse(bad), Err(VersionError::Malformed(_))),
                "{bad}"
            );
        }
        let error = KubeVersion::parse("1.99").unwrap_err();
        assert_eq!(error, VersionError::Unsupported(99));
        assert!(error.to_string().ends_with(&KubeVersion::supported_range()));
    }

    #[test]
    fn the_editor_clamps_to_the_nearest_bundled_version() {
        let (version, warning) = KubeVersion::parse_clamped("1.99").unwrap();
        assert_eq!(version, KubeVersion::newest());
        assert!(warning.unwrap().contains("using"));
        let (version, warning) = KubeVersion::parse_clamped("1.2").unwrap();
        assert_eq!(version, KubeVersion::oldest());
        assert!(warning.is_some());
        let newest = KubeVersion::newest().to_string();
        assert_eq!(
            KubeVersion::parse_clamped(&newest).unwrap(),
            (KubeVersion::newest(), None)
        );
        assert!(KubeVersion::parse_clamped("x").is_err());
    }
}
