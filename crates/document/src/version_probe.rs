//! A document's version, read before the rest so that a newer file is refused for its version
//! (and a stage told from a version-1 document) without parsing a long take twice.

use marionette_skeleton::ron_io::{self, RonSyntaxError};
use serde::Deserialize;

/// Only the version, read first so that a newer file is refused for its version and not for a
/// field this build does not know.
#[derive(Deserialize)]
#[serde(rename = "Document")]
pub(crate) struct VersionProbe {
    #[serde(default)]
    pub(crate) version: u32,
}

impl VersionProbe {
    /// The version a document's text declares. Read from the text's head when it begins as
    /// Marionette writes documents (`Document(` then `version: N` first, after whitespace); else
    /// by parsing the whole text for that one field. The head is enough for every document
    /// Marionette writes, so a long take is not parsed twice to open it.
    pub(crate) fn version_of(text: &str) -> Result<u32, RonSyntaxError> {
        let head = text.trim_start();
        let head = head.strip_prefix("Document").unwrap_or(head).trim_start();
        let from_head = head
            .strip_prefix('(')
            .map(str::trim_start)
            .and_then(|h| h.strip_prefix("version"))
            .map(str::trim_start)
            .and_then(|h| h.strip_prefix(':'))
            .map(str::trim_start)
            .and_then(|h| {
                let digits = h.bytes().take_while(u8::is_ascii_digit).count();
                let after = h[digits..].trim_start();
                let ends = after.starts_with(',') || after.starts_with(')');
                (digits > 0 && ends).then(|| h[..digits].parse::<u32>().ok())?
            });
        match from_head {
            Some(version) => Ok(version),
            None => ron_io::parse::<VersionProbe>(text).map(|p| p.version),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::VersionProbe;

    #[test]
    fn the_version_is_read_from_the_head_or_else_from_the_whole_text() {
        let v = |t: &str| VersionProbe::version_of(t).ok();
        assert_eq!(
            v("Document(\n    version: 2,\n    figures: [],\n)"),
            Some(2)
        );
        assert_eq!(v("  (version:1, skeleton: \"a.ron\")"), Some(1));
        assert_eq!(v("Document(version: 12)"), Some(12));
        // Not first, or after a comment: the whole text is read for it.
        assert_eq!(v("Document(skeleton: \"a.ron\", version: 3)"), Some(3));
        assert_eq!(
            v("// a note\nDocument(version: 1, skeleton: \"a\")"),
            Some(1)
        );
        assert_eq!(v("Document(skeleton: \"a.ron\")"), Some(0), "no version: 0");
        // Digits that do not end the value are not taken from the head.
        assert_eq!(v("Document(version: 1e0)"), None);
        assert_eq!(v("not a document"), None);
    }
}
