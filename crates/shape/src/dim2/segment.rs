//! A line segment.
//!
//! **Ray cast**, in the segment's frame (where `contains_point` decides), with
//! `e = b − a` and `×` the 2D cross product:
//! 1. An origin on the segment (the exact test of `contains_point`) is the
//!    hit, at time 0.
//! 2. The orientation tests `sa = d × (a − o)`, `sb = d × (b − o)` say on
//!    which side of the ray's line each end point lies. Both zero, or both
//!    within their rounding error bound (`8 ε (|dₓ wᵧ| + |dᵧ wₓ|)`, so that a
//!    segment lying along the ray up to rounding is not "crossed" at some
//!    arbitrary point of it): collinear;
//!    the segment covers the times between those of its end points,
//!    `(x − o)·d / |d|²`, and the hit is the first of them that is `≥ 0` (the
//!    nearer end point, exactly), normal `−d/|d|`. Both strictly on one side:
//!    no hit.
//! 3. Otherwise the segment crosses the line at `p = a + u e`,
//!    `u = sa / (sa − sb)` (the side distances interpolate linearly), a point
//!    of the segment by construction and of the line up to rounding, also
//!    for nearly parallel lines, where solving for the crossing by Cramer's
//!    rule would put it anywhere. Its time is the projection
//!    `(p − o)·d / |d|²`, computed as `((a − o)·d + u (e·d)) · (1/|d|²)` so
//!    that only one product waits for the division giving `u`; behind the
//!    origin, no hit. The normal is the segment's unit normal (a property of
//!    the segment alone, computed beside the crossing) facing the ray. A ray
//!    through an end point hits it.
//!
//! Steps 1 and 2 are rare and live in a `#[cold]` function; the crossing
//! (step 3) and the misses are the common case. A segment has no interior:
//! solid and hollow casts agree.
//!
//! **Projection**: the clamped projection on the line (Ericson §5.1.2), or the
//! query point itself when it lies on the segment (`is_inside`, the exact test
//! of `contains_point`).

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};
use num_traits::Float;

use super::{check_finite_extent, check_finite_point, polygonal, scaled_norm};
use crate::query::unit_vector;
use crate::single::{ScaledRay, within};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// The closed segment between two distinct local points: a wall, a laser, a
/// ray of finite length. A segment is a capsule of radius zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment<T: Real> {
    a: Point2<T>,
    b: Point2<T>,
}

impl<T: Real> Segment<T> {
    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::CoincidentEndpoints`] when `a == b` (use a
    /// [`Point`](crate::Point)); [`ShapeError::NonFinite`] with field
    /// `"extent (b - a)"` when `b − a` overflows.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{Segment, ShapeError};
    /// let s = Segment::new(Point2::new(0.0, 0.0), Point2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(s.length(), 5.0);
    /// assert_eq!(Segment::new(Point2::new(1.0, 1.0), Point2::new(1.0, 1.0)), Err(ShapeError::CoincidentEndpoints));
    /// ```
    pub fn new(a: Point2<T>, b: Point2<T>) -> Result<Self, ShapeError> {
        check_finite_point(&a, "a")?;
        check_finite_point(&b, "b")?;
        if a == b {
            return Err(ShapeError::CoincidentEndpoints);
        }
        check_finite_extent(&a, &b, "extent (b - a)")?;
        Ok(Self { a, b })
    }

    /// The first end point.
    #[must_use]
    pub fn a(&self) -> Point2<T> {
        self.a
    }

    /// The second end point.
    #[must_use]
    pub fn b(&self) -> Point2<T> {
        self.b
    }

    /// The length `|b − a|`.
    #[must_use]
    pub fn length(&self) -> T {
        scaled_norm(&(self.b - self.a))
    }

    /// The point of the segment closest to local point `p`.
    #[must_use]
    pub fn closest_point(&self, p: &Point2<T>) -> Point2<T> {
        polygonal::closest_on_segment(&self.a, &self.b, p)
    }

