//! A ball, centred on its local origin.
//!
//! Everything is closed form: the bounding box is the centre ± `r` on each axis,
//! the support point in `d` is `c + r d/|d|`, the projection on `a` is
//! `c·a ± r|a|`. A rotation of the pose moves nothing.
//!
//! Degenerate input: a zero (or NaN) direction has no unit vector; the support
//! point is then the centre, deterministically.

use core::any::Any;

use nalgebra::{Isometry3, Point3, Vector3};
use num_traits::Float;

use super::{Convex3, Shape3};
use crate::dim2::check_positive;
use crate::{BoundingBox3, Interval, Real, ShapeError, ShapeKind};

/// A closed ball of radius `r` centred on the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere<T: Real> {
    radius: T,
}

impl<T: Real> Sphere<T> {
    /// A sphere of the given radius.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] (field
    /// `"radius"`) for a radius that is not a finite positive number.
    ///
    /// ```
    /// use shape::{ShapeError, Sphere};
    /// assert_eq!(Sphere::new(2.0).unwrap().radius(), 2.0);
    /// assert_eq!(
    ///     Sphere::new(-1.0).unwrap_err(),
    ///     ShapeError::NonPositiveSize { field: "radius", value: -1.0 },
    /// );
    /// let infinite = Sphere::new(f32::INFINITY);
    /// assert!(matches!(infinite, Err(ShapeError::NonFinite { field: "radius" })));
    /// ```
    pub fn new(radius: T) -> Result<Self, ShapeError> {
        check_positive(radius, "radius")?;
        Ok(Self { radius })
    }

    /// The radius.
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The interval of `p · axis` over the sphere placed at `pose`:
    /// `c·axis ± r|axis|`.
    ///
    /// `axis` need not be unit; the interval then scales with its length.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Vector3};
    /// use shape::Sphere;
    /// let s = Sphere::new(1.0).unwrap();
    /// let i = s.project(&Isometry3::translation(0.0, 3.0, 0.0), &Vector3::new(0.0, 2.0, 0.0));
    /// assert_eq!((i.min, i.max), (4.0, 8.0));
    /// ```
    #[must_use]
    pub fn project(&self, pose: &Isometry3<T>, axis: &Vector3<T>) -> Interval<T> {
        let c = pose.translation.vector.dot(axis);
        let r = self.radius * axis.norm();
        Interval::new(c - r, c + r)
    }
}

impl<T: Real> Shape3<T> for Sphere<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::SPHERE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef3<'_, T>> {
        Some(crate::ShapeRef3::Sphere(self))
    }
    fn bounding_box(&self, pose: &Isometry3<T>) -> BoundingBox3<T> {
        let c = Point3::from(pose.translation.vector);
        let r = Vector3::repeat(self.radius);
        BoundingBox3::new(c - r, c + r)
    }
    fn as_convex(&self) -> Option<&dyn Convex3<T>> {
        Some(self)
    }
}

