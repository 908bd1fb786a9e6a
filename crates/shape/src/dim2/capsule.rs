//! A capsule: a segment grown by a radius.
//!
//! Its queries work in the capsule's frame (the point mapped by
//! `inverse_transform_point`, as `contains_point` maps it), with the core
//! `[a, b]`, `e = b − a` and radius `r`.
//!
//! **Ray cast**: the capsule is the union of the rectangle swept by the core
//! across `±r` and the two disks at its end points, so the line meets it in
//! the union of three intervals, itself an interval (the capsule is convex).
//! 1. The disks: `single::ball_roots` around `a` and `b`.
//! 2. The two side lines `e × (x − a) = ±r|e|`: the line crosses them at
//!    `t = (±r|e| − e × (o − a)) / (e × d)` (none when parallel); a crossing
//!    is a point of the capsule's boundary when its position along the core,
//!    `(x − a)·e`, lies in `[0, |e|²]`.
//! 3. The entry is the first of the valid side entries and the disks'
//!    entries, the exit the last of the exits. A rectangle entered through
//!    one of its ends is entered there inside a disk, so the disk's interval
//!    already starts no later: the ends need no test of their own.
//!
//! Normals: `±e⊥` on the sides, `x − a` or `x − b` on the caps. Solid,
//! hollow, inside and outside as in `single`.
//!
//! **From outside** (the common case; the containment test decides) only
//! the entry is needed, and one piece gives it. The capsule lies in the slab
//! `|e × (x − a)| ≤ r|e|`, so the line enters it no earlier than the slab, at
//! the side line it crosses going in (`X`; a line parallel to the core takes
//! the careful path). If `X` projects into the core (`(X − a)·e ∈ [0, |e|²]`),
//! `X` is on the capsule's boundary: the entry. If it projects before `a`,
//! every point of the capsule the line can still meet is nearest `a` among
//! the core's points or lies past the rectangle's end at `a`, a diameter of
//! the disk at `a`: the entry is that disk's (`single::ball_entry`), or none.
//! Beyond `b`, the disk at `b`'s. One division for the side, at most one
//! square root and one division for a disk; an entry at or before the origin
//! (possible only by rounding, for an origin on the boundary) takes the
//! careful path above.
//!
//! **Projection**: the core's closest point `c` (Ericson §5.1.2) pushed out
//! to `c + r (p − c)/|p − c|`; a point on the core itself goes to the left
//! side, `c + r e⊥/|e|`.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;

use super::{
    check_finite_extent, check_finite_point, check_positive, polygonal, scaled_norm, unit_direction,
};
use crate::single::{Entry, ScaledRay, Span, ball_entry, ball_normal, ball_roots, resolve, within};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// The closed set of points within `radius` of the segment `[a, b]`: a
/// character's body, a swept circle. Its core is the segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule<T: Real> {
    a: Point2<T>,
    b: Point2<T>,
    radius: T,
}

impl<T: Real> Capsule<T> {
    /// The capsule around the segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite number,
    /// [`ShapeError::NonPositiveSize`] for a radius that is not positive,
    /// [`ShapeError::CoincidentEndpoints`] when `a == b` (use a
    /// [`Circle`](crate::Circle)); [`ShapeError::NonFinite`] with field
    /// `"extent (b - a)"` when `b − a` overflows.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{Capsule, ShapeError};
    /// let c = Capsule::new(Point2::new(0.0, -1.0), Point2::new(0.0, 1.0), 0.5).unwrap();
    /// assert_eq!(c.radius(), 0.5);
    /// assert!(matches!(
    ///     Capsule::new(Point2::new(0.0, -1.0), Point2::new(0.0, 1.0), -0.5),
    ///     Err(ShapeError::NonPositiveSize { field: "radius", .. })
    /// ));
    /// ```
    pub fn new(a: Point2<T>, b: Point2<T>, radius: T) -> Result<Self, ShapeError> {
        check_finite_point(&a, "a")?;
        check_finite_point(&b, "b")?;
        check_positive(radius, "radius")?;
        if a == b {
            return Err(ShapeError::CoincidentEndpoints);
        }
        check_finite_extent(&a, &b, "extent (b - a)")?;
        Ok(Self { a, b, radius })
    }