    /// Whether local point `q` lies on the segment: exactly on its line, and
    /// between its end points.
    fn holds(&self, q: &Point2<T>) -> bool {
        let ab = self.b - self.a;
        let aq = q - self.a;
        ab.perp(&aq) == T::zero() && aq.dot(&ab) >= T::zero() && (q - self.b).dot(&ab) <= T::zero()
    }
}

impl<T: Real> Shape<T> for Segment<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::SEGMENT
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Segment(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(&[self.a, self.b], pose)
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

impl<T: Real> RayCast<T> for Segment<T> {
    /// The first point of the segment on the ray (module notes); `solid` does
    /// not matter.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Ray, RayCast, Segment};
    /// let wall = Segment::new(Point2::new(2.0, -1.0), Point2::new(2.0, 1.0)).unwrap();
    /// let ray = Ray::new(Point2::new(0.0, 0.0), Vector2::new(1.0, 0.5));
    /// let hit = wall.cast_ray(&Isometry2::identity(), &ray, 100.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (2.0, Point2::new(2.0, 1.0))); // the end point counts
    /// assert_eq!(hit.normal.into_inner(), Vector2::new(-1.0, 0.0));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        _solid: bool,
    ) -> Option<RayHit<T>> {
        let s = ScaledRay::new(ray).inverse_transformed(pose);
        let (o, d) = (s.origin, s.dir);
        let (a, b) = (self.a, self.b);
        // Which side of the ray's line each end point lies on (orientation
        // tests, the arithmetic of `contains_point`'s collinearity test).
        let (wa, wb) = (a - o, b - o);
        let (sa, sb) = (d.perp(&wa), d.perp(&wb));
        // What rounding may do to them: `d × w` with `w` a rounded
        // difference, two rounded products and a rounded difference of those.
        let bound = |w: &Vector2<T>| {
            T::epsilon() * T::lit(8.0) * (Float::abs(d.x * w.y) + Float::abs(d.y * w.x))
        };
        if self.holds(&o) || (Float::abs(sa) <= bound(&wa) && Float::abs(sb) <= bound(&wb)) {
            return self.cast_ray_along(pose, ray, &s, max_toi);
        }
        if (sa > T::zero() && sb > T::zero()) || (sa < T::zero() && sb < T::zero()) {
            return None;
        }
        // The crossing, interpolated between the end points by their
        // distances to the ray's line (on the segment by construction, on
        // the line up to rounding), and its time by projection on the ray:
        // `(p − o)·d / |d|²` with `p − o = (a − o) + u e`, so that only the
        // interpolation waits for `u`.
        let e = b - a;
        let u = Float::min(Float::max(sa / (sa - sb), T::zero()), T::one());
        let t = (wa.dot(&d) + u * e.dot(&d)) * (T::one() / d.norm_squared());
        if t < T::zero() {
            return None;
        }
        let toi = s.toi(t);
        if !within(toi, max_toi) {
            return None;
        }
        // The line crosses the segment: its normal, even if rounding makes
        // it look parallel to the ray (the unit normal depends on the
        // segment alone, so it is computed beside the crossing).
        let n = unit_vector(&Vector2::new(-e.y, e.x));
        let n = if n.dot(&d) > T::zero() { -n } else { n };
        Some(RayHit {
            toi,
            point: pose * (a + e * u),
            normal: nalgebra::Unit::new_unchecked(pose.rotation * n),
        })
    }
}

