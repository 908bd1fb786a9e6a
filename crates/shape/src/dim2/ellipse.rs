//! An ellipse that rotates with its pose.
//!
//! Its queries work in the ellipse's frame (the point mapped by
//! `inverse_transform_point`, as `contains_point` maps it).
//!
//! **Ray cast**: the map `diag(1/rx, 1/ry)` turns the ellipse into the unit
//! disk and the line `o + t d` into the line `o' + t d'` with the same
//! parameter `t` (the map is linear), so the times are the roots of
//! `|o' + t d'|² = 1`, found by `single::ball_roots` without cancellation
//! (`d'` rescaled by a power of two first, which radii far from one may
//! need). The normal is the gradient of `(x/rx)² + (y/ry)²` at the hit,
//! `(x/rx², y/ry²)`, *not* the unit disk's normal mapped back; it is computed
//! as `(u ry, v rx)` from the disk point `(u, v) = (x/rx, y/ry)`, the same
//! direction times `rx ry`, with no division by the squared radii. Solid,
//! hollow, inside and outside as in `single`.
//!
//! **Projection**: Eberly's exact nearest point (`ellipse_distance`): the
//! query point itself inside a solid ellipse, else `nearest_boundary_point`.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::ellipse_distance::nearest_boundary_point;
use super::{check_positive_vector, scaled_norm, unit_direction};
use crate::single::{ScaledRay, Span, ball_roots, resolve};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind,
};

/// The closed ellipse `(x / rx)² + (y / ry)² ≤ 1` centred on the local origin,
/// turning with its pose (seed 004's oriented bounding ellipse).
///
/// Curved everywhere, it has no finite set of separating axes, so it does not
/// implement [`SupportSeparatingAxes`](crate::SupportSeparatingAxes); the narrow
/// phase handles it with exact dedicated kernels and its support function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ellipse<T: Real> {
    radii: Vector2<T>,
}

impl<T: Real> Ellipse<T> {
    /// An ellipse with radii `(rx, ry)` along its local x and y axes.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] (field
    /// `"radii.x"` or `"radii.y"`).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use shape::Ellipse;
    /// let e = Ellipse::new(Vector2::new(10.0, 1.0)).unwrap();
    /// assert_eq!(e.radii(), Vector2::new(10.0, 1.0));
    /// assert!(Ellipse::new(Vector2::new(10.0, 0.0)).is_err());
    /// ```
    pub fn new(radii: Vector2<T>) -> Result<Self, ShapeError> {
        check_positive_vector(&radii, "radii.x", "radii.y")?;
        Ok(Self { radii })
    }

    /// The radii along the local x and y axes.
    #[must_use]
    pub fn radii(&self) -> Vector2<T> {
        self.radii
    }

    /// The local boundary point maximising `p · dir` for a local direction:
    /// `(rx² dx, ry² dy) / √(rx² dx² + ry² dy²)`; the centre for a zero direction.
    #[must_use]
    pub fn local_support_point(&self, dir: &Vector2<T>) -> Point2<T> {
        // diag(r) · w with w the unit vector along (rx dx, ry dy): the same
        // point, computed from unit vectors so that neither the squared radii
        // nor the squared lengths overflow (huge ellipses) or underflow (tiny
        // radii, tiny directions).
        let Some(d) = unit_direction(dir) else {
            return Point2::origin();
        };
        match unit_direction(&self.radii.component_mul(&d)) {
            Some(w) => Point2::from(self.radii.component_mul(&w)),
            None => Point2::origin(),
        }
    }

    /// The interval of `p · axis` over the ellipse at `pose`: the centre's
    /// projection `± √((rx a'x)² + (ry a'y)²)` with `a'` the axis in the local
    /// frame.
    #[must_use]
    pub fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let c = pose.translation.vector.dot(axis);
        let a = pose.rotation.inverse_transform_vector(axis);
        let r = scaled_norm(&Vector2::new(self.radii.x * a.x, self.radii.y * a.y));
        Interval::new(c - r, c + r)
    }
}

