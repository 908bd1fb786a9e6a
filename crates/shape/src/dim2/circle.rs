//! A disk, centred on its local origin.
//!
//! Its queries ignore the pose's rotation and work relative to the centre
//! `c` (the arithmetic `contains_point` uses: `|p − c|² ≤ r²`).
//!
//! **Ray cast**: the line `o + t d` meets the disk where `|o − c + t d|² = r²`,
//! a quadratic solved without cancellation. From outside (the common case),
//! `single::ball_entry`: the discriminant `|d|² r² − (d × (o − c))²` and the
//! near root by Vieta, one square root and one division, in `d`'s own units;
//! from inside or on the circle, or with sizes near the ends of the float
//! range, `single::ball_roots` on the rescaled ray (the discriminant from the
//! foot of the perpendicular, the far root by the formula and the near one by
//! Vieta). The normal at a hit point `x` is `(x − c) / r`, brought to unit
//! length to rounding by one Newton step (`single::ball_normal`). Solid,
//! hollow, inside and outside as in `single`.
//!
//! **Projection**: `c + r (p − c)/|p − c|` (scaled so that neither the square
//! nor the norm overflows); a hollow query of the centre itself has every
//! boundary point at distance `r` and takes `c + r x̂` (the `+x` rule of
//! `docs/conventions.md`).

use core::any::Any;

use nalgebra::{Isometry2, Point2, UnitComplex, Vector2};

use super::{check_positive, unit_direction};
use crate::single::{Entry, ScaledRay, ball_entry, ball_hit, ball_span, resolve};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A closed disk of radius `r` centred on the local origin.
///
/// Its core (for the separating-axis test) is the centre point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle<T: Real> {
    radius: T,
}

impl<T: Real> Circle<T> {
    /// A circle of the given radius.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] for a radius
    /// that is not a finite positive number.
    ///
    /// ```
    /// use shape::{Circle, ShapeError};
    /// assert_eq!(Circle::new(2.0).unwrap().radius(), 2.0);
    /// assert!(matches!(Circle::new(0.0), Err(ShapeError::NonPositiveSize { field: "radius", .. })));
    /// assert!(matches!(Circle::new(f32::NAN), Err(ShapeError::NonFinite { field: "radius" })));
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
}