    /// A capsule centred on the local origin along the local y axis, with
    /// `half_height` from the centre to each end point of the core.
    ///
    /// # Errors
    /// As [`Capsule::new`].
    ///
    /// ```
    /// use shape::Capsule;
    /// let c = Capsule::vertical(1.0f32, 0.25).unwrap();
    /// assert_eq!(c.b().y, 1.0);
    /// ```
    pub fn vertical(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_positive(half_height, "half_height")?;
        Self::new(
            Point2::new(T::zero(), -half_height),
            Point2::new(T::zero(), half_height),
            radius,
        )
    }

    /// The first end point of the core segment.
    #[must_use]
    pub fn a(&self) -> Point2<T> {
        self.a
    }

    /// The second end point of the core segment.
    #[must_use]
    pub fn b(&self) -> Point2<T> {
        self.b
    }

    /// The radius.
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The point of the core segment closest to local point `p`.
    #[must_use]
    pub fn closest_core_point(&self, p: &Point2<T>) -> Point2<T> {
        polygonal::closest_on_segment(&self.a, &self.b, p)
    }

    /// The span of the line `o + t d` (local frame) through the capsule
    /// (module notes).
    fn span(&self, o: &Point2<T>, d: &Vector2<T>) -> Option<Span<T, 2>> {
        let mut span: Option<Span<T, 2>> = None;
        let mut enter = |t: T, n: Vector2<T>| match &mut span {
            Some(s) if t >= s.t_in => {}
            Some(s) => {
                s.t_in = t;
                s.n_in = n;
            }
            None => {
                span = Some(Span {
                    t_in: t,
                    n_in: n,
                    t_out: t,
                    n_out: n,
                });
            }
        };
        let e = self.b - self.a;
        let ee = e.norm_squared();
        let along = |t: T| (o - self.a + d * t).dot(&e);
        let on_side = |t: T| {
            let u = along(t);
            u >= T::zero() && u <= ee
        };
        let v0 = e.perp(&(o - self.a));
        let dv = e.perp(d);
        let left = Vector2::new(-e.y, e.x);
        let mut exits: [Option<(T, Vector2<T>)>; 3] = [None; 3];
        if dv != T::zero() {
            let re = self.radius * scaled_norm(&e);
            // At t_right the line is on the right side (e × (x − a) = −r|e|).
            let t_right = (-re - v0) / dv;
            let t_left = (re - v0) / dv;
            let ((t0, n0), (t1, n1)) = if t_right <= t_left {
                ((t_right, -left), (t_left, left))
            } else {
                ((t_left, left), (t_right, -left))
            };
            if on_side(t0) {
                enter(t0, n0);
            }
            if on_side(t1) {
                exits[0] = Some((t1, n1));
            }
        }
        for (k, c) in [self.a, self.b].into_iter().enumerate() {
            let oc = o - c;
            if let Some((t0, t1)) = ball_roots(&oc, d, self.radius, false) {
                enter(t0, oc + d * t0);
                exits[k + 1] = Some((t1, oc + d * t1));
            }
        }
        let mut span = span?;
        // The last exit (the entry itself if rounding lost every exit).
        let mut first = true;
        for (t, n) in exits.into_iter().flatten() {
            if first || t > span.t_out {
                span.t_out = t;
                span.n_out = n;
                first = false;
            }
        }
        if span.t_out < span.t_in {
            span.t_out = span.t_in;
            span.n_out = span.n_in;
        }
        Some(span)
    }
}

