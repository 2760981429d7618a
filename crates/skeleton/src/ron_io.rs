//! Reading and writing RON text, shared by every file format of the project.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

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

/// Parses RON text into `T`, mapping RON's error to a position and a message.
///
/// RON's default recursion limit (128 levels) stays on, so hostile nesting cannot overflow the
/// stack.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, RonSyntaxError> {
    ron::Options::default()
        .from_str(text)
        .map_err(|e| RonSyntaxError {
            line: e.span.start.line.max(1),
            col: e.span.start.col.max(1),
            message: e.code.to_string(),
        })
}

/// Writes `value` as pretty RON with struct names, four-space indents and a final newline.
pub fn to_pretty<T: Serialize>(value: &T) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("    ")
        .separate_tuple_members(false)
        .compact_arrays(true);
    let mut text = ron::Options::default().to_string_pretty(value, config)?;
    text.push('\n');
    Ok(text)
}

/// Reads a whole text file.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

/// Writes a file atomically: to a temporary file beside it, then renamed over it, so a crash or a
/// full disk never leaves half a file where a good one was.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// A short name for a path in messages: the path as given.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}
