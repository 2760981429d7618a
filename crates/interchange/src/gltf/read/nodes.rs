//! The file's nodes: each one's local transform (a matrix, or translation, rotation and scale)
//! and parent, checked to be one forest; and a transform split into rotation, translation and a
//! uniform scale.

use marionette_skeleton::rotation::nearest_rotation;
use nalgebra::{Matrix3, Matrix4, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;

use super::error::{GltfError, MAX_NODES};

/// One node: its name, place in the tree and rest transform.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeInfo {
    /// Its name in the file, if any.
    pub name: Option<String>,
    /// Its parent node.
    pub parent: Option<usize>,
    /// Its child nodes.
    pub children: Vec<usize>,
    /// Its transform relative to its parent (the file's TRS or matrix).
    pub local: Matrix4<f64>,
    /// Its mesh.
    pub mesh: Option<usize>,
    /// Its skin.
    pub skin: Option<usize>,
}

/// Every node of the file's JSON, checked to be one forest.
pub(super) fn read_nodes(json: &Value, file: &str) -> Result<Vec<NodeInfo>, GltfError> {
    let list = json["nodes"].as_array().map_or(&[][..], Vec::as_slice);
    if list.len() > MAX_NODES {
        return Err(GltfError::NotGltf {
            file: file.to_owned(),
            why: format!("{} nodes (at most {MAX_NODES} are read)", list.len()),
        });
    }
    let label = |i: usize| match list[i]["name"].as_str() {
        Some(name) => format!("{i} (\"{name}\")"),
        None => i.to_string(),
    };
    let error = |i: usize, why: String| GltfError::Node {
        file: file.to_owned(),
        node: label(i),
        why,
    };
    let mut nodes = Vec::with_capacity(list.len());
    for (i, n) in list.iter().enumerate() {
        let children: Vec<usize> = n["children"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                c.as_u64()
                    .map(|c| c as usize)
                    .filter(|&c| c < list.len())
                    .ok_or_else(|| error(i, format!("child {c} does not exist")))
            })
            .collect::<Result<_, _>>()?;
        nodes.push(NodeInfo {
            name: n["name"].as_str().map(str::to_owned),
            parent: None,
            children,
            local: local_matrix(n).map_err(|why| error(i, why))?,
            mesh: n["mesh"].as_u64().map(|m| m as usize),
            skin: n["skin"].as_u64().map(|s| s as usize),
        });
    }
    for i in 0..nodes.len() {
        for c in nodes[i].children.clone() {
            if c == i || nodes[c].parent.is_some() {
                return Err(error(c, "has more than one parent".into()));
            }
            nodes[c].parent = Some(i);
        }
    }
    // A cycle among parents would make the world transforms loop.
    for start in 0..nodes.len() {
        let (mut n, mut steps) = (start, 0);
        while let Some(p) = nodes[n].parent {
            steps += 1;
            if steps > nodes.len() {
                return Err(error(start, "its ancestors form a cycle".into()));
            }
            n = p;
        }
    }
    Ok(nodes)
}

/// A node's local transform from its `matrix` or its `translation`, `rotation` and `scale`.
fn local_matrix(node: &Value) -> Result<Matrix4<f64>, String> {
    let numbers = |key: &str, len: usize| -> Result<Option<Vec<f64>>, String> {
        let Some(v) = node.get(key) else {
            return Ok(None);
        };
        let values: Option<Vec<f64>> = v
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect());
        match values {
            Some(values) if values.len() == len && values.iter().all(|x| x.is_finite()) => {
                Ok(Some(values))
            }
            _ => Err(format!("{key} is not {len} finite numbers")),
        }
    };
    if let Some(m) = numbers("matrix", 16)? {
        // Column-major.
        return Ok(Matrix4::from_column_slice(&m));
    }
    let t = numbers("translation", 3)?.unwrap_or_else(|| vec![0.0; 3]);
    let r = numbers("rotation", 4)?.unwrap_or_else(|| vec![0.0, 0.0, 0.0, 1.0]);
    let s = numbers("scale", 3)?.unwrap_or_else(|| vec![1.0; 3]);
    let q = Quaternion::new(r[3], r[0], r[1], r[2]);
    if q.norm() < 1e-6 {
        return Err("rotation is not a unit quaternion".into());
    }
    let rotation = UnitQuaternion::from_quaternion(q).to_rotation_matrix();
    let mut m = Matrix4::identity();
    let rs: Matrix3<f64> =
        rotation.matrix() * Matrix3::from_diagonal(&Vector3::new(s[0], s[1], s[2]));
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&rs);
    m.fixed_view_mut::<3, 1>(0, 3)
        .copy_from(&Vector3::new(t[0], t[1], t[2]));
    Ok(m)
}

/// A transform's rotation, translation and uniform scale, or why it is not one (a scale that
/// differs by axis, a shear, a mirror).
pub fn decompose(m: &Matrix4<f64>) -> Result<(Matrix3<f64>, Vector3<f64>, f64), String> {
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    let translation: Vector3<f64> = m.fixed_view::<3, 1>(0, 3).into_owned();
    let scales: Vec<f64> = (0..3).map(|k| linear.column(k).norm()).collect();
    let s = scales.iter().sum::<f64>() / 3.0;
    if !(s.is_finite() && s > 1e-9) {
        return Err("its scale is zero".into());
    }
    if scales.iter().any(|x| (x - s).abs() > 1e-4 * s) {
        return Err(format!(
            "its scale is not uniform ({:.6}, {:.6}, {:.6})",
            scales[0], scales[1], scales[2]
        ));
    }
    let rotation = linear / s;
    let off_orthogonal = (rotation.transpose() * rotation - Matrix3::identity())
        .abs()
        .max();
    if off_orthogonal > 1e-4 {
        return Err("its transform shears".into());
    }
    if rotation.determinant() < 0.0 {
        return Err("its transform mirrors (a negative scale)".into());
    }
    Ok((nearest_rotation(&rotation), translation, s))
}