impl<T: Real> Convex3<T> for Sphere<T> {
    /// `c + r d/|d|`; the centre `c` for a zero, NaN or infinite `d`.
    fn support_point(&self, pose: &Isometry3<T>, dir: &Vector3<T>) -> Point3<T> {
        let c = Point3::from(pose.translation.vector);
        // Divide by the largest component first so that |d| neither underflows
        // (tiny f32 directions) nor overflows.
        let m = dir
            .iter()
            .fold(T::zero(), |m, &v| Float::max(m, Float::abs(v)));
        // (`Float::max` skips NaN: test every component too.)
        if !(m > T::zero() && m.is_finite() && dir.iter().all(|v| v.is_finite())) {
            return c;
        }
        let d = dir / m;
        let len = d.norm();
        if len > T::zero() && len.is_finite() {
            c + d * (self.radius / len)
        } else {
            c
        }
    }
    fn contains_point(&self, pose: &Isometry3<T>, p: &Point3<T>) -> bool {
        (p.coords - pose.translation.vector).norm_squared() <= self.radius * self.radius
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::UnitQuaternion;

    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn pose<T: Real>() -> Isometry3<T> {
        let t = Vector3::new(T::lit(3.0), T::lit(-1.0), T::lit(2.0));
        Isometry3::from_parts(
            t.into(),
            UnitQuaternion::from_euler_angles(T::lit(0.3), T::lit(-1.1), T::lit(2.5)),
        )
    }

    fn known_values<T: Real>() {
        let s = Sphere::new(T::two()).unwrap();
        let pose = pose::<T>();
        assert_eq!(s.kind(), ShapeKind::SPHERE);
        assert!(s.as_any().downcast_ref::<Sphere<T>>().is_some());
        assert!(s.as_convex().is_some());
        assert_eq!(s.effective_pose(&pose), pose);
        // The rotation does not change the bounding box.
        let b = s.bounding_box(&pose);
        assert_eq!(b.min, Point3::new(T::lit(1.0), T::lit(-3.0), T::lit(0.0)));
        assert_eq!(b.max, Point3::new(T::lit(5.0), T::lit(1.0), T::lit(4.0)));
        // Support along an axis is exact.
        let p = s.support_point(&pose, &Vector3::new(T::zero(), T::lit(-5.0), T::zero()));
        assert_eq!(p, Point3::new(T::lit(3.0), T::lit(-3.0), T::lit(2.0)));
        // Along a diagonal: c + 2 (1,1,1)/√3.
        let p = s.support_point(&pose, &Vector3::repeat(T::lit(0.25)));
        let k = T::two() / Float::sqrt(T::lit(3.0));
        let expected = Point3::new(T::lit(3.0) + k, T::lit(-1.0) + k, T::lit(2.0) + k);
        assert!((p - expected).norm() <= test_tolerance(T::lit(4.0)));
        // Zero direction: the centre, deterministically; and no NaN for NaN.
        let c = Point3::new(T::lit(3.0), T::lit(-1.0), T::lit(2.0));
        assert_eq!(s.support_point(&pose, &Vector3::zeros()), c);
        assert_eq!(
            s.support_point(&pose, &Vector3::new(T::nan(), T::one(), T::zero())),
            c
        );
        // A tiny direction (|d|² underflows in f32) still gives the right point.
        let tiny = T::min_positive_value();
        let p = s.support_point(&pose, &Vector3::new(T::zero(), T::zero(), tiny));
        assert_eq!(p, Point3::new(T::lit(3.0), T::lit(-1.0), T::lit(4.0)));
    }
    for_each_precision!(known, known_values);

    fn projection<T: Real>() {
        let s = Sphere::new(T::two()).unwrap();
        let pose = pose::<T>();
        // Non-unit axis: scales with its length.
        let i = s.project(&pose, &Vector3::new(T::zero(), T::zero(), T::two()));
        assert_eq!((i.min, i.max), (T::zero(), T::lit(8.0)));
        // 3-4-0 axis of length 5: c·a = 9 - 4 = 5, r|a| = 10.
        let i = s.project(&pose, &Vector3::new(T::lit(3.0), T::lit(4.0), T::zero()));
        assert_eq!((i.min, i.max), (T::lit(-5.0), T::lit(15.0)));
        // Zero axis: a single point.
        let i = s.project(&pose, &Vector3::zeros());
        assert_eq!((i.min, i.max), (T::zero(), T::zero()));
    }
    for_each_precision!(project, projection);

    fn containment<T: Real>() {
        let s = Sphere::new(T::two()).unwrap();
        let pose = pose::<T>();
        // Closed: the boundary counts, a hair outside does not.
        for p in [
            Point3::new(T::lit(5.0), T::lit(-1.0), T::lit(2.0)),
            Point3::new(T::lit(3.0), T::lit(-3.0), T::lit(2.0)),
            Point3::new(T::lit(3.0), T::lit(-1.0), T::lit(0.0)),
        ] {
            assert!(s.contains_point(&pose, &p), "{p:?}");
        }
        let out = T::lit(5.0) + test_tolerance::<T>(T::lit(5.0));
        assert!(!s.contains_point(&pose, &Point3::new(out, T::lit(-1.0), T::lit(2.0))));
        let out = -test_tolerance::<T>(T::lit(5.0));
        assert!(!s.contains_point(&pose, &Point3::new(T::lit(3.0), T::lit(-1.0), out)));
        // The centre and a point just inside a diagonal.
        assert!(s.contains_point(&pose, &Point3::new(T::lit(3.0), T::lit(-1.0), T::lit(2.0))));
        let k = T::two() / Float::sqrt(T::lit(3.0)) - test_tolerance(T::lit(4.0));
        assert!(s.contains_point(
            &pose,
            &Point3::new(T::lit(3.0) + k, T::lit(-1.0) + k, T::lit(2.0) + k)
        ));
    }
    for_each_precision!(contains, containment);

    fn rejects_bad_radius<T: Real>() {
        let bad_size = |r: T| {
            matches!(
                Sphere::new(r),
                Err(ShapeError::NonPositiveSize {
                    field: "radius",
                    ..
                })
            )
        };
        let non_finite = |r: T| {
            matches!(
                Sphere::new(r),
                Err(ShapeError::NonFinite { field: "radius" })
            )
        };
        assert!(bad_size(-T::one()));
        assert!(bad_size(T::zero()));
        assert!(bad_size(-T::zero()));
        assert!(non_finite(T::infinity()));
        assert!(non_finite(T::neg_infinity()));
        assert!(non_finite(T::nan()));
        assert_eq!(
            Sphere::new(T::lit(-1.5)).unwrap_err(),
            ShapeError::NonPositiveSize {
                field: "radius",
                value: -1.5
            }
        );
        assert!(Sphere::<T>::new(T::min_positive_value()).is_ok());
    }
    for_each_precision!(rejects, rejects_bad_radius);
}