impl<T: Real> Segment<T> {
    /// The ray cast when the origin lies on the segment or the segment lies
    /// along the ray's line (within rounding): steps 1 and 2 of the module
    /// notes.
    #[cold]
    fn cast_ray_along(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        s: &ScaledRay<T, 2>,
        max_toi: T,
    ) -> Option<RayHit<T>> {
        let (o, d) = (s.origin, s.dir);
        let (a, b) = (self.a, self.b);
        let (t, point, normal) = if self.holds(&o) {
            // The origin lies on the segment.
            (T::zero(), None, facing(&(b - a), &d))
        } else {
            // Collinear: the end points' times along the ray.
            let dd = d.norm_squared();
            let (ta, tb) = ((a - o).dot(&d) / dd, (b - o).dot(&d) / dd);
            let (t0, p0, t1) = if ta <= tb { (ta, a, tb) } else { (tb, b, ta) };
            if t1 < T::zero() {
                return None;
            }
            if t0 > T::zero() {
                (t0, Some(p0), -d)
            } else {
                (T::zero(), None, -d)
            }
        };
        let toi = s.toi(t);
        if !within(toi, max_toi) {
            return None;
        }
        Some(RayHit {
            toi,
            // The origin when it lies on the segment: the caller's, exactly.
            point: point.map_or(ray.origin, |p| pose * p),
            normal: nalgebra::Unit::new_unchecked(pose.rotation * unit_vector(&normal)),
        })
    }
}

/// The segment's normal `±e⊥` on the side the ray comes from (`n · d ≤ 0`),
/// or `−d` when the ray runs along the segment.
fn facing<T: Real>(e: &Vector2<T>, d: &Vector2<T>) -> Vector2<T> {
    let n = Vector2::new(-e.y, e.x);
    let nd = n.dot(d);
    if nd < T::zero() {
        n
    } else if nd > T::zero() {
        -n
    } else {
        -d
    }
}

impl<T: Real> PointQuery<T> for Segment<T> {
    /// The nearest point of the segment; `is_inside` when `p` lies on it
    /// (`solid` does not matter).
    fn project_point(
        &self,
        pose: &Isometry2<T>,
        p: &Point2<T>,
        _solid: bool,
    ) -> PointProjection<T> {
        let q = pose.inverse_transform_point(p);
        if self.holds(&q) {
            return PointProjection {
                point: *p,
                is_inside: true,
            };
        }
        PointProjection {
            point: pose * self.closest_point(&q),
            is_inside: false,
        }
    }
}

