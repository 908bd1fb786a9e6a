//! A box that stays axis-aligned whatever its pose: only the translation moves
//! it, the rotation is ignored.
//!
//! This is the 3D counterpart of the 2D [`Aabb`](crate::Aabb): level geometry,
//! trigger volumes, the cells of a grid. The box is `[min, max]` in its local
//! frame (not necessarily centred on the local origin) and `[min + t, max + t]`
//! in the world, for the pose's translation `t`.
//!
//! [`effective_pose`](Shape3::effective_pose) drops the rotation, and every query
//! here (bounding box, support point, containment, projection) agrees with it, so
//! kernels that build relative poses from `effective_pose` see the same box.
//!
//! Ray casts and point projections compare, like `contains_point`, the point
//! relative to the translation (`p − t`) with `[min, max]`: the slab method
//! (`single::slab_entry` from outside, `single::slab_span` otherwise) and the
//! clamp (`single::box_projection`; a hollow
//! query of a point inside goes to the nearest face).
//!
//! Degenerate input: a zero component of the direction picks the `max` side, so
//! the zero direction's support point is the corner `max + t`.

use core::any::Any;

use nalgebra::{Isometry3, Point3, Unit, UnitQuaternion, Vector3};

use super::{Convex3, Shape3, check_finite_point3, check_positive_vector3};
use crate::dim2::check_positive_width;
use crate::single::{ScaledRay, SlabEntry, box_projection, resolve, slab_entry, slab_span, within};
use crate::{
    BoundingBox3, Interval, PointProjection3, PointQuery3, Ray3, RayCast3, RayHit3, Real,
    ShapeError, ShapeKind,
};

/// A closed axis-aligned box `[min, max]` (per axis), moved but never rotated by
/// its pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb3<T: Real> {
    min: Point3<T>,
    max: Point3<T>,
}

impl<T: Real> Aabb3<T> {
    /// The box with corners `min` and `max` in the local frame.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (field `"min"` or `"max"`) for a NaN or infinite
    /// coordinate; [`ShapeError::NonPositiveSize`] (field `"extent.x"`, `".y"` or
    /// `".z"`, with the value `max − min`) when the box is flat or inverted on an
    /// axis; [`ShapeError::NonFinite`] with that field when `max − min`
    /// overflows.
    ///
    /// ```
    /// use nalgebra::Point3;
    /// use shape::{Aabb3, ShapeError};
    /// let b = Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 4.0, 6.0)).unwrap();
    /// assert_eq!(b.center(), Point3::new(1.0, 2.0, 3.0));
    /// assert_eq!(
    ///     Aabb3::new(Point3::new(0.0, 5.0, 0.0), Point3::new(1.0, 3.0, 1.0)).unwrap_err(),
    ///     ShapeError::NonPositiveSize { field: "extent.y", value: -2.0 },
    /// );
    /// assert!(matches!(
    ///     Aabb3::new(Point3::new(0.0, f64::NAN, 0.0), Point3::new(1.0, 1.0, 1.0)),
    ///     Err(ShapeError::NonFinite { field: "min" }),
    /// ));
    /// ```
    pub fn new(min: Point3<T>, max: Point3<T>) -> Result<Self, ShapeError> {
        check_finite_point3(&min, "min")?;
        check_finite_point3(&max, "max")?;
        let e = max - min;
        check_positive_width(e.x, "extent.x")?;
        check_positive_width(e.y, "extent.y")?;
        check_positive_width(e.z, "extent.z")?;
        Ok(Self { min, max })
    }

    /// The box `[-h, h]`, centred on the local origin.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] for a half
    /// extent that is not a finite positive number; the field is
    /// `"half_extents.x"`, `".y"` or `".z"`. [`ShapeError::NonFinite`] with field
    /// `"extent.x"` (`.y`, `.z`) when the full extent `2h` overflows.
    ///
    /// ```
    /// use nalgebra::{Point3, Vector3};
    /// use shape::{Aabb3, ShapeError};
    /// let b = Aabb3::from_half_extents(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    /// assert_eq!(b.min(), Point3::new(-1.0, -2.0, -3.0));
    /// assert!(matches!(
    ///     Aabb3::from_half_extents(Vector3::new(1.0, -2.0, 3.0)),
    ///     Err(ShapeError::NonPositiveSize { field: "half_extents.y", .. }),
    /// ));
    /// ```
    pub fn from_half_extents(half_extents: Vector3<T>) -> Result<Self, ShapeError> {
        check_positive_vector3(
            &half_extents,
            ["half_extents.x", "half_extents.y", "half_extents.z"],
        )?;
        // The extent 2h may still overflow; `new` reports that on its axis.
        Self::new(Point3::from(-half_extents), Point3::from(half_extents))
    }

