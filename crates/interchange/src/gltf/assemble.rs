//! Several glTF files put into one (a stage's figures and props, [`crate::stage::glb`]): each
//! part's buffers, accessors, meshes, materials, textures, images, samplers, skins, cameras and
//! nodes are appended with every index that points at them moved by what came before, its BIN
//! chunk appended to the one buffer, and its first animation's channels gathered into the one
//! animation of the whole (glTF 2.0 §3.11: a player plays one animation at a time, so the parts
//! must share it). A part's own scene roots are returned for the caller to place under a node of
//! its own. Top-level extensions (a VRM file's metadata, whose node indices would no longer
//! hold) are not carried over, and said so.

use serde_json::{Map, Value, json};

use crate::gltf::glb::{chunks, frame};
use crate::gltf::write::{BinChunk, float_accessor};

/// A glTF file as its JSON and the bytes of its BIN chunk (buffer 0; every buffer view points
/// into it, as a GLB's do).
#[derive(Debug, Clone)]
pub struct GltfPart {
    /// The JSON document.
    pub json: Value,
    /// The binary buffer.
    pub bin: Vec<u8>,
}

impl GltfPart {
    /// A GLB file's two chunks (glTF 2.0 §4.4; a GLB without a BIN chunk has an empty one).
    pub fn from_glb(bytes: &[u8]) -> Result<GltfPart, String> {
        let (json, bin) = chunks(bytes)?;
        Ok(GltfPart {
            json,
            bin: bin.unwrap_or_default(),
        })
    }
}

/// The kinds of things a part holds, each appended to the whole's array of that name.
const ARRAYS: [&str; 11] = [
    "accessors",
    "bufferViews",
    "nodes",
    "meshes",
    "skins",
    "materials",
    "textures",
    "images",
    "samplers",
    "cameras",
    "animations",
];

/// A buffer view's target holding vertex attributes (glTF 2.0 §5.11.3).
const ARRAY_BUFFER: u32 = 34962;

/// A buffer view's target holding vertex indices.
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The numbers in one element of an accessor of glTF type `kind`.
fn width(kind: &str) -> usize {
    match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "MAT4" => 16,
        _ => 4,
    }
}

/// The one glTF file being assembled.
#[derive(Debug, Default)]
pub struct Assembly {
    arrays: Map<String, Value>,
    bin: BinChunk,
    channels: Vec<Value>,
    samplers: Vec<Value>,
    extensions_used: Vec<String>,
    /// What could not be carried over.
    pub warnings: Vec<String>,
}

impl Assembly {
    /// How many of `kind` the whole holds so far.
    fn len(&self, kind: &str) -> usize {
        self.arrays
            .get(kind)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Whether node `n` holds a skinned mesh and nothing under it.
    pub fn is_skinned_leaf(&self, n: usize) -> bool {
        let node = &self
            .arrays
            .get("nodes")
            .map_or(Value::Null, |a| a[n].clone());
        node.get("skin").is_some() && node.get("children").is_none()
    }

    /// Appends `item` to the whole's array `kind`; its index.
    pub fn push(&mut self, kind: &str, item: Value) -> usize {
        let array = self
            .arrays
            .entry(kind.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        let array = array.as_array_mut().expect("arrays hold arrays");
        array.push(item);
        array.len() - 1
    }

    /// Appends 32-bit floats as a buffer view and an accessor of `kind` ("SCALAR", "VEC2",
    /// "VEC3", "VEC4", "MAT4"), with min and max when `bounds`; the accessor's index.
    pub fn floats(&mut self, values: &[f32], kind: &str, bounds: bool) -> usize {
        let (bytes, accessor) = float_accessor(values, width(kind), kind, bounds);
        self.accessor(&bytes, accessor, None)
    }

    /// [`Assembly::floats`] holding a vertex attribute (its buffer view's target says so).
    pub fn vertex_floats(&mut self, values: &[f32], kind: &str, bounds: bool) -> usize {
        let (bytes, accessor) = float_accessor(values, width(kind), kind, bounds);
        self.accessor(&bytes, accessor, Some(ARRAY_BUFFER))
    }

    /// Appends unsigned 16-bit integers (a vertex attribute: joint indices) as a buffer view and
    /// an accessor of `kind` ("VEC4"); the accessor's index.
    pub fn u16s(&mut self, values: &[u16], kind: &str) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let count = values.len() / width(kind);
        self.accessor(
            &bytes,
            json!({"componentType": 5123, "count": count, "type": kind}),
            Some(ARRAY_BUFFER),
        )
    }

    /// Appends unsigned 32-bit integers as a primitive's vertex indices (a buffer view and a
    /// scalar accessor); the accessor's index.
    pub fn indices(&mut self, values: &[u32]) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.accessor(
            &bytes,
            json!({"componentType": 5125, "count": values.len(), "type": "SCALAR"}),
            Some(ELEMENT_ARRAY_BUFFER),
        )
    }

