//! Which side of a figure a joint or site is on, by its name: the name split into its side and
//! its stem, lower case, without separators or the prefixes tools add. Two parts with the same
//! stem on opposite sides are each other's mirror image (the symmetry of [`crate::symmetry`]);
//! the humanoid recogniser of the glTF import looks the stems up as bones.

/// Which side a part is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The figure's left.
    Left,
    /// The figure's right.
    Right,
}

/// The names `name` would have on the other side: `left`↔`right` anywhere (in its own case:
/// `LeftArm`, `left elbow`, `LEFT_HAND`), and a one-letter `L`↔`R` or `l`↔`r` standing alone
/// between separators or at either end (`thigh.L`, `J_Bip_R_Hand`, `Bip001 L Thigh`,
/// `arm_joint_L_1`, `thigh_r`), or in front of a body word (`lhipjoint`, `RThigh`). Numbers and
/// everything else are kept, so `arm_joint_L_2` pairs with `arm_joint_R_2` alone.
pub fn other_side_names(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (a, b) in [
        ("left", "right"),
        ("Left", "Right"),
        ("LEFT", "RIGHT"),
        ("right", "left"),
        ("Right", "Left"),
        ("RIGHT", "LEFT"),
    ] {
        let mut from = 0;
        while let Some(at) = name[from..].find(a) {
            let at = from + at;
            out.push(format!("{}{b}{}", &name[..at], &name[at + a.len()..]));
            from = at + a.len();
        }
    }
    let chars: Vec<char> = name.chars().collect();
    let separator = |c: Option<&char>| c.is_none_or(|c| !c.is_alphanumeric());
    for (i, &c) in chars.iter().enumerate() {
        let flipped = match c {
            'L' => 'R',
            'R' => 'L',
            'l' => 'r',
            'r' => 'l',
            _ => continue,
        };
        let before = if i == 0 { None } else { chars.get(i - 1) };
        let after = chars.get(i + 1);
        let alone = separator(before) && separator(after);
        // `lhipjoint`, `RThigh`: the first letter, before a body word.
        let leading = i == 0 && chars.len() > 4 && after.is_some_and(|a| a.is_alphabetic());
        if alone || leading {
            let mut other = chars.clone();
            other[i] = flipped;
            out.push(other.into_iter().collect());
        }
    }
    out.retain(|n| n != name);
    out
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// A joint name split into its side and the rest, lower case, without separators or the prefixes
/// tools add (`mixamorig:LeftUpLeg` → (left, "upleg"), `DEF-thigh.L` → (left, "thigh"),
/// `J_Bip_R_Hand` → (right, "hand"), `Bip001 L Thigh` → (left, "thigh")).
pub fn split_name(name: &str) -> (Option<Side>, String) {
    let mut s = name.trim().to_owned();
    if let Some((_, rest)) = s.rsplit_once(':') {
        s = rest.to_owned();
    }
    for prefix in [
        "mixamorig",
        "DEF-",
        "ORG-",
        "J_Bip_",
        "J_Adj_",
        "Bip001",
        "Bip01",
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .to_owned();
        }
    }
    // Tokens at case changes and separators: "LeftUpLeg" → left, up, leg.
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let boundary = !c.is_alphanumeric()
            || (c.is_uppercase()
                && i > 0
                && (chars[i - 1].is_lowercase()
                    || chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                        && chars[i - 1].is_uppercase()));
        if boundary && !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
        if c.is_alphanumeric() {
            current.push(c.to_ascii_lowercase());
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    // Numbers ("_06", "01") and a one-letter tag in front ("b_Hip") say nothing of the bone.
    tokens.retain(|t| !t.chars().all(|c| c.is_ascii_digit()));
    if tokens.len() > 1 && tokens[0].len() == 1 && tokens[0] != "l" && tokens[0] != "r" {
        tokens.remove(0);
    }
    let mut side = None;
    let mut rest = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let found = match t.as_str() {
            "left" | "l" => Some(Side::Left),
            "right" | "r" => Some(Side::Right),
            // "lhipjoint", "rhipjoint" (CMU), "lthigh".
            _ if i == 0 && t.len() > 4 && (t.starts_with('l') || t.starts_with('r')) => {
                let body = &t[1..];
                [
                    "hipjoint", "thigh", "upleg", "uparm", "foot", "hand", "shoulder",
                ]
                .contains(&body)
                .then(|| {
                    if t.starts_with('l') {
                        Side::Left
                    } else {
                        Side::Right
                    }
                })
                .inspect(|_| rest.push(body.to_owned()))
            }
            _ => None,
        };
        match found {
            Some(s) if side.is_none() => side = Some(s),
            _ if found.is_none() => rest.push(t.clone()),
            _ => {}
        }
    }
    // Numbered copies ("spine.001", "neck_01") keep their number apart.
    (side, rest.join(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_side_names_swap_the_side_alone() {
        for (name, other) in [
            ("left elbow", "right elbow"),
            ("mixamorig:LeftUpLeg", "mixamorig:RightUpLeg"),
            ("DEF-thigh.L", "DEF-thigh.R"),
            ("thigh_r", "thigh_l"),
            ("J_Bip_R_Hand", "J_Bip_L_Hand"),
            ("Bip001 L Thigh", "Bip001 R Thigh"),
            ("arm_joint_L_2", "arm_joint_R_2"),
            ("lhipjoint", "rhipjoint"),
        ] {
            assert!(
                other_side_names(name).iter().any(|n| n == other),
                "{name}: {:?}",
                other_side_names(name)
            );
        }
        assert!(other_side_names("pelvis").is_empty());
        assert!(
            !other_side_names("Spine1")
                .iter()
                .any(|n| n.contains("Spine"))
        );
    }

    #[test]
    fn every_convention_names_its_side() {
        for (name, side, stem) in [
            ("left elbow", Some(Side::Left), "elbow"),
            ("right heel", Some(Side::Right), "heel"),
            ("mixamorig:LeftUpLeg", Some(Side::Left), "upleg"),
            ("DEF-thigh.L", Some(Side::Left), "thigh"),
            ("thigh_r", Some(Side::Right), "thigh"),
            ("J_Bip_R_Hand", Some(Side::Right), "hand"),
            ("Bip001 L Thigh", Some(Side::Left), "thigh"),
            ("RightToeBase", Some(Side::Right), "toebase"),
            ("lhipjoint", Some(Side::Left), "hipjoint"),
            ("pelvis", None, "pelvis"),
            ("Spine1", None, "spine1"),
        ] {
            assert_eq!(split_name(name), (side, stem.to_owned()), "{name}");
        }
    }
}
