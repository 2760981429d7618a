//! The one place that converts between Bevy's types (glam, f32) and the core's (nalgebra, f64):
//! points, rotations, transforms, rigid motions and rays. The core computes in f64; what is drawn is rounded to f32 here,
//! and what the user points at comes back as f64 here.

use bevy::prelude::*;
use marionette_editing::Ray;
use nalgebra::{Isometry3, Matrix3, Matrix4, Vector3};

/// A core point or vector as Bevy's.
pub fn vec3(v: &Vector3<f64>) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// A Bevy point or vector as the core's.
pub fn vector(v: Vec3) -> Vector3<f64> {
    Vector3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

/// A core point given as an array (a replay's target) as Bevy's.
pub fn array_vec3(v: &[f64; 3]) -> Vec3 {
    Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

/// A core rotation matrix as a unit quaternion.
pub fn quat(m: &Matrix3<f64>) -> Quat {
    let column = |k: usize| vec3(&m.column(k).into_owned());
    Quat::from_mat3(&Mat3::from_cols(column(0), column(1), column(2))).normalize()
}

/// A core affine transform (a glTF node's rotation, uniform scale and translation) as Bevy's.
pub fn transform(m: &Matrix4<f64>) -> Transform {
    Transform::from_matrix(Mat4::from_cols_array(&std::array::from_fn(|k| {
        m[(k % 4, k / 4)] as f32
    })))
}

/// A core rigid motion (a figure's or a prop's place on the stage) as Bevy's transform.
pub fn isometry(iso: &Isometry3<f64>) -> Transform {
    Transform::from_translation(vec3(&iso.translation.vector))
        .with_rotation(quat(iso.rotation.to_rotation_matrix().matrix()))
}

/// Bevy's ray as the core's; `None` for a degenerate one.
pub fn ray(ray: &Ray3d) -> Option<Ray> {
    Ray::new(vector(ray.origin), vector(*ray.direction))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip_within_f32() {
        let v = Vector3::new(0.25, -1.5, 3.0);
        assert_eq!(vector(vec3(&v)), v);
        let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1);
        let q = quat(r.matrix());
        let p = Vec3::new(0.1, 0.2, 0.3);
        let ours = r * vector(p);
        assert!((q * p - vec3(&ours)).length() < 1e-6);
        let bevy_ray = Ray3d::new(Vec3::ZERO, Dir3::NEG_Z);
        assert_eq!(ray(&bevy_ray).map(|r| r.direction), Some(-Vector3::z()));
    }
}
