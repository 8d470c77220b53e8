//! Every read of a file from the disk, by the server and the command line alike: bounded and never
//! blocking. The file is opened without blocking (`O_NONBLOCK` on unix, so a FIFO cannot hold the
//! open), refused unless the opened file is a regular file (devices, FIFOs and sockets have no end
//! or block a reader; `/dev/stdin` would be the server's own protocol input), and read through a
//! size cap enforced while reading (a device's `metadata().len()` is 0, so the length says
//! nothing). For inputs found in a workspace, the real path (symlinks resolved) must stay inside
//! the workspace folder. Every refusal says why, for the caller's message.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::Uri;

/// The cap for files a command names or finds (policies, suites, objects, CRD bundles): far above
/// any real manifest (the largest published CRD bundles are a few MiB), far below what would hurt.
pub const COMMAND_CAP: u64 = 64 << 20;

/// How a read is bounded.
#[derive(Clone, Copy, Debug)]
pub struct Bounds<'a> {
    /// The largest number of bytes read.
    pub cap: u64,
    /// The folders the file's real path must be inside (none: anywhere, for a path the user named).
    pub roots: &'a [PathBuf],
}

impl Bounds<'_> {
    /// The bounds of a path the user named on the command line: anywhere, up to [`COMMAND_CAP`].
    pub const fn named() -> Bounds<'static> {
        Bounds {
            cap: COMMAND_CAP,
            roots: &[],
        }
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The open or the read failed (lower-case reason, without the OS error number).
    Io(String),
    /// Not a regular file: a directory, device, FIFO or socket (the kind, in words).
    NotRegular(&'static str),
    /// Its real path is outside every allowed folder.
    OutsideRoots(PathBuf),
    /// Longer than the cap (in bytes).
    TooLarge(u64),
    /// Not UTF-8; the offset of the first invalid byte.
    NotUtf8(usize),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Io(reason) => f.write_str(reason),
            Refused::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            Refused::OutsideRoots(real) => write!(
                f,
                "is a link to {}, outside the workspace folder",
                real.display()
            ),
            Refused::TooLarge(cap) => write!(f, "is larger than {}", size(*cap)),
            Refused::NotUtf8(offset) => {
                write!(f, "not valid UTF-8 (invalid byte at offset {offset})")
            }
        }
    }
}

/// A byte count in the largest whole unit.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// The text of the file at `path`, within `bounds`.
pub fn read_text(path: &Path, bounds: Bounds<'_>) -> Result<String, Refused> {
    let bytes = read_bytes(path, bounds)?;
    String::from_utf8(bytes).map_err(|error| Refused::NotUtf8(error.utf8_error().valid_up_to()))
}

/// The bytes of the file at `path`, within `bounds`.
pub fn read_bytes(path: &Path, bounds: Bounds<'_>) -> Result<Vec<u8>, Refused> {
    // The type of the file opened, not of the path: a link is judged by what it opens.
    let file = open(path).map_err(|e| Refused::Io(io_message(&e)))?;
    let file_type = file
        .metadata()
        .map_err(|e| Refused::Io(io_message(&e)))?
        .file_type();
    if !file_type.is_file() {
        return Err(Refused::NotRegular(kind_of(&file_type)));
    }
    if !bounds.roots.is_empty() {
        inside_roots(path, bounds.roots)?;
    }
    read_capped(file, bounds.cap)
}

/// All of `reader` (standard input, say) as text, up to `cap` bytes.
pub fn read_stream(reader: impl Read, cap: u64) -> Result<String, Refused> {
    let bytes = read_capped(reader, cap)?;
    String::from_utf8(bytes).map_err(|error| Refused::NotUtf8(error.utf8_error().valid_up_to()))
}

/// Reads at most one byte more than `cap`, so a longer input is known without reading it all.
fn read_capped(reader: impl Read, cap: u64) -> Result<Vec<u8>, Refused> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Refused::Io(io_message(&e)))?;
    if bytes.len() as u64 > cap {
        return Err(Refused::TooLarge(cap));
    }
    Ok(bytes)
}

/// Opens for reading without blocking: opening a FIFO for reading otherwise waits for a writer.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Whether the real path of `path` is inside one of `roots` (each compared by its real path too).
fn inside_roots(path: &Path, roots: &[PathBuf]) -> Result<(), Refused> {
    let real = path
        .canonicalize()
        .map_err(|e| Refused::Io(io_message(&e)))?;
    let inside = roots
        .iter()
        .filter_map(|root| root.canonicalize().ok())
        .any(|root| real.starts_with(root));
    if inside {
        Ok(())
    } else {
        Err(Refused::OutsideRoots(real))
    }
}

/// The kind of a file that is not a regular file, in words.
fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// The local path a URI names: only a `file:` URI whose host is empty or `localhost` (RFC 8089
/// section 2) names a file of this machine. `Uri::to_file_path` ignores the scheme and the host,
/// so `file://server/etc/x` or `https://example.com/etc/x` would otherwise read `/etc/x` here.
pub fn local_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let host = uri
        .authority()
        .map(|a| a.host().to_owned())
        .unwrap_or_default();
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    uri.to_file_path().map(|path| path.into_owned())
}

/// An I/O error in the lower-case style of the other messages, without the OS error number.
pub fn io_message(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_file_uris_name_local_paths() {
        let path = |uri: &str| local_path(&uri.parse().expect("uri"));
        assert_eq!(
            path("file:///etc/x.yaml"),
            Some(PathBuf::from("/etc/x.yaml"))
        );
        assert_eq!(
            path("file://localhost/etc/x.yaml"),
            Some(PathBuf::from("/etc/x.yaml"))
        );
        assert_eq!(
            path("file://LocalHost/etc/x.yaml"),
            Some(PathBuf::from("/etc/x.yaml"))
        );
        assert_eq!(path("file://server/etc/x.yaml"), None);
        assert_eq!(path("https://example.com/etc/x.yaml"), None);
        assert_eq!(path("untitled:/etc/x.yaml"), None);
    }

    #[test]
    fn sizes_read_in_whole_units() {
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(1 << 10), "1 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
