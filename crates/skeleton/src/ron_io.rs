//! Reading and writing RON text, shared by every file format of the project.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// `v` rounded to `digits` significant digits (1 to 15): the nearest double to that decimal,
/// which files then print as the decimal. Non-finite values and zero are returned as they are.
pub fn tidy(v: f64, digits: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let digits = digits.clamp(1, 15);
    let exponent = digits - 1 - v.abs().log10().floor() as i32;
    // 10^k is exact for |k| ≤ 22; beyond, the value is left alone.
    if !(-22..=22).contains(&exponent) {
        return v;
    }
    let scale = 10f64.powi(exponent.abs());
    if exponent >= 0 {
        (v * scale).round() / scale
    } else {
        (v / scale).round() * scale
    }
}

/// A RON syntax or type error with the 1-based position RON reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RonSyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// RON's message.
    pub message: String,
}

/// How deeply RON values may nest. Each level of a skeleton's hierarchy costs about five (the
/// `Joint` variant, its tuple, its child list), so this admits chains about 200 joints deep, while
/// hostile nesting is an error before it could overflow a 2 MiB thread stack, even in a debug
/// build (tested in `loader_robustness`).
pub const MAX_NESTING: usize = 1200;

/// Parses RON text into `T`, mapping RON's error to a position and a message.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, RonSyntaxError> {
    ron::Options::default()
        .with_recursion_limit(MAX_NESTING)
        .from_str(text)
        .map_err(|e| RonSyntaxError {
            line: e.span.start.line.max(1),
            col: e.span.start.col.max(1),
            message: match e.code {
                ron::Error::ExceededRecursionLimit => {
                    format!("nested more than {MAX_NESTING} levels deep")
                }
                code => code.to_string(),
            },
        })
}

/// Writes `value` as pretty RON in the style of the format pages: `name(` before the top-level
/// struct only (inner structs such as joint definitions stay anonymous `(...)`), four-space
/// indents, lists one entry per line, and a final newline.
pub fn to_pretty<T: Serialize>(name: &str, value: &T) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(false)
        .indentor("    ")
        .separate_tuple_members(false)
        .compact_arrays(false);
    let body = ron::Options::default().to_string_pretty(value, config)?;
    Ok(format!("{name}{body}\n"))
}

/// The largest file the loaders read (64 MiB): a figure file is kilobytes, so anything larger is
/// a mistake, and a device such as `/dev/zero` must not make a loader read forever.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest capture or character file read (1 GiB: a BVH take of hours, a glTF character
/// with its textures, are far smaller).
pub const MAX_DATA_BYTES: u64 = 1024 * 1024 * 1024;

/// Reads a whole file of at most `limit` bytes (`what` it would be, for the error when larger).
pub fn read_bytes(path: &Path, limit: u64, what: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::other("is a directory, not a file"));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB; not {what}",
            limit / (1024 * 1024)
        )));
    }
    Ok(bytes)
}

/// Reads a whole UTF-8 text file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> std::io::Result<String> {
    utf8_text(read_bytes(
        path,
        MAX_FILE_BYTES,
        "a skeleton, pose or problem file",
    )?)
}

/// A file's `bytes` as UTF-8 text, or the offset of its first byte that is not.
pub fn utf8_text(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The name of the top-level RON struct (`Skeleton`, `Pose`, `Problem`, ...), skipping
/// white space, comments and `#![enable(...)]` attributes; `None` when the text starts otherwise.
pub fn top_level_name(text: &str) -> Option<&str> {
    let rest = after_comments(text);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// RON text after its byte-order mark, leading white space, comments and attributes
/// (`#![enable(…)]`): where its top-level value starts.
pub fn after_comments(text: &str) -> &str {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("#![") {
            rest = r.split_once(']').map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    rest
}

/// Writes a file atomically: to a temporary file beside it, flushed and synced to the disk, then
/// renamed over it (and the directory synced where the platform allows), so a crash, a kill or a
/// full disk at any moment leaves either the old file or the new one, never a mix.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    write_bytes_atomically(path, text.as_bytes())
}

/// [`write_atomically`] for bytes (binary files: glTF).
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        use std::io::Write;
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.flush()?;
        file.sync_all()
    })();
    written
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })?;
    // The rename itself reaches the disk with the directory's entry; not every platform lets
    // a directory be opened for that, and the file is already safe either way.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A short name for a path in messages: the path as given.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_rounds_to_significant_digits_and_leaves_the_rest() {
        assert_eq!(tidy(12.3 * 0.01, 12), 0.123);
        assert_eq!(tidy(1.1 * 0.01, 12), 0.011);
        assert_eq!(tidy(30f64.to_radians().to_degrees(), 12), 30.0);
        assert_eq!(tidy(1.0 / 0.0083333, 12), 120.000480002);
        assert_eq!(tidy(-2.5e-7, 3), -2.5e-7);
        for v in [0.0, f64::INFINITY, f64::NAN, 1e300, 1e-300] {
            assert!(
                tidy(v, 12) == v || (v.is_nan() && tidy(v, 12).is_nan()),
                "{v}"
            );
        }
    }
}