    /// Appends `bytes` as a buffer view (of `target`, if given) and `accessor` over it; the
    /// accessor's index.
    fn accessor(&mut self, bytes: &[u8], mut accessor: Value, target: Option<u32>) -> usize {
        let view = self.view(bytes);
        if let Some(target) = target {
            self.arrays["bufferViews"][view]["target"] = json!(target);
        }
        accessor["bufferView"] = json!(view);
        self.push("accessors", accessor)
    }

    /// Appends `bytes` (an image's, say) as a buffer view, 4-byte aligned; its index.
    pub fn view(&mut self, bytes: &[u8]) -> usize {
        self.bin.pad(4);
        let offset = self.bin.bytes.len();
        self.bin.bytes.extend_from_slice(bytes);
        self.push(
            "bufferViews",
            json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}),
        )
    }

    /// Adds an animation channel moving `node`'s `path` ("translation" or "rotation") by the
    /// keys `output` (an accessor) at the times `input` (an accessor).
    pub fn channel(&mut self, node: usize, path: &str, input: usize, output: usize) {
        self.samplers
            .push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        self.channels.push(
            json!({"sampler": self.samplers.len() - 1, "target": {"node": node, "path": path}}),
        );
    }

    /// Appends a whole part, its node names prefixed by `prefix`; the whole's indices of the
    /// part's scene roots. With `animated`, the part's first animation joins the whole's; else
    /// its animations are dropped.
    pub fn add(&mut self, part: GltfPart, prefix: &str, animated: bool) -> Vec<usize> {
        let GltfPart { mut json, bin } = part;
        let base = |kind: &str| self.len(kind);
        let offsets: Map<String, Value> = ARRAYS
            .iter()
            .map(|kind| ((*kind).to_owned(), json!(base(kind))))
            .collect();
        let at = |kind: &str| offsets[kind].as_u64().unwrap_or(0) as usize;
        let roots = scene_roots(&json, at("nodes"));
        self.bin.pad(16);
        let bin_start = self.bin.bytes.len();
        self.bin.bytes.extend_from_slice(&bin);
        let shift = |v: &mut Value, by: usize| {
            if let Some(i) = v.as_u64() {
                *v = json!(i as usize + by);
            }
        };
        for view in array_mut(&mut json, "bufferViews") {
            view["buffer"] = json!(0);
            let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            view["byteOffset"] = json!(bin_start + offset);
        }
        for accessor in array_mut(&mut json, "accessors") {
            shift(&mut accessor["bufferView"], at("bufferViews"));
            if let Some(sparse) = accessor.get_mut("sparse") {
                shift(&mut sparse["indices"]["bufferView"], at("bufferViews"));
                shift(&mut sparse["values"]["bufferView"], at("bufferViews"));
            }
            drop_null(accessor, "bufferView");
        }
        for image in array_mut(&mut json, "images") {
            shift(&mut image["bufferView"], at("bufferViews"));
            drop_null(image, "bufferView");
        }
        for texture in array_mut(&mut json, "textures") {
            shift(&mut texture["source"], at("images"));
            shift(&mut texture["sampler"], at("samplers"));
            drop_null(texture, "source");
            drop_null(texture, "sampler");
            if let Some(Value::Object(ext)) = texture.get_mut("extensions") {
                for e in ext.values_mut() {
                    shift(&mut e["source"], at("images"));
                }
            }
        }
        for material in array_mut(&mut json, "materials") {
            shift_textures(material, at("textures"));
        }
        for mesh in array_mut(&mut json, "meshes") {
            for primitive in mesh["primitives"].as_array_mut().into_iter().flatten() {
                shift_values(&mut primitive["attributes"], at("accessors"));
                shift(&mut primitive["indices"], at("accessors"));
                shift(&mut primitive["material"], at("materials"));
                drop_null(primitive, "indices");
                drop_null(primitive, "material");
                for target in primitive["targets"].as_array_mut().into_iter().flatten() {
                    shift_values(target, at("accessors"));
                }
                drop_null(primitive, "targets");
            }
        }
        for skin in array_mut(&mut json, "skins") {
            for j in skin["joints"].as_array_mut().into_iter().flatten() {
                shift(j, at("nodes"));
            }
            shift(&mut skin["skeleton"], at("nodes"));
            shift(&mut skin["inverseBindMatrices"], at("accessors"));
            drop_null(skin, "skeleton");
            drop_null(skin, "inverseBindMatrices");
        }
        for node in array_mut(&mut json, "nodes") {
            for c in node["children"].as_array_mut().into_iter().flatten() {
                shift(c, at("nodes"));
            }
            for (key, kind) in [("mesh", "meshes"), ("skin", "skins"), ("camera", "cameras")] {
                shift(&mut node[key], at(kind));
                drop_null(node, key);
            }
            drop_null(node, "children");
            let name = node["name"].as_str().unwrap_or("node").to_owned();
            node["name"] = json!(format!("{prefix}{name}"));
        }
        if animated && let Some(animation) = json["animations"].get(0).cloned() {
            let first = self.samplers.len();
            for mut sampler in animation["samplers"]
                .as_array()
                .cloned()
                .unwrap_or_default()
            {
                shift(&mut sampler["input"], at("accessors"));
                shift(&mut sampler["output"], at("accessors"));
                self.samplers.push(sampler);
            }
            for mut channel in animation["channels"]
                .as_array()
                .cloned()
                .unwrap_or_default()
            {
                shift(&mut channel["sampler"], first);
                shift(&mut channel["target"]["node"], at("nodes"));
                self.channels.push(channel);
            }
        }
        if let Some(Value::Object(top)) = json.get("extensions")
            && !top.is_empty()
        {
            let names: Vec<&str> = top.keys().map(String::as_str).collect();
            self.warnings.push(format!(
                "\"{}\": its file's {} data is not kept (it names the file's own nodes)",
                prefix.trim_end_matches('/'),
                names.join(", ")
            ));
        }
        for used in json["extensionsUsed"].as_array().into_iter().flatten() {
            if let Some(name) = used.as_str()
                && !self.extensions_used.iter().any(|u| u == name)
            {
                self.extensions_used.push(name.to_owned());
            }
        }
        for kind in ARRAYS {
            if kind == "animations" {
                continue;
            }
            for item in json[kind].as_array().cloned().unwrap_or_default() {
                self.push(kind, item);
            }
        }
        roots
    }

    /// The GLB bytes of the whole: one scene of `roots`, named `name`, its animation named
    /// `animation` (when anything moves).
    pub fn finish(mut self, name: &str, roots: &[usize], animation: &str) -> Vec<u8> {
        self.bin.pad(4);
        let mut root = json!({
            "asset": {"version": "2.0", "generator": "Marionette"},
            "scene": 0,
            "scenes": [{"name": name, "nodes": roots}],
            "buffers": [{"byteLength": self.bin.bytes.len()}],
        });
        for (kind, items) in std::mem::take(&mut self.arrays) {
            if kind != "animations" && items.as_array().is_some_and(|a| !a.is_empty()) {
                root[kind] = items;
            }
        }
        if !self.channels.is_empty() {
            root["animations"] = json!([{"name": animation, "channels": self.channels,
                "samplers": self.samplers}]);
        }
        // Only the extensions something still uses are declared.
        let text = serde_json::to_string(&root).unwrap_or_default();
        let used: Vec<&String> = self
            .extensions_used
            .iter()
            .filter(|e| text.contains(&format!("\"{e}\":")))
            .collect();
        if !used.is_empty() {
            root["extensionsUsed"] = json!(used);
        }
        frame(&root, &self.bin.bytes)
    }
}