impl<T: Real> Shape<T> for Ellipse<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::ELLIPSE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Ellipse(self))
    }
    /// Exact: the half width along world x is the support value in x,
    /// `√((rx cos θ)² + (ry sin θ)²)`, and likewise for y.
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let x = self.project(pose, &Vector2::x());
        let y = self.project(pose, &Vector2::y());
        BoundingBox2::new(Point2::new(x.min, y.min), Point2::new(x.max, y.max))
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast<T> for Ellipse<T> {
    /// The first hit, by the quadratic in the frame where the ellipse is the
    /// unit disk (module notes).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Ellipse, Ray, RayCast};
    /// let e = Ellipse::new(Vector2::new(10.0_f64, 5.0)).unwrap();
    /// let ray = Ray::new(Point2::new(6.0, 10.0), Vector2::new(0.0, -1.0));
    /// let hit = e.cast_ray(&Isometry2::identity(), &ray, 100.0, true).unwrap();
    /// assert!((hit.toi - 6.0).abs() < 1e-12); // at (6, 4): 0.6² + 0.8² = 1
    /// let n = Vector2::new(3.0, 8.0).normalize(); // ∝ (6/10², 4/5²)
    /// assert!((hit.normal.into_inner() - n).norm() < 1e-12);
    /// ```
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let s = ScaledRay::new(ray).inverse_transformed(pose);
        let (rx, ry) = (self.radii.x, self.radii.y);
        let o = Point2::new(s.origin.x / rx, s.origin.y / ry);
        let inside = o.x * o.x + o.y * o.y <= T::one();
        let disk = ScaledRay::new(&Ray::new(o, Vector2::new(s.dir.x / rx, s.dir.y / ry)));
        let (o, d) = (disk.origin.coords, disk.dir);
        let normal = |t: T| {
            let w = o + d * t;
            Vector2::new(w.x * ry, w.y * rx)
        };
        let span = ball_roots(&o, &d, T::one(), inside).map(|(t0, t1)| Span {
            t_in: disk.toi(t0),
            n_in: normal(t0),
            t_out: disk.toi(t1),
            n_out: normal(t1),
        });
        resolve(ray, &s, span, inside, max_toi, solid, pose)
    }
}

impl<T: Real> PointQuery<T> for Ellipse<T> {
    /// The nearest point of the ellipse (of its boundary, hollow), exact up
    /// to rounding (Eberly).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let q = pose.inverse_transform_point(p);
        let (u, v) = (q.x / self.radii.x, q.y / self.radii.y);
        let is_inside = u * u + v * v <= T::one();
        let point = if is_inside && solid {
            *p
        } else {
            pose * nearest_boundary_point(self.radii, &q)
        };
        PointProjection { point, is_inside }
    }
}