impl<T: Real> Convex<T> for Segment<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        polygonal::support_point(&[self.a, self.b], pose, dir)
    }
    /// Exact for points computed on the segment's supporting line only when the
    /// arithmetic is exact; a segment has no interior, so points off the line by
    /// rounding are outside.
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        self.holds(&pose.inverse_transform_point(p))
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Segment<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        polygonal::project(&[self.a, self.b], pose, axis)
    }
    /// The segment's normal and its direction (two collinear segments are told
    /// apart only by the direction), and the directions from its end points to
    /// the other shape's nearest core point (a segment against a circle).
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let d = pose.rotation * (self.b - self.a);
        axis(Vector2::new(-d.y, d.x));
        axis(d);
        for end in [self.a, self.b] {
            let e = pose * end;
            axis(other.nearest_core_point(other_pose, &e) - e);
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        pose * self.closest_point(&pose.inverse_transform_point(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    fn known_values<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(10.0), T::zero()), T::frac_pi_2());
        let b = s.bounding_box(&pose);
        assert!((b.min - p(10.0, -1.0)).norm() < T::lit(1e-6));
        assert!((b.max - p(10.0, 1.0)).norm() < T::lit(1e-6));
        assert_eq!(s.length(), T::two());
        assert_eq!(
            s.support_point(&Isometry2::identity(), &Vector2::new(T::one(), T::lit(5.0))),
            p(1.0, 0.0)
        );
        assert_eq!(s.closest_point(&p(0.25, 3.0)), p(0.25, 0.0));
        assert_eq!(s.closest_point(&p(7.0, 3.0)), p(1.0, 0.0));
        let id = Isometry2::identity();
        assert!(s.contains_point(&id, &p(0.5, 0.0)));
        assert!(s.contains_point(&id, &p(1.0, 0.0)));
        assert!(!s.contains_point(&id, &p(1.5, 0.0)));
        assert!(!s.contains_point(&id, &p(0.5, 0.125)));
        let i = s.project(&id, &Vector2::new(T::one(), T::one()));
        assert_eq!((i.min, i.max), (-T::one(), T::one()));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        let cast = |o: Point2<T>, d: Vector2<T>| s.cast_ray(&id, &Ray::new(o, d), inf, true);
        // Across the middle from below: the normal faces down, towards the ray.
        let h = cast(p(0.5, -2.0), v(0.0, 0.5)).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(0.5, 0.0)));
        assert_eq!(h.normal.into_inner(), v(0.0, -1.0));
        // From above, a 3-4-5 slant onto the end point (1, 0).
        let h = cast(p(-2.0, 4.0), v(3.0, -4.0)).unwrap();
        assert_eq!((h.toi, h.point), (T::one(), p(1.0, 0.0)));
        assert_eq!(h.normal.into_inner(), v(0.0, 1.0));
        // Just past the end: no hit.
        assert!(cast(p(-2.0, 4.0), v(3.25, -4.0)).is_none());
        // Along the line from outside: the near end point, normal −dir.
        let h = cast(p(-5.0, 0.0), v(2.0, 0.0)).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(-1.0, 0.0)));
        assert_eq!(h.normal.into_inner(), v(-1.0, 0.0));
        let h = cast(p(5.0, 0.0), v(-1.0, 0.0)).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(1.0, 0.0)));
        // Along the line, starting on it, either way: time 0 at the origin.
        let h = cast(p(0.25, 0.0), v(-1.0, 0.0)).unwrap();
        assert_eq!((h.toi, h.point), (T::zero(), p(0.25, 0.0)));
        // Along the line, pointing away: no hit; parallel beside it: none.
        assert!(cast(p(1.5, 0.0), v(1.0, 0.0)).is_none());
        assert!(cast(p(-5.0, 0.25), v(1.0, 0.0)).is_none());
        // Crossing it at its origin: time 0, the segment's normal facing the ray.
        let h = cast(p(0.0, 0.0), v(1.0, -1.0)).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::zero(), p(0.0, 0.0), v(0.0, 1.0))
        );
        // Pointing away from it: behind.
        assert!(cast(p(0.0, 1.0), v(0.0, 1.0)).is_none());
        // Solid and hollow agree.
        let r = Ray::new(p(0.5, -2.0), v(0.0, 1.0));
        assert_eq!(
            s.cast_ray(&id, &r, inf, true),
            s.cast_ray(&id, &r, inf, false)
        );
        // A posed segment: turned a quarter at (3, 0), it runs from (3, −1) to (3, 1).
        let pose = Isometry2::new(v(3.0, 0.0), T::frac_pi_2());
        let h = s
            .cast_ray(&pose, &Ray::new(p(0.0, 0.5), v(1.0, 0.0)), inf, true)
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(3.0)) < T::lit(1e-6));
        assert!((h.normal.into_inner() - v(-1.0, 0.0)).norm() < T::lit(1e-6));
        // Projections.
        let pr = s.project_point(&id, &p(0.25, 3.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(0.25, 0.0), false));
        let pr = s.project_point(&id, &p(0.25, 0.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(0.25, 0.0), true));
        assert_eq!(s.project_point(&id, &p(4.0, -1.0), true).point, p(1.0, 0.0));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        let o = Point2::<T>::origin();
        assert_eq!(Segment::new(o, o), Err(ShapeError::CoincidentEndpoints));
        assert_eq!(
            Segment::new(o, Point2::new(T::nan(), T::zero())),
            Err(ShapeError::NonFinite { field: "b" })
        );
        assert_eq!(
            Segment::new(Point2::new(T::infinity(), T::zero()), o),
            Err(ShapeError::NonFinite { field: "a" })
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
