//! Where a glTF file's bytes come from: the JSON and binary chunks of a `.glb`, and each
//! buffer from the binary chunk, a `data:` URI or a file beside the JSON.

use std::path::Path;

use marionette_skeleton::ron_io::MAX_DATA_BYTES;
use serde_json::Value;

use super::error::GltfError;

pub(super) fn read_buffers(
    json: &Value,
    mut bin: Option<Vec<u8>>,
    path: &Path,
    file: &str,
) -> Result<Vec<Vec<u8>>, GltfError> {
    let mut buffers = Vec::new();
    for (i, b) in json["buffers"].as_array().into_iter().flatten().enumerate() {
        let error = |why: String| GltfError::Buffer {
            file: file.to_owned(),
            buffer: i,
            why,
        };
        let length = b["byteLength"]
            .as_u64()
            .ok_or_else(|| error("no byteLength".into()))? as usize;
        let data = match b["uri"].as_str() {
            None if i == 0 => bin
                .take()
                .ok_or_else(|| error("it has no uri and the file has no BIN chunk".into()))?,
            None => return Err(error("it has no uri".into())),
            Some(uri) => uri_data(uri, path).map_err(error)?,
        };
        if data.len() < length {
            return Err(error(format!(
                "it says {length} bytes, {} are there",
                data.len()
            )));
        }
        buffers.push(data);
    }
    Ok(buffers)
}

/// The bytes a URI names: a base64 `data:` URI, or a file beside `path`.
pub fn uri_data(uri: &str, path: &Path) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest
            .split_once(";base64,")
            .ok_or("a data URI that is not base64")?;
        return base64_data(data);
    }
    let name = percent_decode(uri);
    if name.contains("://") {
        return Err(format!("\"{uri}\" is not a file beside the glTF file"));
    }
    let file = path.with_file_name(&name);
    marionette_skeleton::ron_io::read_bytes(&file, MAX_DATA_BYTES, "a glTF buffer")
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// `%20` and the like decoded (glTF URIs are URI-encoded file names).
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Standard base64 (padding optional, whitespace ignored), as data URIs carry it.
fn base64_data(text: &str) -> Result<Vec<u8>, String> {
    use base64::Engine;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const ENGINE: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    ENGINE.decode(clean).map_err(|e| format!("bad base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64_data("TWFu").expect("ok"), b"Man");
        assert_eq!(base64_data("TWE=").expect("ok"), b"Ma");
        assert_eq!(base64_data("TWE").expect("ok"), b"Ma");
        assert_eq!(base64_data("TQ==").expect("ok"), b"M");
        assert_eq!(base64_data("TW\nFu").expect("ok"), b"Man");
        assert!(base64_data("T!==").is_err());
        assert!(base64_data("T").is_err());
    }
}