impl<T: Real> Convex<T> for Ellipse<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        pose * self.local_support_point(&pose.rotation.inverse_transform_vector(dir))
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        let u = q.x / self.radii.x;
        let v = q.y / self.radii.y;
        u * u + v * v <= T::one()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;
    use num_traits::Float;

    fn known_values<T: Real>() {
        let e = Ellipse::new(Vector2::new(T::lit(4.0), T::one())).unwrap();
        let tol = test_tolerance::<T>(T::lit(10.0));
        // A quarter turn swaps the half widths.
        let pose = Isometry2::new(Vector2::new(T::lit(1.0), T::lit(2.0)), T::frac_pi_2());
        let b = e.bounding_box(&pose);
        assert!((b.min - Point2::new(T::zero(), T::lit(-2.0))).norm() < tol);
        assert!((b.max - Point2::new(T::two(), T::lit(6.0))).norm() < tol);
        // At 45°: half width √((16 + 1) / 2).
        let pose = Isometry2::new(Vector2::zeros(), T::frac_pi_4());
        let w = Float::sqrt(T::lit(8.5));
        let b = e.bounding_box(&pose);
        assert!(Float::abs(b.max.x - w) < tol && Float::abs(b.max.y - w) < tol);
        // The support point in +x attains that half width and lies on the boundary.
        let s = e.support_point(&pose, &Vector2::x());
        assert!(Float::abs(s.x - w) < tol);
        let q = pose.inverse_transform_point(&s);
        assert!(Float::abs(q.x * q.x / T::lit(16.0) + q.y * q.y - T::one()) < tol);
        let id = Isometry2::identity();
        assert_eq!(
            e.support_point(&id, &Vector2::y()),
            Point2::new(T::zero(), T::one())
        );
        assert_eq!(e.support_point(&id, &Vector2::zeros()), Point2::origin());
        assert!(e.contains_point(&id, &Point2::new(T::lit(4.0), T::zero())));
        assert!(e.contains_point(&id, &Point2::new(T::zero(), -T::one())));
        assert!(!e.contains_point(&id, &Point2::new(T::lit(3.0), T::lit(0.7))));
        let i = e.project(&id, &Vector2::new(T::zero(), T::two()));
        assert_eq!((i.min, i.max), (-T::two(), T::two()));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let e = Ellipse::new(v(10.0, 5.0)).unwrap();
        let tol = test_tolerance::<T>(T::lit(20.0));
        let close = |a: Point2<T>, b: Point2<T>| (a - b).norm() < tol;
        let id = Isometry2::identity();
        let inf = T::infinity();
        let cast =
            |o: Point2<T>, d: Vector2<T>, solid: bool| e.cast_ray(&id, &Ray::new(o, d), inf, solid);
        // Onto (6, 4) from above: the gradient (6/100, 4/25) ∝ (3, 8), not (3, 4).
        let h = cast(p(6.0, 10.0), v(0.0, -1.0), true).unwrap();
        assert!(Float::abs(h.toi - T::lit(6.0)) < tol && close(h.point, p(6.0, 4.0)));
        let n = v(3.0, 8.0) / Float::sqrt(T::lit(73.0));
        assert!((h.normal.into_inner() - n).norm() < tol);
        // Along the major axis onto the vertex: exact with radii that are
        // powers of two (the map to the disk divides by them).
        let e8 = Ellipse::new(v(8.0, 4.0)).unwrap();
        let h = e8
            .cast_ray(&id, &Ray::new(p(-16.0, 0.0), v(2.0, 0.0)), inf, true)
            .unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(4.0), p(-8.0, 0.0), v(-1.0, 0.0))
        );
        // Inside: solid at 0; hollow leaves at (6, −4), inward normal ∝ −(3, −8).
        let h = cast(p(6.0, 0.0), v(0.0, -0.5), true).unwrap();
        assert_eq!((h.toi, h.normal.into_inner()), (T::zero(), v(0.0, 1.0)));
        let h = cast(p(6.0, 0.0), v(0.0, -0.5), false).unwrap();
        assert!(Float::abs(h.toi - T::lit(8.0)) < tol && close(h.point, p(6.0, -4.0)));
        assert!((h.normal.into_inner() - v(-3.0, 8.0) / Float::sqrt(T::lit(73.0))).norm() < tol);
        // Tangent to the top (0, 5): a hit whose normal is +y; a hair above misses.
        let h = cast(p(-20.0, 5.0), v(4.0, 0.0), true).unwrap();
        assert!(Float::abs(h.toi - T::lit(5.0)) < tol && close(h.point, p(0.0, 5.0)));
        assert!((h.normal.into_inner() - v(0.0, 1.0)).norm() < T::lit(1e-2));
        assert!(cast(p(-20.0, 5.0 + 1e-3), v(4.0, 0.0), true).is_none());
        // Turned a quarter at (0, 20): the major axis along y; the bottom vertex at (0, 10).
        let pose = Isometry2::new(v(0.0, 20.0), T::frac_pi_2());
        let h = e
            .cast_ray(&pose, &Ray::new(p(0.0, 0.0), v(0.0, 1.0)), inf, true)
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(10.0)) < tol);
        assert!((h.normal.into_inner() - v(0.0, -1.0)).norm() < tol);
        // Projections: on an axis exactly; inside hollow to the nearest boundary point.
        let pr = e.project_point(&id, &p(0.0, 9.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(0.0, 5.0), false));
        let pr = e.project_point(&id, &p(1.0, 1.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 1.0), true));
        let pr = e.project_point(&id, &p(0.0, 3.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(0.0, 5.0), true));
        let pr = e.project_point(&id, &p(6.0, 4.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(6.0, 4.0), true));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        assert_eq!(
            Ellipse::new(Vector2::new(T::nan(), T::one())),
            Err(ShapeError::NonFinite { field: "radii.x" })
        );
        assert!(matches!(
            Ellipse::new(Vector2::new(T::one(), -T::one())),
            Err(ShapeError::NonPositiveSize {
                field: "radii.y",
                ..
            })
        ));
        // Extreme aspect ratios are valid.
        assert!(Ellipse::new(Vector2::new(T::lit(1e4), T::one())).is_ok());
    }
    for_each_precision!(rejects, rejects_bad_input);
}