    /// The corner with the smallest coordinates, in the local frame.
    #[must_use]
    pub fn min(&self) -> Point3<T> {
        self.min
    }

    /// The corner with the largest coordinates, in the local frame.
    #[must_use]
    pub fn max(&self) -> Point3<T> {
        self.max
    }

    /// Half the box's size along each axis.
    #[must_use]
    pub fn half_extents(&self) -> Vector3<T> {
        (self.max - self.min) * T::half()
    }

    /// The box's centre, in the local frame.
    #[must_use]
    pub fn center(&self) -> Point3<T> {
        nalgebra::center(&self.min, &self.max)
    }

    /// The interval of `p · axis` over the box placed at `pose` (rotation
    /// ignored): per axis, the end of `[min_i, max_i]` that makes `a_i p_i`
    /// smallest, and largest, summed, plus `t · axis`.
    ///
    /// `axis` need not be unit; the interval then scales with its length.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Point3, Vector3};
    /// use shape::Aabb3;
    /// let b = Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 4.0, 6.0)).unwrap();
    /// // The rotation of the pose does not turn the box.
    /// let pose = Isometry3::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 0.7));
    /// let i = b.project(&pose, &Vector3::new(1.0, -1.0, 0.0));
    /// assert_eq!((i.min, i.max), (-3.0, 3.0));
    /// ```
    #[must_use]
    pub fn project(&self, pose: &Isometry3<T>, axis: &Vector3<T>) -> Interval<T> {
        let t = pose.translation.vector.dot(axis);
        let (mut lo, mut hi) = (t, t);
        for i in 0..3 {
            let (a, b) = (axis[i] * self.min[i], axis[i] * self.max[i]);
            if axis[i] < T::zero() {
                lo += b;
                hi += a;
            } else {
                lo += a;
                hi += b;
            }
        }
        Interval::new(lo, hi)
    }
}

