//! Points, vectors and poses from other math crates, through
//! [`mint`](https://docs.rs/mint) (the `mint` feature).
//!
//! kasanari speaks nalgebra; a game written with glam, cgmath, ultraviolet or
//! its own vector type hands its values in through mint, the interchange
//! types these crates convert to and from. Each function here takes anything
//! that converts into the mint type, so a `glam::Vec2` (with glam's `mint`
//! feature) goes straight in; answers go back out with `.into()` (nalgebra's
//! own `convert-mint` conversions, which this feature turns on).
//!
//! The conversions are exact (they copy coordinates); only the rotations
//! compute: [`pose2`] takes an angle, [`pose3`] normalises its quaternion and
//! refuses one that cannot be normalised.
//!
//! ```
//! # #[cfg(feature = "mint")] {
//! use shape::interop::{point2, pose2, vector2};
//! use shape::prelude::*;
//!
//! // A game's own vector type that converts into mint's.
//! #[derive(Clone, Copy)]
//! struct Vec2 { x: f32, y: f32 }
//! impl From<Vec2> for mint::Vector2<f32> {
//!     fn from(v: Vec2) -> Self { mint::Vector2 { x: v.x, y: v.y } }
//! }
//! impl From<Vec2> for mint::Point2<f32> {
//!     fn from(v: Vec2) -> Self { mint::Point2 { x: v.x, y: v.y } }
//! }
//!
//! let crate_box = Obb::new(vector2(Vec2 { x: 1.0, y: 0.5 })).unwrap();
//! let pose = pose2(Vec2 { x: 10.0, y: 2.0 }, 0.0);
//! assert!(crate_box.contains_point(&pose, &point2(Vec2 { x: 10.9, y: 2.4 })));
//!
//! // Back out: nalgebra's points and vectors convert into mint's.
//! let corner: mint::Point2<f32> = crate_box.bounding_box(&pose).max.into();
//! assert_eq!((corner.x, corner.y), (11.0, 2.5));
//! # }
//! ```

use nalgebra::{
    Isometry2, Isometry3, Point2, Point3, Quaternion, Translation3, UnitQuaternion, Vector2,
    Vector3,
};

use crate::{Real, ShapeError};

/// A 2D point from anything that converts into a `mint::Point2`.
#[must_use]
#[inline]
pub fn point2<T: Real>(p: impl Into<mint::Point2<T>>) -> Point2<T> {
    Point2::from(p.into())
}

/// A 2D vector (a half extent, a direction, a translation) from anything
/// that converts into a `mint::Vector2`.
#[must_use]
#[inline]
pub fn vector2<T: Real>(v: impl Into<mint::Vector2<T>>) -> Vector2<T> {
    Vector2::from(v.into())
}

/// A 3D point from anything that converts into a `mint::Point3`.
#[must_use]
#[inline]
pub fn point3<T: Real>(p: impl Into<mint::Point3<T>>) -> Point3<T> {
    Point3::from(p.into())
}

/// A 3D vector from anything that converts into a `mint::Vector3`.
#[must_use]
#[inline]
pub fn vector3<T: Real>(v: impl Into<mint::Vector3<T>>) -> Vector3<T> {
    Vector3::from(v.into())
}

/// A 2D pose: the shape's local origin at `position`, turned by `angle`
/// radians counter-clockwise (mint has no 2D rotation type; games keep an
/// angle; the rotation by [`crate::math::rotation2`], deterministic).
#[must_use]
#[inline]
pub fn pose2<T: Real>(position: impl Into<mint::Vector2<T>>, angle: T) -> Isometry2<T> {
    Isometry2::from_parts(
        nalgebra::Translation2::from(vector2(position)),
        crate::math::rotation2(angle),
    )
}

/// A 3D pose: the shape's local origin at `position`, turned by the
/// quaternion `orientation` (normalised here, so a quaternion that drifted
/// from unit length over many frames is accepted).
///
/// # Errors
/// [`ShapeError::NonFinite`] (field `"orientation"`) when the quaternion has
/// a NaN or infinite component or is too close to zero to be normalised.
pub fn pose3<T: Real>(
    position: impl Into<mint::Vector3<T>>,
    orientation: impl Into<mint::Quaternion<T>>,
) -> Result<Isometry3<T>, ShapeError> {
    let q = Quaternion::from(orientation.into());
    let norm = q.norm();
    // A zero, tiny (its norm underflows or rounds badly) or non-finite
    // quaternion names no rotation.
    if !(num_traits::Float::is_finite(norm) && norm >= T::lit(1e-12)) {
        return Err(ShapeError::NonFinite {
            field: "orientation",
        });
    }
    let rotation = UnitQuaternion::new_unchecked(q / norm);
    Ok(Isometry3::from_parts(
        Translation3::from(vector3(position)),
        rotation,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user's own vector type, converting into mint as glam's does.
    #[derive(Clone, Copy)]
    struct V2 {
        x: f64,
        y: f64,
    }
    impl From<V2> for mint::Vector2<f64> {
        fn from(v: V2) -> Self {
            Self { x: v.x, y: v.y }
        }
    }
    impl From<V2> for mint::Point2<f64> {
        fn from(v: V2) -> Self {
            Self { x: v.x, y: v.y }
        }
    }

    #[test]
    fn coordinates_are_copied_exactly() {
        let v = V2 { x: 0.1, y: -3e300 };
        assert_eq!(point2(v), Point2::new(0.1, -3e300));
        assert_eq!(vector2(v), Vector2::new(0.1, -3e300));
        let p: mint::Point3<f32> = mint::Point3 {
            x: 1.5,
            y: f32::MIN_POSITIVE,
            z: -7.0,
        };
        assert_eq!(point3(p), Point3::new(1.5, f32::MIN_POSITIVE, -7.0));
        assert_eq!(
            vector3([1.0f32, 2.0, 3.0]),
            Vector3::new(1.0, 2.0, 3.0),
            "arrays convert into mint too"
        );
        // And back.
        let back: mint::Point2<f64> = point2(v).into();
        assert_eq!((back.x, back.y), (0.1, -3e300));
    }

    #[test]
    fn poses_place_the_origin_and_turn() {
        let pose = pose2(V2 { x: 2.0, y: 1.0 }, core::f64::consts::FRAC_PI_2);
        let p = pose * Point2::new(1.0, 0.0);
        assert!((p - Point2::new(2.0, 2.0)).norm() < 1e-15, "{p}");

        // A quarter turn about z, given at twice unit length.
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let q = mint::Quaternion {
            v: mint::Vector3 {
                x: 0.0,
                y: 0.0,
                z: 2.0 * h,
            },
            s: 2.0 * h,
        };
        let pose = pose3([1.0, 0.0, 0.0], q).unwrap();
        let p = pose * Point3::new(1.0, 0.0, 0.0);
        assert!((p - Point3::new(1.0, 1.0, 0.0)).norm() < 1e-15, "{p}");
        assert!((pose.rotation.quaternion().norm() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn a_quaternion_that_names_no_rotation_is_refused() {
        let bad = |s: f64, z: f64| mint::Quaternion {
            v: mint::Vector3 { x: 0.0, y: 0.0, z },
            s,
        };
        for q in [
            bad(0.0, 0.0),
            bad(f64::NAN, 0.0),
            bad(1.0, f64::INFINITY),
            bad(1e-300, 0.0),
        ] {
            assert_eq!(
                pose3([0.0, 0.0, 0.0], q).unwrap_err(),
                ShapeError::NonFinite {
                    field: "orientation"
                }
            );
        }
    }
}
