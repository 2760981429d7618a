//! How an input is made from a seed file: a deterministic generator (SplitMix64, Steele, Lea &
//! Flood 2014) picks one to four mutations: bytes flipped or set, a range cut out or doubled, a
//! range of another seed spliced in, a number replaced by an extreme, a token (name, bracket,
//! keyword) dropped or repeated. A binary glTF (`.glb`) is also mutated structurally: its JSON
//! chunk is mutated as text and the file put back together with correct chunk lengths, so the
//! mutation reaches the reader past the framing.

use marionette_skeleton::random::SplitMix64;

/// The inputs' generator: SplitMix64 (the benchmarks' too), seeded per input.
#[derive(Debug, Clone)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator for input `index` of a run seeded with `seed`.
    pub fn new(seed: u64, index: u64) -> Rng {
        let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next_u64();
        Rng(rng)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
}

/// Numbers that break what assumes sane ones.
const EXTREMES: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1e308",
    "-1e308",
    "1e-320",
    "NaN",
    "inf",
    "2000000000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "999999999999999999999999",
    "0.5",
    "255",
    "256",
    "65536",
];

/// One input made from `seed` (with `others`, the reader's other seeds, to splice from).
pub fn mutate(rng: &mut Rng, seed: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    if seed.starts_with(b"glTF")
        && rng.below(2) == 0
        && let Some(out) = mutate_glb_json(rng, seed, others)
    {
        return out;
    }
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, &mut out, others);
    }
    out
}

/// One mutation of `data`, in place.
fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, others: &[Vec<u8>]) {
    let len = data.len();
    match rng.below(8) {
        0 if len > 0 => {
            let at = rng.below(len);
            data[at] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let at = rng.below(len);
            data[at] = [0, 0xff, b'"', b'(', b')', b'[', b']', b',', b'-', b'\n'][rng.below(10)];
        }
        2 if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(256));
            data.drain(at..at + n);
        }
        3 if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(4096));
            let copy: Vec<u8> = data[at..at + n].to_vec();
            let times = 1 + rng.below(8);
            for _ in 0..times {
                data.splice(at..at, copy.iter().copied());
            }
        }
        4 if !others.is_empty() => {
            let other = &others[rng.below(others.len())];
            if !other.is_empty() {
                let from = rng.below(other.len());
                let n = 1 + rng.below((other.len() - from).min(2048));
                let at = rng.below(len + 1);
                data.splice(at..at, other[from..from + n].iter().copied());
            }
        }
        5 | 6 => replace_number(rng, data),
        _ => token_edit(rng, data),
    }
}

/// The byte ranges of the numbers in `data` (digits with sign, point and exponent).
fn numbers(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if data[i].is_ascii_digit() {
            let mut start = i;
            if start > 0 && data[start - 1] == b'-' {
                start -= 1;
            }
            while i < data.len() && (data[i].is_ascii_digit() || b".eE+-".contains(&data[i])) {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Replaces a number with an extreme, or scales it by a power of ten.
fn replace_number(rng: &mut Rng, data: &mut Vec<u8>) {
    let found = numbers(data);
    if found.is_empty() {
        return;
    }
    let (a, b) = found[rng.below(found.len())];
    let new = if rng.below(3) == 0 {
        let mut scaled = data[a..b].to_vec();
        scaled.extend(std::iter::repeat_n(b'0', 1 + rng.below(12)));
        scaled
    } else {
        EXTREMES[rng.below(EXTREMES.len())].as_bytes().to_vec()
    };
    data.splice(a..b, new);
}

/// Drops or repeats one token: a quoted string, a bracket, or a word.
fn token_edit(rng: &mut Rng, data: &mut Vec<u8>) {
    let len = data.len();
    if len == 0 {
        return;
    }
    let at = rng.below(len);
    let start = (0..=at)
        .rev()
        .find(|&i| !data[i].is_ascii_alphanumeric() && data[i] != b'_')
        .unwrap_or(0);
    let end = (at..len)
        .find(|&i| !data[i].is_ascii_alphanumeric() && data[i] != b'_')
        .unwrap_or(len)
        .max(start + 1);
    if rng.below(2) == 0 {
        data.drain(start..end);
    } else {
        let copy = data[start..end].to_vec();
        data.splice(start..start, copy);
    }
}

/// A `.glb` with its JSON chunk mutated as text and the framing rebuilt.
fn mutate_glb_json(rng: &mut Rng, glb: &[u8], others: &[Vec<u8>]) -> Option<Vec<u8>> {
    let u32_at = |i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(glb.get(i..i + 4)?.try_into().ok()?) as usize)
    };
    let json_len = u32_at(12)?;
    let json = glb.get(20..20 + json_len)?;
    let rest = glb.get(20 + json_len..)?;
    let mut text = json.to_vec();
    for _ in 0..1 + rng.below(3) {
        if rng.below(2) == 0 {
            replace_number(rng, &mut text);
        } else {
            mutate_once(rng, &mut text, others);
        }
    }
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + rest.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&glb[..8]);
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&glb[16..20]);
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_index_make_the_same_input() {
        let seed = b"Skeleton(name: \"a\", offset: (0, 1.5, -2))".to_vec();
        for i in 0..50 {
            let a = mutate(&mut Rng::new(7, i), &seed, &[]);
            let b = mutate(&mut Rng::new(7, i), &seed, &[]);
            assert_eq!(a, b);
        }
        let differ = (0..50)
            .filter(|&i| mutate(&mut Rng::new(7, i), &seed, &[]) != seed)
            .count();
        assert!(differ > 40, "{differ} of 50 inputs differ from the seed");
    }

    #[test]
    fn numbers_are_found_with_their_sign_and_exponent() {
        let text = b"(0, -1.5e3, x2)";
        let found: Vec<&[u8]> = numbers(text).iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(found, [&b"0"[..], b"-1.5e3", b"2"]);
    }

    #[test]
    fn a_glb_keeps_valid_framing_after_its_json_is_mutated() {
        let json = br#"{"asset":{"version":"2.0"}}"#;
        let mut glb = b"glTF".to_vec();
        glb.extend_from_slice(&2u32.to_le_bytes());
        glb.extend_from_slice(&((20 + 28) as u32).to_le_bytes());
        glb.extend_from_slice(&28u32.to_le_bytes());
        glb.extend_from_slice(b"JSON");
        glb.extend_from_slice(json);
        glb.push(b' ');
        for i in 0..20 {
            let out = mutate_glb_json(&mut Rng::new(1, i), &glb, &[]).expect("a glb");
            let total = u32::from_le_bytes(out[8..12].try_into().expect("4 bytes")) as usize;
            let chunk = u32::from_le_bytes(out[12..16].try_into().expect("4 bytes")) as usize;
            assert_eq!(total, out.len());
            assert_eq!(20 + chunk, out.len());
            assert_eq!(chunk % 4, 0);
        }
    }
}
