//! The GLB container (glTF 2.0 §4.4), framed and unframed in one place: a 12-byte header, the
//! JSON chunk, and the BIN chunk. Every glb Marionette writes (a figure's, a character's, a
//! stage's, an FBX file's as read) is framed by [`frame`]; every glb it reads is unframed by
//! [`chunks`].

use serde_json::Value;

/// The GLB container: header, JSON chunk (padded with spaces), BIN chunk (`bin`, whose length
/// is a multiple of 4).
pub(crate) fn frame(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).expect("JSON of plain values");
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

/// The JSON and binary chunks of a GLB file.
pub(crate) fn chunks(bytes: &[u8]) -> Result<(Value, Option<Vec<u8>>), String> {
    let u32_at = |i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?) as usize)
    };
    if !bytes.starts_with(b"glTF") {
        return Err("not a GLB file (no glTF magic)".into());
    }
    let version = u32_at(4).ok_or("the GLB header is cut short")?;
    if version != 2 {
        return Err(format!("GLB version {version} (this program reads 2)"));
    }
    let json_len = u32_at(12).ok_or("the GLB header is cut short")?;
    if u32_at(16) != Some(0x4E4F_534A) {
        return Err("the first GLB chunk is not JSON".into());
    }
    let json_bytes = 20usize
        .checked_add(json_len)
        .and_then(|end| bytes.get(20..end))
        .ok_or("the JSON chunk runs past the end of the file")?;
    let json: Value = serde_json::from_slice(json_bytes).map_err(|e| e.to_string())?;
    let bin_at = 20 + json_len;
    let bin = match u32_at(bin_at) {
        None => None,
        Some(len) => {
            if u32_at(bin_at + 4) != Some(0x004E_4942) {
                return Err("the second GLB chunk is not BIN".into());
            }
            let data = (bin_at + 8)
                .checked_add(len)
                .and_then(|end| bytes.get(bin_at + 8..end))
                .ok_or("the BIN chunk runs past the end of the file")?;
            Some(data.to_vec())
        }
    };
    Ok((json, bin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_framed_glb_unframes_to_what_was_framed() {
        let json = json!({"asset": {"version": "2.0"}});
        let bin = vec![1u8, 2, 3, 4, 5, 6, 7, 8];
        let bytes = frame(&json, &bin);
        assert_eq!(bytes.len() % 4, 0);
        assert_eq!(&bytes[..4], b"glTF");
        let declared = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        assert_eq!(declared as usize, bytes.len());
        assert_eq!(chunks(&bytes), Ok((json, Some(bin))));
    }

    #[test]
    fn a_broken_glb_says_what_is_wrong() {
        let bytes = frame(&json!({}), &[0; 4]);
        for (cut, why) in [
            (&b"GLTF\x02\0\0\0"[..], "no glTF magic"),
            (&bytes[..10], "cut short"),
            (&bytes[..22], "runs past the end"),
            (&bytes[..bytes.len() - 2], "runs past the end"),
        ] {
            let e = chunks(cut).expect_err("broken");
            assert!(e.contains(why), "{e}");
        }
        let mut version_1 = bytes.clone();
        version_1[4] = 1;
        assert!(
            chunks(&version_1)
                .expect_err("v1")
                .contains("GLB version 1")
        );
    }
}