impl<T: Real> Shape<T> for Capsule<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CAPSULE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Capsule(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(&[self.a, self.b], pose).loosened(self.radius)
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

impl<T: Real> RayCast<T> for Capsule<T> {
    /// The first hit (module notes).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Capsule, Ray, RayCast};
    /// let pill = Capsule::new(Point2::new(-2.0, 0.0), Point2::new(2.0, 0.0), 1.0).unwrap();
    /// let id = Isometry2::identity();
    /// // Down onto the flat side, and along the axis onto the cap.
    /// let hit = pill.cast_ray(&id, &Ray::new(Point2::new(1.0, 5.0), Vector2::new(0.0, -2.0)), 9.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (2.0, Point2::new(1.0, 1.0)));
    /// let hit = pill.cast_ray(&id, &Ray::new(Point2::new(-7.0, 0.0), Vector2::new(1.0, 0.0)), 9.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.normal.into_inner()), (4.0, Vector2::new(-1.0, 0.0)));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let s = ScaledRay::new(ray).inverse_transformed(pose);
        let (o, d) = (s.origin, s.dir);
        let rr = self.radius * self.radius;
        if (o - self.closest_core_point(&o)).norm_squared() <= rr {
            return self.cast_ray_careful(pose, ray, &s, true, max_toi, solid);
        }
        // The origin is outside. The capsule lies in the slab
        // `|e × (x − a)| ≤ r|e|`, so the line enters it no earlier than it
        // enters the slab, at `X` (no slab entry: parallel to the core, the
        // careful path). If `X` is on a side (its position along the core,
        // `(X − a)·e`, in `[0, |e|²]`), `X` is on the boundary: the entry.
        // Before `a` (`< 0`) the capsule's points in the slab are the disk
        // at `a`'s (a point there is nearest `a` among the core's points,
        // and the end of the rectangle at `a` is a diameter of that disk),
        // so the entry is that disk's; beyond `b`, the disk at `b`'s.
        // Anything that rounding leaves ambiguous (an entry at or before
        // the origin) takes the careful path.
        let careful = |inside| self.cast_ray_careful(pose, ray, &s, inside, max_toi, solid);
        let e = self.b - self.a;
        let ee = e.norm_squared();
        let dv = e.perp(&d);
        if dv == T::zero() || !(ee >= T::min_positive_value() && ee <= <T as Float>::max_value()) {
            return careful(false);
        }
        let len = Float::sqrt(ee);
        // Going up `e × (x − a)` (dv > 0) the line enters through the right
        // side (`e × (x − a) = −r|e|`, outward normal `−e⊥/|e|`), going down
        // through the left one.
        let oa = o - self.a;
        let (level, sign) = if dv > T::zero() {
            (-self.radius * len, -T::one())
        } else {
            (self.radius * len, T::one())
        };
        let t = (level - e.perp(&oa)) / dv;
        let along = (oa + d * t).dot(&e);
        let (t, n) = if along >= T::zero() && along <= ee {
            (t, Vector2::new(-e.y, e.x) * (sign / len))
        } else {
            let oc = if along < T::zero() { oa } else { o - self.b };
            match ball_entry(&oc, &d, rr, oc.norm_squared()) {
                Entry::At(t) => match ball_normal(&(oc + d * t), self.radius, &d) {
                    Some(n) => (t, n),
                    None => return None,
                },
                Entry::Miss => return None,
                Entry::Careful => return careful(false),
            }
        };
        if t <= T::zero() {
            return careful(false);
        }
        let toi = s.toi(t);
        if !within(toi, max_toi) {
            return None;
        }
        Some(RayHit {
            toi,
            point: pose * (o + d * t),
            normal: Unit::new_unchecked(pose.rotation * n),
        })
    }
}

impl<T: Real> Capsule<T> {
    /// The ray cast from inside the capsule, or when rounding leaves the
    /// fast path's answer ambiguous: the whole span ([`Capsule::span`]) and
    /// `single::resolve`.
    #[cold]
    fn cast_ray_careful(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        s: &ScaledRay<T, 2>,
        inside: bool,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let span = self.span(&s.origin, &s.dir);
        resolve(ray, s, span, inside, max_toi, solid, pose)
    }
}

impl<T: Real> PointQuery<T> for Capsule<T> {
    /// The nearest point of the capsule (of its boundary, hollow).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let q = pose.inverse_transform_point(p);
        let c = self.closest_core_point(&q);
        let w = q - c;
        let is_inside = w.norm_squared() <= self.radius * self.radius;
        if is_inside && solid {
            return PointProjection {
                point: *p,
                is_inside,
            };
        }
        let u = unit_direction(&w).unwrap_or_else(|| {
            let e = self.b - self.a;
            unit_direction(&Vector2::new(-e.y, e.x)).unwrap_or_else(Vector2::y)
        });
        PointProjection {
            point: pose * (c + u * self.radius),
            is_inside,
        }
    }
}

