//! A single point.
//!
//! Ray cast (world frame, where `contains_point` compares): the ray meets the
//! point `p` when `p − o` is parallel to the direction (`d × (p − o) = 0`,
//! exact for exactly representable collinear input) and not behind it
//! (`d · (p − o) ≥ 0`); the time is `d · (p − o) / |d|²`, the hit point `p`
//! itself and the normal `−d/|d|`. A point has no interior: solid and hollow
//! casts agree. Projection: the point itself; `is_inside` when the query
//! point is exactly it.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::check_finite_point;
use crate::query::unit_vector;
use crate::single::{ScaledRay, within};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A single point at a local position (usually the origin, with the pose placing
/// it): a bullet, a mouse cursor, a probe.
///
/// Its core is itself; it contributes the axis towards the other shape's nearest
/// core point, which is what decides a point against a circle or another point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point<T: Real> {
    at: Point2<T>,
}

impl<T: Real> Point<T> {
    /// A point at the local position `at`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::Point;
    /// let p = Point::new(Point2::new(1.0, 2.0)).unwrap();
    /// assert_eq!(p.position(), Point2::new(1.0, 2.0));
    /// assert!(Point::new(Point2::new(f64::NAN, 0.0)).is_err());
    /// ```
    pub fn new(at: Point2<T>) -> Result<Self, ShapeError> {
        check_finite_point(&at, "point")?;
        Ok(Self { at })
    }

    /// A point at the local origin.
    #[must_use]
    pub fn origin() -> Self {
        Self {
            at: Point2::origin(),
        }
    }

    /// The local position.
    #[must_use]
    pub fn position(&self) -> Point2<T> {
        self.at
    }
}

impl<T: Real> Shape<T> for Point<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::POINT
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Point(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let p = pose * self.at;
        BoundingBox2::new(p, p)
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

impl<T: Real> RayCast<T> for Point<T> {
    /// The point when the ray passes exactly through it (module notes).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Point, Ray, RayCast};
    /// let p = Point::new(Point2::new(3.0, 3.0)).unwrap();
    /// let ray = Ray::new(Point2::new(1.0, 1.0), Vector2::new(0.5, 0.5));
    /// let hit = p.cast_ray(&Isometry2::identity(), &ray, 10.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (4.0, Point2::new(3.0, 3.0)));
    /// assert!(p.cast_ray(&Isometry2::identity(), &ray, 3.0, true).is_none());
    /// ```
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        _solid: bool,
    ) -> Option<RayHit<T>> {
        let p = pose * self.at;
        let s = ScaledRay::new(ray);
        let w = p - s.origin;
        // Off the line, or behind the origin: no hit. (The scaling is a power
        // of two: it changes neither sign.)
        let along = w.dot(&s.dir);
        if s.dir.perp(&w) != T::zero() || along < T::zero() {
            return None;
        }
        let toi = s.toi(along / s.dir.norm_squared());
        within(toi, max_toi).then(|| RayHit {
            toi,
            point: p,
            normal: nalgebra::Unit::new_unchecked(-unit_vector(&ray.dir)),
        })
    }
}

impl<T: Real> PointQuery<T> for Point<T> {
    /// The point itself; inside when `p` is exactly it.
    fn project_point(
        &self,
        pose: &Isometry2<T>,
        p: &Point2<T>,
        _solid: bool,
    ) -> PointProjection<T> {
        let at = pose * self.at;
        PointProjection {
            point: at,
            is_inside: at == *p,
        }
    }
}

