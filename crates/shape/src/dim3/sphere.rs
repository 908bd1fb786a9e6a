//! A ball, centred on its local origin.
//!
//! Everything is closed form: the bounding box is the centre ± `r` on each axis,
//! the support point in `d` is `c + r d/|d|`, the projection on `a` is
//! `c·a ± r|a|`. A rotation of the pose moves nothing.
//!
//! Degenerate input: a zero (or NaN) direction has no unit vector; the support
//! point is then the centre, deterministically.
//!
//! Ray casts and projections work relative to the centre `c`, ignoring the
//! rotation, with the arithmetic of `contains_point` (`|p − c|² ≤ r²`): the
//! ray by the quadratic `|o − c + t d|² = r²` without cancellation (from
//! outside `single::ball_entry`, with the discriminant
//! `|d|² r² − |d × (o − c)|²`; from inside `single::ball_roots`, as the
//! circle), normal `(x − c)/r` (`single::ball_normal`); the projection
//! `c + r (p − c)/|p − c|`, and for a hollow query of the centre itself
//! `c + r x̂`.

use core::any::Any;

use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use num_traits::Float;

use super::{Convex3, Shape3};
use crate::dim2::check_positive;
use crate::query::unit_vector;
use crate::single::{Entry, ScaledRay, ball_entry, ball_hit, ball_span, resolve};
use crate::{
    BoundingBox3, Interval, PointProjection3, PointQuery3, Ray3, RayCast3, RayHit3, Real,
    ShapeError, ShapeKind,
};

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
    fn as_ray_cast(&self) -> Option<&dyn RayCast3<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery3<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast3<T> for Sphere<T> {
    /// The first hit (module notes; [`RayCast3`](crate::RayCast3) for the contract).
    ///
    /// ```
    /// use nalgebra::{Isometry3, Point3, Vector3};
    /// use shape::{Ray3, RayCast3, Sphere};
    /// let ball = Sphere::new(5.0).unwrap();
    /// let ray = Ray3::new(Point3::new(-10.0, 0.0, 3.0), Vector3::new(1.0, 0.0, 0.0));
    /// let hit = ball.cast_ray(&Isometry3::identity(), &ray, 100.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (6.0, Point3::new(-4.0, 0.0, 3.0)));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry3<T>,
        ray: &Ray3<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit3<T>> {
        let c = pose.translation.vector;
        let o = ray.origin.coords - c;
        let oo = o.norm_squared();
        match ball_entry(&o, &ray.dir, self.radius * self.radius, oo) {
            Entry::At(t) => ball_hit(&o, &ray.dir, &c, self.radius, t, max_toi),
            Entry::Miss => None,
            Entry::Careful => self.cast_ray_careful(pose, ray, oo, max_toi, solid),
        }
    }
}

impl<T: Real> Sphere<T> {
    /// The ray cast from inside or on the sphere, or from beyond the fast
    /// path's range: the whole span (`single::ball_span`) and `resolve`.
    #[cold]
    fn cast_ray_careful(
        &self,
        pose: &Isometry3<T>,
        ray: &Ray3<T>,
        oo: T,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit3<T>> {
        let c = pose.translation.vector;
        let s = ScaledRay::new(ray).translated_back(&c);
        let inside = oo <= self.radius * self.radius;
        let span = ball_span(&s.origin.coords, &s.dir, self.radius, inside);
        let frame = Isometry3::from_parts(pose.translation, UnitQuaternion::identity());
        resolve(ray, &s, span, inside, max_toi, solid, &frame)
    }
}

impl<T: Real> PointQuery3<T> for Sphere<T> {
    /// The nearest point of the ball (of its sphere, hollow).
    fn project_point(
        &self,
        pose: &Isometry3<T>,
        p: &Point3<T>,
        solid: bool,
    ) -> PointProjection3<T> {
        let c = pose.translation.vector;
        let v = p.coords - c;
        let is_inside = v.norm_squared() <= self.radius * self.radius;
        if is_inside && solid {
            return PointProjection3 {
                point: *p,
                is_inside,
            };
        }
        let u = if v.iter().all(|x| x.is_finite()) && v.amax() > T::zero() {
            unit_vector(&v)
        } else {
            Vector3::x()
        };
        PointProjection3 {
            point: Point3::from(c + u * self.radius),
            is_inside,
        }
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

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let v = |x: f64, y: f64, z: f64| Vector3::new(T::lit(x), T::lit(y), T::lit(z));
        let s = Sphere::new(T::lit(5.0)).unwrap();
        let pose = pose::<T>(); // centre (3, −1, 2), turned (ignored)
        let inf = T::infinity();
        // 3-4-5 in the xz plane: enters at (3 − 4, −1, 2 + 3).
        let ray = Ray3::new(p(-7.0, -1.0, 5.0), v(2.0, 0.0, 0.0));
        let h = s.cast_ray(&pose, &ray, inf, true).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(3.0), p(-1.0, -1.0, 5.0)));
        assert_eq!(h.normal.into_inner(), v(-0.8, 0.0, 0.6));
        assert!(s.cast_ray(&pose, &ray, T::lit(2.5), true).is_none());
        // Inside: solid at 0, hollow leaves at (7, −1, 5), inward normal.
        let ray = Ray3::new(p(3.0, -1.0, 5.0), v(4.0, 0.0, 0.0));
        assert_eq!(s.cast_ray(&pose, &ray, inf, true).unwrap().toi, T::zero());
        let h = s.cast_ray(&pose, &ray, inf, false).unwrap();
        assert_eq!((h.toi, h.point), (T::one(), p(7.0, -1.0, 5.0)));
        assert_eq!(h.normal.into_inner(), v(-0.8, 0.0, -0.6));
        // Tangent at the top (3, −1, 7); a hair above misses.
        let h = s
            .cast_ray(
                &pose,
                &Ray3::new(p(3.0, -9.0, 7.0), v(0.0, 1.0, 0.0)),
                inf,
                true,
            )
            .unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(8.0), p(3.0, -1.0, 7.0), v(0.0, 0.0, 1.0))
        );
        let above = Ray3::new(p(3.0, -9.0, 7.0 + 1e-3), v(0.0, 1.0, 0.0));
        assert!(s.cast_ray(&pose, &above, inf, true).is_none());
        // Projections.
        let pr = s.project_point(&pose, &p(3.0, 11.0, 2.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(3.0, 4.0, 2.0), false));
        let pr = s.project_point(&pose, &p(3.0, 0.0, 2.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(3.0, 4.0, 2.0), true));
        let pr = s.project_point(&pose, &p(3.0, 0.0, 2.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(3.0, 0.0, 2.0), true));
        assert_eq!(
            s.project_point(&pose, &p(3.0, -1.0, 2.0), false).point,
            p(8.0, -1.0, 2.0)
        );
    }
    for_each_precision!(rays, rays_and_projections);
}