impl<T: Real> Convex<T> for Capsule<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let core = polygonal::support_point(&[self.a, self.b], pose, dir);
        match unit_direction(dir) {
            Some(u) => core + u * self.radius,
            None => core,
        }
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        (q - self.closest_core_point(&q)).norm_squared() <= self.radius * self.radius
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Capsule<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let core = polygonal::project(&[self.a, self.b], pose, axis);
        let r = self.radius * axis.norm();
        Interval::new(core.min - r, core.max + r)
    }
    /// The core's normal, and the directions from each core end point to the
    /// other shape's nearest core point.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let d = pose.rotation * (self.b - self.a);
        axis(Vector2::new(-d.y, d.x));
        for end in [self.a, self.b] {
            let e = pose * end;
            axis(other.nearest_core_point(other_pose, &e) - e);
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        pose * self.closest_core_point(&pose.inverse_transform_point(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn known_values<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let c = Capsule::new(p(-2.0, 0.0), p(2.0, 0.0), T::one()).unwrap();
        let tol = test_tolerance::<T>(T::lit(10.0));
        let pose = Isometry2::new(Vector2::new(T::lit(5.0), T::lit(5.0)), T::frac_pi_2());
        let b = c.bounding_box(&pose);
        assert!((b.min - p(4.0, 2.0)).norm() < tol);
        assert!((b.max - p(6.0, 8.0)).norm() < tol);
        let id = Isometry2::identity();
        assert_eq!(
            c.support_point(&id, &Vector2::new(T::zero(), T::lit(3.0))),
            p(-2.0, 1.0)
        );
        assert_eq!(
            c.support_point(&id, &Vector2::new(T::one(), T::zero())),
            p(3.0, 0.0)
        );
        assert!(c.contains_point(&id, &p(3.0, 0.0)));
        assert!(c.contains_point(&id, &p(0.0, -1.0)));
        assert!(!c.contains_point(&id, &p(2.8, 0.8)));
        let i = c.project(&id, &Vector2::x());
        assert_eq!((i.min, i.max), (T::lit(-3.0), T::lit(3.0)));
        assert_eq!(c.nearest_core_point(&id, &p(1.0, 4.0)), p(1.0, 0.0));
        assert_eq!(
            Capsule::vertical(T::two(), T::one()).unwrap().a(),
            p(0.0, -2.0)
        );
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let c = Capsule::new(p(-2.0, 0.0), p(2.0, 0.0), T::lit(5.0)).unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        let cast =
            |o: Point2<T>, d: Vector2<T>, solid: bool| c.cast_ray(&id, &Ray::new(o, d), inf, solid);
        // Onto the flat top, and through the top's end (a junction with the cap).
        let h = cast(p(0.0, 9.0), v(0.0, -1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(4.0), p(0.0, 5.0), v(0.0, 1.0))
        );
        let h = cast(p(2.0, 9.0), v(0.0, -1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(4.0), p(2.0, 5.0), v(0.0, 1.0))
        );
        // Onto the right cap, 3-4-5: from (12, 3) along −x, at (6, 3).
        let h = cast(p(12.0, 3.0), v(-2.0, 0.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(3.0), p(6.0, 3.0), v(0.8, 0.6))
        );
        // Hollow from inside: leaves through the left cap at (−6, 3), inward normal.
        let h = cast(p(0.0, 3.0), v(-1.0, 0.0), false).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(6.0), p(-6.0, 3.0), v(0.8, -0.6))
        );
        // Along the top side's line: grazes the whole flat, entering at (−2, 5).
        let h = cast(p(-9.0, 5.0), v(1.0, 0.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(7.0), p(-2.0, 5.0), v(0.0, 1.0))
        );
        let h = cast(p(-2.0, 5.0), v(1.0, 0.0), false).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(2.0, 5.0)));
        assert!(cast(p(-9.0, 5.25), v(1.0, 0.0), true).is_none());
        // A slanted miss past the cap, and a hit behind.
        assert!(cast(p(8.0, 8.0), v(1.0, 0.0), true).is_none());
        assert!(cast(p(0.0, 9.0), v(0.0, 1.0), true).is_none());
        // Turned a quarter at (10, 0): the core runs from (10, −2) to (10, 2).
        let pose = Isometry2::new(v(10.0, 0.0), T::frac_pi_2());
        let h = c
            .cast_ray(&pose, &Ray::new(p(0.0, 1.0), v(1.0, 0.0)), inf, true)
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(5.0)) < test_tolerance::<T>(T::lit(10.0)));
        // Projections.
        let pr = c.project_point(&id, &p(1.0, 9.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 5.0), false));
        let pr = c.project_point(&id, &p(5.0, 4.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(5.0, 4.0), true));
        let pr = c.project_point(&id, &p(5.0, 4.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(5.0, 4.0), true));
        let pr = c.project_point(&id, &p(1.0, 2.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 5.0), true));
        // On the core: the left side (e⊥ = +y here).
        assert_eq!(c.project_point(&id, &p(1.0, 0.0), false).point, p(1.0, 5.0));
    }
    for_each_precision!(rays, rays_and_projections);

    fn fast_agrees_with_span<T: Real>() {
        // From outside, the one-piece entry of the fast path and the whole
        // span of the careful path give the same hit: long and short
        // capsules (a short one's far disk reaches past its near end),
        // rays aimed near the core from all around.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let shapes = [
            Capsule::new(p(-2.0, 0.0), p(2.0, 0.0), T::lit(0.75)).unwrap(),
            Capsule::new(p(-0.2, -0.1), p(0.1, 0.2), T::lit(1.5)).unwrap(),
            Capsule::new(p(1.0, 3.0), p(-4.0, -1.0), T::lit(0.3)).unwrap(),
        ];
        let mut hits = 0;
        for c in &shapes {
            for _ in 0..400 {
                let a = next() * core::f64::consts::TAU;
                let (r, aim) = (3.0 + 5.0 * next(), [4.0 * next() - 2.0, 4.0 * next() - 2.0]);
                let o = [r * a.cos(), r * a.sin()];
                let k = 0.25 + 4.0 * next();
                let ray = Ray::new(
                    p(o[0], o[1]),
                    Vector2::new(T::lit((aim[0] - o[0]) * k), T::lit((aim[1] - o[1]) * k)),
                );
                let pose = Isometry2::new(Vector2::new(T::lit(0.5), T::lit(-1.0)), T::lit(0.3));
                let fast = c.cast_ray(&pose, &ray, T::infinity(), true);
                let s = ScaledRay::new(&ray).inverse_transformed(&pose);
                let inside = c.contains_point(&pose, &ray.origin);
                let span = c.cast_ray_careful(&pose, &ray, &s, inside, T::infinity(), true);
                match (fast, span) {
                    (None, None) => {}
                    (Some(f), Some(g)) => {
                        let tol = test_tolerance::<T>(T::lit(10.0));
                        assert!(
                            Float::abs(f.toi - g.toi) * ray.dir.norm() <= tol,
                            "{f:?} {g:?}"
                        );
                        assert!(
                            (f.normal.into_inner() - g.normal.into_inner()).norm() <= tol,
                            "{c:?} {ray:?} {f:?} {g:?}"
                        );
                        hits += 1;
                    }
                    (f, g) => panic!("{ray:?}: fast {f:?}, span {g:?}"),
                }
            }
        }
        assert!(hits > 300, "{hits}");
    }
    for_each_precision!(fast_path, fast_agrees_with_span);

    fn rejects_bad_input<T: Real>() {
        let o = Point2::<T>::origin();
        let x = Point2::new(T::one(), T::zero());
        assert_eq!(
            Capsule::new(o, o, T::one()),
            Err(ShapeError::CoincidentEndpoints)
        );
        assert!(matches!(
            Capsule::new(o, x, T::zero()),
            Err(ShapeError::NonPositiveSize { .. })
        ));
        assert_eq!(
            Capsule::new(o, x, T::nan()),
            Err(ShapeError::NonFinite { field: "radius" })
        );
        assert_eq!(
            Capsule::new(Point2::new(T::neg_infinity(), T::zero()), x, T::one()),
            Err(ShapeError::NonFinite { field: "a" })
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