impl<T: Real> Shape<T> for Circle<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CIRCLE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Circle(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        let r = Vector2::repeat(self.radius);
        BoundingBox2::new(c - r, c + r)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(self)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast<T> for Circle<T> {
    /// The first hit (the contract of [`RayCast`](crate::RayCast)).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Circle, Ray, RayCast};
    /// let ball = Circle::new(5.0).unwrap();
    /// let ray = Ray::new(Point2::new(-10.0, 3.0), Vector2::new(1.0, 0.0));
    /// let hit = ball.cast_ray(&Isometry2::identity(), &ray, f64::INFINITY, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (6.0, Point2::new(-4.0, 3.0)));
    /// assert_eq!(hit.normal.into_inner(), Vector2::new(-0.8, 0.6));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
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

impl<T: Real> Circle<T> {
    /// The ray cast from inside or on the circle, or from beyond the fast
    /// path's range: the whole span (`single::ball_span`) and `resolve`.
    #[cold]
    fn cast_ray_careful(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        oo: T,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let c = pose.translation.vector;
        let s = ScaledRay::new(ray).translated_back(&c);
        let inside = oo <= self.radius * self.radius;
        let span = ball_span(&s.origin.coords, &s.dir, self.radius, inside);
        let frame = Isometry2::from_parts(pose.translation, UnitComplex::identity());
        resolve(ray, &s, span, inside, max_toi, solid, &frame)
    }
}

impl<T: Real> PointQuery<T> for Circle<T> {
    /// The nearest point of the disk (of its circle, hollow).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2};
    /// use shape::{Circle, PointQuery};
    /// let ball = Circle::new(5.0).unwrap();
    /// let pr = ball.project_point(&Isometry2::translation(1.0, 0.0), &Point2::new(7.0, 8.0), true);
    /// assert_eq!((pr.point, pr.is_inside), (Point2::new(4.0, 4.0), false));
    /// ```
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let c = pose.translation.vector;
        let v = p.coords - c;
        let is_inside = v.norm_squared() <= self.radius * self.radius;
        if is_inside && solid {
            return PointProjection {
                point: *p,
                is_inside,
            };
        }
        let u = unit_direction(&v).unwrap_or_else(Vector2::x);
        PointProjection {
            point: Point2::from(c + u * self.radius),
            is_inside,
        }
    }
}

impl<T: Real> Convex<T> for Circle<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let c = Point2::from(pose.translation.vector);
        match unit_direction(dir) {
            Some(u) => c + u * self.radius,
            None => c,
        }
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        (p.coords - pose.translation.vector).norm_squared() <= self.radius * self.radius
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Circle<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let c = pose.translation.vector.dot(axis);
        let r = self.radius * axis.norm();
        Interval::new(c - r, c + r)
    }
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let c = Point2::from(pose.translation.vector);
        axis(other.nearest_core_point(other_pose, &c) - c);
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, _p: &Point2<T>) -> Point2<T> {
        Point2::from(pose.translation.vector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn known_values<T: Real>() {
        let c = Circle::new(T::two()).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(3.0), T::lit(-1.0)), T::lit(0.7));
        let b = c.bounding_box(&pose);
        assert_eq!(b.min, Point2::new(T::lit(1.0), T::lit(-3.0)));
        assert_eq!(b.max, Point2::new(T::lit(5.0), T::lit(1.0)));
        let s = c.support_point(&pose, &Vector2::new(T::zero(), T::lit(-5.0)));
        assert_eq!(s, Point2::new(T::lit(3.0), T::lit(-3.0)));
        // A tiny direction (its square underflows) still finds the boundary.
        let tiny = Vector2::new(T::min_positive_value(), T::zero());
        assert_eq!(
            c.support_point(&pose, &tiny),
            Point2::new(T::lit(5.0), T::lit(-1.0))
        );
        // Zero direction: the centre, deterministically.
        assert_eq!(
            c.support_point(&pose, &Vector2::zeros()),
            Point2::new(T::lit(3.0), T::lit(-1.0))
        );
        // Projection on a non-unit axis scales with it.
        let i = c.project(&pose, &Vector2::new(T::two(), T::zero()));
        assert_eq!((i.min, i.max), (T::lit(2.0), T::lit(10.0)));
        // Closed: the boundary counts, a hair outside does not.
        assert!(c.contains_point(&pose, &Point2::new(T::lit(5.0), T::lit(-1.0))));
        let out = T::lit(5.0) + test_tolerance::<T>(T::lit(5.0));
        assert!(!c.contains_point(&pose, &Point2::new(out, T::lit(-1.0))));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let c = Circle::new(T::lit(5.0)).unwrap();
        // Centred at (1, 1), turned: the rotation changes nothing.
        let pose = Isometry2::new(v(1.0, 1.0), T::lit(0.3));
        let inf = T::infinity();
        // 3-4-5: from (−9, 4) along +x, entering at (−3, 4), leaving at (5, 4).
        let ray = Ray::new(p(-9.0, 4.0), v(2.0, 0.0));
        let h = c.cast_ray(&pose, &ray, inf, true).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(3.0), p(-3.0, 4.0)));
        assert_eq!(h.normal.into_inner(), v(-0.8, 0.6));
        assert_eq!(c.cast_ray(&pose, &ray, inf, false), Some(h));
        assert!(c.cast_ray(&pose, &ray, T::lit(2.9), true).is_none());
        // Inside: solid at the origin, hollow at the exit with the inward normal.
        let ray = Ray::new(p(-3.0, 4.0), v(4.0, 0.0));
        let h = c.cast_ray(&pose, &ray, inf, true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::zero(), p(-3.0, 4.0), v(-1.0, 0.0))
        );
        let h = c.cast_ray(&pose, &ray, inf, false).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(5.0, 4.0)));
        assert_eq!(h.normal.into_inner(), v(-0.8, -0.6));
        // On the boundary pointing out: solid at 0; hollow leaves at 0.
        let ray = Ray::new(p(6.0, 1.0), v(1.0, 0.0));
        assert_eq!(c.cast_ray(&pose, &ray, inf, false).unwrap().toi, T::zero());
        // Grazing the top: a tangent hit, normal perpendicular to the ray.
        let ray = Ray::new(p(-7.0, 6.0), v(1.0, 0.0));
        let h = c.cast_ray(&pose, &ray, inf, true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(8.0), p(1.0, 6.0), v(0.0, 1.0))
        );
        let above = T::lit(6.0) + T::lit(6.0) * T::epsilon();
        assert!(
            c.cast_ray(
                &pose,
                &Ray::new(Point2::new(T::lit(-7.0), above), v(1.0, 0.0)),
                inf,
                true
            )
            .is_none()
        );
        // Behind.
        assert!(
            c.cast_ray(&pose, &Ray::new(p(-9.0, 4.0), v(-1.0, 0.0)), inf, true)
                .is_none()
        );
        // Projections.
        let pr = c.project_point(&pose, &p(7.0, 9.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(4.0, 5.0), false));
        let pr = c.project_point(&pose, &p(1.0, 2.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 2.0), true));
        let pr = c.project_point(&pose, &p(1.0, 2.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 6.0), true));
        assert_eq!(
            c.project_point(&pose, &p(1.0, 1.0), false).point,
            p(6.0, 1.0)
        );
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_radius<T: Real>() {
        assert!(matches!(
            Circle::<T>::new(-T::one()),
            Err(ShapeError::NonPositiveSize { .. })
        ));
        assert!(matches!(
            Circle::<T>::new(T::zero()),
            Err(ShapeError::NonPositiveSize { .. })
        ));
        assert!(matches!(
            Circle::<T>::new(T::infinity()),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Circle::<T>::new(T::nan()),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(Circle::<T>::new(T::min_positive_value()).is_ok());
    }
    for_each_precision!(rejects, rejects_bad_radius);
}