impl<T: Real> Convex<T> for Point<T> {
    fn support_point(&self, pose: &Isometry2<T>, _dir: &Vector2<T>) -> Point2<T> {
        pose * self.at
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        pose * self.at == *p
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Point<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let d = (pose * self.at).coords.dot(axis);
        Interval::new(d, d)
    }
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let p = pose * self.at;
        axis(other.nearest_core_point(other_pose, &p) - p);
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, _p: &Point2<T>) -> Point2<T> {
        pose * self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use nalgebra::Vector2;
    use num_traits::Float;

    fn known_values<T: Real>() {
        let p = Point::new(Point2::new(T::one(), T::zero())).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(2.0), T::lit(3.0)), T::frac_pi_2());
        let w = pose * Point2::new(T::one(), T::zero());
        let b = p.bounding_box(&pose);
        assert_eq!((b.min, b.max), (w, w));
        assert_eq!(p.support_point(&pose, &Vector2::new(T::one(), T::one())), w);
        assert!(p.contains_point(&pose, &w));
        assert!(!p.contains_point(
            &pose,
            &(w + Vector2::new(T::epsilon() * T::lit(8.0), T::zero()))
        ));
        let i = p.project(&pose, &Vector2::new(T::zero(), T::one()));
        assert_eq!((i.min, i.max), (w.y, w.y));
        assert_eq!(Point::<T>::origin().position(), Point2::origin());
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let shape = Point::new(p(1.0, 0.0)).unwrap();
        // At (2, 3) turned a quarter: the point is at (2, 4).
        let pose = Isometry2::new(v(2.0, 3.0), T::frac_pi_2());
        let at = pose * Point2::new(T::one(), T::zero());
        assert!((at - p(2.0, 4.0)).norm() < T::lit(1e-6));
        let inf = T::infinity();
        // Through the point at the exact world position (identity pose).
        let id = Isometry2::identity();
        let ray = Ray::new(p(-2.0, 0.0), v(0.75, 0.0));
        let hit = shape.cast_ray(&id, &ray, inf, true).unwrap();
        assert_eq!((hit.toi, hit.point), (T::lit(4.0), p(1.0, 0.0)));
        assert_eq!(hit.normal.into_inner(), v(-1.0, 0.0));
        assert_eq!(shape.cast_ray(&id, &ray, inf, false), Some(hit));
        // Within max_toi exactly, not a hair short.
        assert!(shape.cast_ray(&id, &ray, T::lit(4.0), true).is_some());
        assert!(shape.cast_ray(&id, &ray, T::lit(3.99), true).is_none());
        // Behind, beside, starting on it.
        assert!(
            shape
                .cast_ray(&id, &Ray::new(p(2.0, 0.0), v(1.0, 0.0)), inf, true)
                .is_none()
        );
        assert!(
            shape
                .cast_ray(&id, &Ray::new(p(-2.0, 0.125), v(1.0, 0.0)), inf, true)
                .is_none()
        );
        let start = shape
            .cast_ray(&id, &Ray::new(p(1.0, 0.0), v(0.0, -3.0)), inf, true)
            .unwrap();
        assert_eq!(
            (start.toi, start.normal.into_inner()),
            (T::zero(), v(0.0, 1.0))
        );
        // A diagonal ray through the posed point.
        let ray = Ray::new(p(0.0, 2.0), v(1.0, 1.0));
        let hit = shape.cast_ray(
            &Isometry2::translation(T::one(), T::lit(4.0)),
            &ray,
            inf,
            true,
        );
        assert_eq!(hit.map(|h| (h.toi, h.point)), Some((T::two(), p(2.0, 4.0))));
        // Projection: the point, inside only when exactly there.
        let pr = shape.project_point(&id, &p(5.0, 5.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 0.0), false));
        assert!(shape.project_point(&id, &p(1.0, 0.0), false).is_inside);
        assert_eq!(shape.project_point(&pose, &p(0.0, 0.0), true).point, at);
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_non_finite<T: Real>() {
        for bad in [T::nan(), T::infinity(), T::neg_infinity()] {
            assert!(matches!(
                Point::new(Point2::new(T::zero(), bad)),
                Err(ShapeError::NonFinite { field: "point" })
            ));
        }
        // A local coordinate beyond `max_size` is too large; poses place
        // points anywhere.
        assert!(matches!(
            Point::new(Point2::new(
                <T as Float>::max_value(),
                -<T as Float>::max_value()
            )),
            Err(ShapeError::TooLarge { field: "point", .. })
        ));
        let limit = crate::tolerance::max_size::<T>();
        assert!(Point::new(Point2::new(limit, -limit)).is_ok());
    }
    for_each_precision!(rejects, rejects_non_finite);
}