/// The items of `json[kind]`, to change in place.
fn array_mut<'a>(json: &'a mut Value, kind: &str) -> impl Iterator<Item = &'a mut Value> {
    json.get_mut(kind)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// Removes `object[key]` when it is null (left by indexing a key that was not there).
fn drop_null(object: &mut Value, key: &str) {
    if let Some(map) = object.as_object_mut()
        && map.get(key).is_some_and(Value::is_null)
    {
        map.remove(key);
    }
}

/// Moves every value of an object of indices (a primitive's attributes or morph target).
fn shift_values(object: &mut Value, by: usize) {
    if let Some(map) = object.as_object_mut() {
        for v in map.values_mut() {
            if let Some(i) = v.as_u64() {
                *v = json!(i as usize + by);
            }
        }
    }
}

/// Moves the texture index of every texture reference in a material, its extensions'
/// included: any object named `…Texture` holding an `index`.
fn shift_textures(value: &mut Value, by: usize) {
    if let Some(map) = value.as_object_mut() {
        for (key, v) in map.iter_mut() {
            if key.ends_with("Texture")
                && let Some(i) = v.get("index").and_then(Value::as_u64)
            {
                v["index"] = json!(i as usize + by);
            }
            shift_textures(v, by);
        }
    }
}

/// The nodes of a part's scene (its `scene`, else its first; else every node no other names
/// as a child), moved by `by`.
fn scene_roots(json: &Value, by: usize) -> Vec<usize> {
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let listed = json["scenes"][scene]["nodes"].as_array();
    let roots: Vec<usize> = match listed {
        Some(nodes) => nodes
            .iter()
            .filter_map(Value::as_u64)
            .map(|n| n as usize)
            .collect(),
        None => {
            let nodes = json["nodes"].as_array().map_or(0, Vec::len);
            let mut child = vec![false; nodes];
            for node in json["nodes"].as_array().into_iter().flatten() {
                for c in node["children"].as_array().into_iter().flatten() {
                    if let Some(c) = c.as_u64().filter(|&c| (c as usize) < nodes) {
                        child[c as usize] = true;
                    }
                }
            }
            (0..nodes).filter(|&n| !child[n]).collect()
        }
    };
    roots.into_iter().map(|n| n + by).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small part: two nodes (a parent and its child, the child with a mesh on a material
    /// with a texture), one accessor on one buffer view, an animation moving the child.
    fn part() -> GltfPart {
        GltfPart {
            json: json!({
                "asset": {"version": "2.0"},
                "scenes": [{"nodes": [0]}],
                "nodes": [{"name": "top", "children": [1]}, {"name": "leaf", "mesh": 0}],
                "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
                "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
                "textures": [{"source": 0, "sampler": 0}],
                "images": [{"bufferView": 0, "mimeType": "image/png"}],
                "samplers": [{}],
                "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "SCALAR"}],
                "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 4}],
                "animations": [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                                "samplers": [{"input": 0, "output": 0}]}],
                "extensions": {"VRMC_vrm": {"humanoid": {}}},
                "extensionsUsed": ["VRMC_vrm"],
            }),
            bin: vec![1, 2, 3, 4],
        }
    }

    #[test]
    fn a_second_part_points_at_its_own_things() {
        let mut whole = Assembly::default();
        assert_eq!(whole.add(part(), "a/", true), vec![0]);
        assert_eq!(whole.add(part(), "b/", true), vec![2]);
        let bytes = whole.finish("s", &[0, 2], "go");
        let back = GltfPart::from_glb(&bytes).expect("reads back");
        let j = &back.json;
        assert_eq!(j["nodes"][2]["name"], "b/top");
        assert_eq!(j["nodes"][2]["children"], json!([3]));
        assert_eq!(j["nodes"][3]["mesh"], 1);
        assert_eq!(j["meshes"][1]["primitives"][0]["attributes"]["POSITION"], 1);
        assert_eq!(j["meshes"][1]["primitives"][0]["material"], 1);
        assert_eq!(
            j["materials"][1]["pbrMetallicRoughness"]["baseColorTexture"]["index"],
            1
        );
        assert_eq!(j["textures"][1], json!({"source": 1, "sampler": 1}));
        assert_eq!(j["images"][1]["bufferView"], 1);
        assert_eq!(j["accessors"][1]["bufferView"], 1);
        // The second part's bytes start on a 16-byte boundary after the first's.
        assert_eq!(j["bufferViews"][1]["byteOffset"], 16);
        assert_eq!(&back.bin[16..20], &[1, 2, 3, 4]);
        let animation = &j["animations"][0];
        assert_eq!(animation["name"], "go");
        assert_eq!(animation["channels"][1]["target"]["node"], 3);
        assert_eq!(animation["channels"][1]["sampler"], 1);
        assert_eq!(animation["samplers"][1]["output"], 1);
        // The VRM data names the parts' own nodes: dropped, said, and no longer declared.
        assert!(j.get("extensions").is_none() && j.get("extensionsUsed").is_none());
        assert_eq!(whole_warnings(), 2);
    }

    fn whole_warnings() -> usize {
        let mut whole = Assembly::default();
        whole.add(part(), "a/", true);
        whole.add(part(), "b/", false);
        whole.warnings.len()
    }

    #[test]
    fn a_broken_glb_is_an_error_not_a_panic() {
        assert!(GltfPart::from_glb(b"").is_err());
        assert!(GltfPart::from_glb(b"glTF\x02\0\0\0").is_err());
        let mut bytes = b"glTF\x02\0\0\0\x20\0\0\0\xff\xff\xff\x00JSON".to_vec();
        assert!(GltfPart::from_glb(&bytes).is_err());
        bytes.truncate(12);
        assert!(GltfPart::from_glb(&bytes).is_err());
    }
}