impl<T: Real> Shape3<T> for Aabb3<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::AABB3
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef3<'_, T>> {
        Some(crate::ShapeRef3::Aabb3(self))
    }
    /// `[min + t, max + t]`: the rotation is ignored.
    fn bounding_box(&self, pose: &Isometry3<T>) -> BoundingBox3<T> {
        let t = pose.translation.vector;
        BoundingBox3::new(self.min + t, self.max + t)
    }
    /// The translation of `pose`, without its rotation.
    fn effective_pose(&self, pose: &Isometry3<T>) -> Isometry3<T> {
        Isometry3::from_parts(pose.translation, UnitQuaternion::identity())
    }
    fn as_convex(&self) -> Option<&dyn Convex3<T>> {
        Some(self)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast3<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery3<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast3<T> for Aabb3<T> {
    /// The first hit, by the slab method (module notes); the pose's rotation
    /// is ignored.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Point3, Vector3};
    /// use shape::{Aabb3, Ray3, RayCast3};
    /// let room = Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(4.0, 4.0, 3.0)).unwrap();
    /// let ray = Ray3::new(Point3::new(1.0, 1.0, 1.0), Vector3::new(0.0, 0.0, 1.0));
    /// let id = Isometry3::identity();
    /// let ceiling = room.cast_ray(&id, &ray, 10.0, false).unwrap(); // hollow: from inside
    /// assert_eq!((ceiling.toi, ceiling.normal.into_inner()), (2.0, -Vector3::z()));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry3<T>,
        ray: &Ray3<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit3<T>> {
        let t = pose.translation.vector;
        let o = ray.origin - t;
        match slab_entry(&o, &ray.dir, &self.min, &self.max) {
            SlabEntry::At { t, axis, side } => {
                if !within(t, max_toi) {
                    return None;
                }
                let mut n = Vector3::zeros();
                n[axis] = side;
                Some(RayHit3 {
                    toi: t,
                    point: ray.origin + ray.dir * t,
                    normal: Unit::new_unchecked(n),
                })
            }
            SlabEntry::Miss => None,
            SlabEntry::Careful => {
                let s = ScaledRay::new(ray).translated_back(&t);
                let span = slab_span(&s.origin, &s.dir, &self.min, &self.max);
                let inside = span.is_some_and(|sp| sp.holds_origin());
                let frame = Isometry3::from_parts(pose.translation, UnitQuaternion::identity());
                resolve(ray, &s, span, inside, max_toi, solid, &frame)
            }
        }
    }
}

impl<T: Real> PointQuery3<T> for Aabb3<T> {
    /// The nearest point of the box (of its boundary, hollow); the pose's
    /// rotation is ignored.
    fn project_point(
        &self,
        pose: &Isometry3<T>,
        p: &Point3<T>,
        solid: bool,
    ) -> PointProjection3<T> {
        let t = pose.translation.vector;
        let q = p - t;
        let (point, is_inside) = box_projection(&q, &self.min, &self.max, solid);
        PointProjection3 {
            point: if point == q { *p } else { point + t },
            is_inside,
        }
    }
}

impl<T: Real> Convex3<T> for Aabb3<T> {
    /// The corner picked by the signs of `dir` (the rotation is ignored); a zero
    /// or NaN component picks the `max` side.
    fn support_point(&self, pose: &Isometry3<T>, dir: &Vector3<T>) -> Point3<T> {
        let pick = |i: usize| {
            if dir[i] < T::zero() {
                self.min[i]
            } else {
                self.max[i]
            }
        };
        Point3::new(pick(0), pick(1), pick(2)) + pose.translation.vector
    }
    fn contains_point(&self, pose: &Isometry3<T>, p: &Point3<T>) -> bool {
        let local = p - pose.translation.vector;
        (0..3).all(|i| self.min[i] <= local[i] && local[i] <= self.max[i])
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::UnitQuaternion;

    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn p<T: Real>(x: f64, y: f64, z: f64) -> Point3<T> {
        Point3::new(T::lit(x), T::lit(y), T::lit(z))
    }

    /// The box [0, 2] × [0, 4] × [0, 6], off-centre in its local frame.
    fn aabb<T: Real>() -> Aabb3<T> {
        Aabb3::new(p(0.0, 0.0, 0.0), p(2.0, 4.0, 6.0)).unwrap()
    }

    /// A translation by (10, -1, 0.5) and a rotation the box must ignore.
    fn rotated<T: Real>() -> Isometry3<T> {
        Isometry3::from_parts(
            Vector3::new(T::lit(10.0), T::lit(-1.0), T::lit(0.5)).into(),
            UnitQuaternion::from_euler_angles(T::lit(0.3), T::lit(-1.1), T::lit(2.5)),
        )
    }

    fn accessors_and_bounding_box<T: Real>() {
        let b = aabb::<T>();
        assert_eq!(b.kind(), ShapeKind::AABB3);
        assert!(b.as_any().downcast_ref::<Aabb3<T>>().is_some());
        assert!(b.as_convex().is_some());
        assert_eq!((b.min(), b.max()), (p(0.0, 0.0, 0.0), p(2.0, 4.0, 6.0)));
        assert_eq!(b.center(), p(1.0, 2.0, 3.0));
        assert_eq!(
            b.half_extents(),
            Vector3::new(T::one(), T::two(), T::lit(3.0))
        );
        let h = Aabb3::from_half_extents(Vector3::new(T::one(), T::two(), T::lit(3.0))).unwrap();
        assert_eq!((h.min(), h.max()), (p(-1.0, -2.0, -3.0), p(1.0, 2.0, 3.0)));
        assert_eq!(h.center(), Point3::origin());
        // The rotation is ignored: the bounding box is [min + t, max + t] exactly.
        let pose = rotated::<T>();
        let bb = b.bounding_box(&pose);
        assert_eq!((bb.min, bb.max), (p(10.0, -1.0, 0.5), p(12.0, 3.0, 6.5)));
        let e = b.effective_pose(&pose);
        assert_eq!(e.translation, pose.translation);
        assert_eq!(e.rotation, UnitQuaternion::identity());
    }
    for_each_precision!(accessors, accessors_and_bounding_box);

    fn support_and_projection<T: Real>() {
        let b = aabb::<T>();
        let pose = rotated::<T>();
        let s = b.support_point(&pose, &Vector3::new(T::one(), -T::lit(5.0), T::lit(0.5)));
        assert_eq!(s, p(12.0, -1.0, 6.5));
        let s = b.support_point(&pose, &Vector3::new(-T::one(), T::lit(5.0), -T::lit(0.5)));
        assert_eq!(s, p(10.0, 3.0, 0.5));
        // Zero direction and zero or NaN components: the max side.
        assert_eq!(b.support_point(&pose, &Vector3::zeros()), p(12.0, 3.0, 6.5));
        let s = b.support_point(&pose, &Vector3::new(-T::one(), T::nan(), T::zero()));
        assert_eq!(s, p(10.0, 3.0, 6.5));
        // Projections, exact: t·a = 20 + 1 = 21 on a = (2, -1, 0).
        let i = b.project(&pose, &Vector3::new(T::two(), -T::one(), T::zero()));
        assert_eq!((i.min, i.max), (T::lit(17.0), T::lit(25.0)));
        let i = b.project(&pose, &Vector3::z());
        assert_eq!((i.min, i.max), (T::lit(0.5), T::lit(6.5)));
        assert_eq!(
            b.project(&pose, &Vector3::zeros()),
            Interval::new(T::zero(), T::zero())
        );
        // The ends are the support points' projections.
        let a = Vector3::new(T::lit(0.3), T::lit(-2.0), T::lit(1.25));
        let i = b.project(&pose, &a);
        let tol = test_tolerance(T::lit(30.0));
        assert!(num_traits::Float::abs(i.max - b.support_point(&pose, &a).coords.dot(&a)) <= tol);
        assert!(num_traits::Float::abs(i.min - b.support_point(&pose, &-a).coords.dot(&a)) <= tol);
    }
    for_each_precision!(support, support_and_projection);

    fn containment_ignores_rotation<T: Real>() {
        let b = aabb::<T>();
        let pose = rotated::<T>();
        // The whole boundary of [10, 12] × [-1, 3] × [0.5, 6.5] counts.
        for q in [
            p(10.0, -1.0, 0.5),
            p(12.0, 3.0, 6.5),
            p(11.0, 3.0, 2.0),
            p(10.0, 0.0, 6.5),
        ] {
            assert!(b.contains_point(&pose, &q), "{q:?}");
        }
        let hair = test_tolerance(T::lit(12.0));
        assert!(!b.contains_point(
            &pose,
            &Point3::new(T::lit(12.0) + hair, T::zero(), T::one())
        ));
        assert!(!b.contains_point(
            &pose,
            &Point3::new(T::lit(11.0), -T::one() - hair, T::one())
        ));
        assert!(!b.contains_point(
            &pose,
            &Point3::new(T::lit(11.0), T::zero(), T::lit(0.5) - hair)
        ));
        // A quarter turn about z would take [0, 2] × [0, 4] to [-4, 0] × [0, 2];
        // the axis-aligned box stays where it is.
        let quarter = Isometry3::rotation(Vector3::z() * T::lit(core::f64::consts::FRAC_PI_2));
        assert!(!b.contains_point(&quarter, &p(-1.0, 1.0, 1.0)));
        assert!(b.contains_point(&quarter, &p(1.0, 3.0, 1.0)));
        assert!(b.contains_point(&quarter, &p(2.0, 4.0, 6.0)));
    }
    for_each_precision!(contains, containment_ignores_rotation);

    fn rejects_bad_corners<T: Real>() {
        let one = T::one();
        let unit = Point3::new(one, one, one);
        let o = Point3::origin();
        for bad in [T::nan(), T::infinity(), T::neg_infinity()] {
            let mut q = o;
            q.y = bad;
            assert_eq!(
                Aabb3::new(q, unit).unwrap_err(),
                ShapeError::NonFinite { field: "min" }
            );
            let mut q = unit;
            q.z = bad;
            assert_eq!(
                Aabb3::new(o, q).unwrap_err(),
                ShapeError::NonFinite { field: "max" }
            );
        }
        // Flat or inverted on one axis: the field names the axis, the value is max − min.
        for (max, field, value) in [
            (p(0.0, 1.0, 1.0), "extent.x", 0.0),
            (p(1.0, -2.0, 1.0), "extent.y", -2.0),
            (p(1.0, 1.0, -0.5), "extent.z", -0.5),
        ] {
            assert_eq!(
                Aabb3::new(o, max).unwrap_err(),
                ShapeError::NonPositiveSize { field, value }
            );
        }
        // Corners beyond the largest local coordinate (max − min would
        // overflow): too large.
        let big = <T as num_traits::Float>::max_value();
        assert_eq!(
            Aabb3::new(
                Point3::new(-big, T::zero(), T::zero()),
                Point3::new(big, one, one)
            )
            .unwrap_err(),
            ShapeError::TooLarge {
                field: "min",
                value: -big.as_f64()
            }
        );
        // from_half_extents: each field by name.
        let make = |x: T, y: T, z: T| Aabb3::from_half_extents(Vector3::new(x, y, z));
        assert_eq!(
            make(T::nan(), one, one).unwrap_err(),
            ShapeError::NonFinite {
                field: "half_extents.x"
            }
        );
        assert_eq!(
            make(one, T::infinity(), one).unwrap_err(),
            ShapeError::NonFinite {
                field: "half_extents.y"
            }
        );
        assert_eq!(
            make(one, one, T::zero()).unwrap_err(),
            ShapeError::NonPositiveSize {
                field: "half_extents.z",
                value: 0.0
            }
        );
        assert_eq!(
            make(-one, one, one).unwrap_err(),
            ShapeError::NonPositiveSize {
                field: "half_extents.x",
                value: -1.0
            }
        );
        assert_eq!(
            make(one, big, one).unwrap_err(),
            ShapeError::TooLarge {
                field: "half_extents.y",
                value: big.as_f64()
            }
        );
        assert!(
            make(
                T::min_positive_value(),
                one,
                crate::tolerance::max_size::<T>() * T::half()
            )
            .is_ok()
        );
    }
    for_each_precision!(rejects, rejects_bad_corners);

    fn rays_and_projections<T: Real>() {
        let a = aabb::<T>();
        let (lo, hi) = (a.min(), a.max());
        // Turned (ignored) and moved by (10, 0, 0).
        let pose = Isometry3::from_parts(
            Vector3::new(T::lit(10.0), T::zero(), T::zero()).into(),
            UnitQuaternion::from_euler_angles(T::lit(0.4), T::lit(1.0), T::lit(-2.0)),
        );
        let inf = T::infinity();
        let t = Vector3::new(T::lit(10.0), T::zero(), T::zero());
        let centre = nalgebra::center(&lo, &hi) + t;
        // From below along +z: enters the min face.
        let o = Point3::new(centre.x, centre.y, lo.z + t.z - T::lit(4.0));
        let h = a
            .cast_ray(&pose, &Ray3::new(o, Vector3::z() * T::two()), inf, true)
            .unwrap();
        assert_eq!(
            (h.toi, h.point.z, h.normal.into_inner()),
            (T::two(), lo.z, -Vector3::z())
        );
        // From the centre, hollow: leaves through the max x face.
        let h = a
            .cast_ray(&pose, &Ray3::new(centre, Vector3::x()), inf, false)
            .unwrap();
        assert_eq!(
            (h.point.x, h.normal.into_inner()),
            (hi.x + t.x, -Vector3::x())
        );
        // Along an edge's line: hits the corner.
        let o = Point3::new(hi.x + t.x, hi.y, lo.z - T::one());
        let h = a
            .cast_ray(&pose, &Ray3::new(o, Vector3::z()), inf, true)
            .unwrap();
        assert_eq!(
            (h.toi, h.point),
            (T::one(), Point3::new(hi.x + t.x, hi.y, lo.z))
        );
        // Projections.
        let far = Point3::new(T::lit(100.0), T::lit(100.0), T::lit(100.0));
        let pr = a.project_point(&pose, &far, true);
        assert_eq!((pr.point, pr.is_inside), (hi + t, false));
        let pr = a.project_point(&pose, &centre, true);
        assert_eq!((pr.point, pr.is_inside), (centre, true));
        let pr = a.project_point(&pose, &centre, false);
        assert!(pr.is_inside && a.contains_point(&pose, &pr.point));
    }
    for_each_precision!(rays, rays_and_projections);
}
