//! A rounded polygon: a convex polygon (the *core*) grown by a radius, and
//! the rounded box, its most common case.
//!
//! The shape is `S = K ⊕ disk(r)`, the closed set of points within `r` of
//! the core `K`. Its queries work in the shape's frame (the point mapped by
//! `inverse_transform_point`, as `contains_point` maps it), with the core's
//! counter-clockwise vertices `vᵢ`, edges `eᵢ = vᵢ₊₁ − vᵢ` and unit outward
//! normals `nᵢ`.
//!
//! **Containment**: `x ∈ S` exactly when `|x − c(x)|² ≤ r²`, with `c(x)`
//! the core's closest point (`x` itself inside the core).
//!
//! **Ray cast**: the boundary of `S` is the union of the core's edges offset
//! by `r` along their normals (`vᵢ + r nᵢ` to `vᵢ₊₁ + r nᵢ`) and arcs of the
//! circles of radius `r` about the vertices. Each of these pieces, as a whole
//! (the whole offset segment, the whole disk about a vertex), lies in `S`.
//! 1. For each edge, the line `o + t d` crosses the offset edge's line
//!    `nᵢ · (x − vᵢ) = r` at `t = (r − nᵢ · (o − vᵢ)) / (nᵢ · d)` (none when
//!    parallel); the crossing is on the offset edge when its position along
//!    the edge, `(x − vᵢ) · eᵢ`, lies in `[0, |eᵢ|²]`. Going against `nᵢ`
//!    (`nᵢ · d < 0`) it is an entry, going along it an exit.
//! 2. For each vertex, `single::ball_roots` around `vᵢ`: an entry and an exit.
//! 3. The entry is the least of the entries, the exit the greatest of the
//!    exits; then `single::resolve` as for every shape.
//!
//! *Why the least entry is the first*: `S` is convex, so the line meets it in
//! one interval `[T_in, T_out]`. Every piece lies in `S`, so every entry found
//! is at or after `T_in`. The point at `T_in` is on the boundary, so on a
//! piece: on an offset edge, the line crosses that edge's line there going in
//! (`nᵢ · d < 0`; a line along the edge grazes it and touches the vertex
//! circles at the edge's ends, which give the same time); on a vertex circle,
//! the disk (inside `S`) is entered no earlier than `T_in` and the line is on
//! its circle at `T_in`, so the disk's entry is `T_in`. Hence the least entry
//! is `T_in`; the exit likewise. Normals: `nᵢ` on an offset edge, `x − vᵢ`
//! on an arc. The ray is rescaled first (`single::ScaledRay`) and every
//! quantity is taken relative to a vertex, so a shape far from the world's
//! origin keeps the precision of its own size (the capsule's care).
//!
//! **Projection**: outside the core, the core's closest point `c` pushed out
//! to `c + r (p − c)/|p − c|`; inside the core (hollow), the distance to the
//! boundary of `S` is `r` plus the distance to the nearest edge's line
//! (support functions: `h_S(u) = h_K(u) + r`), reached along that edge's
//! normal: `p + (sᵢ + r) nᵢ` with `sᵢ = nᵢ · (vᵢ − p)` least.
//!
//! **Support and separating axes**: the core's support point plus `r` along
//! the unit direction; the core's projection widened by `r |axis|`; the core's
//! edge normals and, because the corners are round, the directions from each
//! core vertex to the other shape's nearest core point (as for the capsule).
//!
//! References: Ericson, *Real-Time Collision Detection* §5.1.2 (closest
//! point on a segment), §5.3.7 (ray against a capsule, the same pieces).

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{check_positive, check_positive_vector, polygonal, unit_direction};
use crate::single::{ScaledRay, Span, ball_roots, resolve};
use crate::{
    BoundingBox2, Convex, ConvexPolygon, Interval, PointProjection, PointQuery, Ray, RayCast,
    RayHit, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// The closed set of points within `radius` of a convex polygon (its core):
/// a crate with rounded corners, a rounded platform. Built from vertices
/// ([`RoundedPolygon::new`]), from a polygon ([`RoundedPolygon::from_polygon`])
/// or as a rounded box ([`RoundedPolygon::rounded_box`]).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use shape::{Convex, RoundedPolygon};
/// let crate_ = RoundedPolygon::rounded_box(Vector2::new(2.0, 1.0), 0.25).unwrap();
/// assert_eq!(crate_.radius(), 0.25);
/// assert_eq!(crate_.core().vertices()[2], Point2::new(1.75, 0.75));
/// assert!(crate_.contains_point(&Isometry2::identity(), &Point2::new(2.0, 0.0)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RoundedPolygon<T: Real> {
    core: ConvexPolygon<T>,
    radius: T,
}

impl<T: Real> RoundedPolygon<T> {
    /// The polygon with these vertices (clockwise or counter-clockwise, as
    /// [`ConvexPolygon::new`] takes them) grown by `radius`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`], [`ShapeError::NonPositiveSize`] or
    /// [`ShapeError::TooLarge`] for the radius (field `"radius"`), then
    /// every error of [`ConvexPolygon::new`] for the vertices.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{RoundedPolygon, ShapeError};
    /// let p = |x, y| Point2::new(x, y);
    /// let r = RoundedPolygon::new(&[p(0.0, 0.0), p(2.0, 0.0), p(1.0, 2.0)], 0.5).unwrap();
    /// assert_eq!(r.core().len(), 3);
    /// assert!(matches!(
    ///     RoundedPolygon::new(&[p(0.0, 0.0), p(2.0, 0.0), p(1.0, 2.0)], 0.0),
    ///     Err(ShapeError::NonPositiveSize { field: "radius", .. })
    /// ));
    /// ```
    pub fn new(vertices: &[Point2<T>], radius: T) -> Result<Self, ShapeError> {
        check_positive(radius, "radius")?;
        Ok(Self {
            core: ConvexPolygon::new(vertices)?,
            radius,
        })
    }

    /// `polygon` grown by `radius`.
    ///
    /// # Errors
    /// As [`RoundedPolygon::new`] for the radius.
    pub fn from_polygon(polygon: ConvexPolygon<T>, radius: T) -> Result<Self, ShapeError> {
        check_positive(radius, "radius")?;
        Ok(Self {
            core: polygon,
            radius,
        })
    }

    /// The box centred on the local origin whose *outer* half extents are
    /// `half_extents`, its corners rounded by `radius`: the core is the box of
    /// half extents `half_extents − (radius, radius)` (vertices
    /// counter-clockwise from the bottom left, so edge 0 is the bottom).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`], [`ShapeError::NonPositiveSize`] or
    /// [`ShapeError::TooLarge`] for a half extent (fields `"half_extents.x"`,
    /// `"half_extents.y"`) or the radius (`"radius"`), and
    /// [`ShapeError::RadiusTooLarge`] when `radius ≥ min(half_extents)` (the
    /// core would have no area: use a [`Capsule`](crate::Capsule) or a
    /// [`Circle`](crate::Circle)).
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use shape::{RoundedPolygon, ShapeError};
    /// let b = RoundedPolygon::rounded_box(Vector2::new(1.0f32, 0.5), 0.125).unwrap();
    /// assert_eq!(b.core().vertices()[0].x, -0.875);
    /// assert!(matches!(
    ///     RoundedPolygon::rounded_box(Vector2::new(1.0, 0.5), 0.5),
    ///     Err(ShapeError::RadiusTooLarge { .. })
    /// ));
    /// ```
    pub fn rounded_box(half_extents: Vector2<T>, radius: T) -> Result<Self, ShapeError> {
        check_positive_vector(&half_extents, "half_extents.x", "half_extents.y")?;
        check_positive(radius, "radius")?;
        let smaller = num_traits::Float::min(half_extents.x, half_extents.y);
        if radius >= smaller {
            return Err(ShapeError::RadiusTooLarge {
                radius: radius.as_f64(),
                limit: smaller.as_f64(),
            });
        }
        // `h − r > 0` exactly (Sterbenz: the difference of two positive
        // floats with `r < h` is positive when computed).
        let (x, y) = (half_extents.x - radius, half_extents.y - radius);
        let core = ConvexPolygon::new(&[
            Point2::new(-x, -y),
            Point2::new(x, -y),
            Point2::new(x, y),
            Point2::new(-x, y),
        ])?;
        Ok(Self { core, radius })
    }

    /// The core polygon.
    #[must_use]
    pub fn core(&self) -> &ConvexPolygon<T> {
        &self.core
    }

    /// The core's vertices, counter-clockwise.
    #[must_use]
    pub fn vertices(&self) -> &[Point2<T>] {
        self.core.vertices()
    }

    /// The core's unit outward edge normals (normal `i` belongs to the edge
    /// from vertex `i` to vertex `i + 1`).
    #[must_use]
    pub fn normals(&self) -> &[Vector2<T>] {
        self.core.normals()
    }

    /// The rounding radius.
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The point of the core closest to local point `p` (`p` itself inside
    /// the core).
    #[must_use]
    pub fn closest_core_point(&self, p: &Point2<T>) -> Point2<T> {
        polygonal::closest_on_polygon(self.core.vertices(), p)
    }

    /// Whether local point `q` is in the shape (module notes).
    #[inline]
    fn contains_local(&self, q: &Point2<T>) -> bool {
        (q - self.closest_core_point(q)).norm_squared() <= self.radius * self.radius
    }

    /// The span of the line `o + t d` (local frame) through the shape
    /// (module notes, steps 1 to 3).
    fn span(&self, o: &Point2<T>, d: &Vector2<T>) -> Option<Span<T, 2>> {
        let vertices = self.core.vertices();
        let normals = self.core.normals();
        let n = vertices.len();
        let r = self.radius;
        let mut entry: Option<(T, Vector2<T>)> = None;
        let mut exit: Option<(T, Vector2<T>)> = None;
        let mut enter = |t: T, normal: Vector2<T>| {
            if entry.is_none_or(|(best, _)| t < best) {
                entry = Some((t, normal));
            }
        };
        let mut leave = |t: T, normal: Vector2<T>| {
            if exit.is_none_or(|(best, _)| t > best) {
                exit = Some((t, normal));
            }
        };
        for i in 0..n {
            let v = vertices[i];
            let e = vertices[if i + 1 == n { 0 } else { i + 1 }] - v;
            let normal = normals[i];
            let ov = o - v;
            let dn = normal.dot(d);
            if dn != T::zero() {
                let t = (r - normal.dot(&ov)) / dn;
                let along = (ov + d * t).dot(&e);
                if along >= T::zero() && along <= e.norm_squared() {
                    if dn < T::zero() {
                        enter(t, normal);
                    } else {
                        leave(t, normal);
                    }
                }
            }
            if let Some((t0, t1)) = ball_roots(&ov, d, r, false) {
                enter(t0, ov + d * t0);
                leave(t1, ov + d * t1);
            }
        }
        let (t_in, n_in) = entry?;
        // The entry itself if rounding lost every exit.
        let (t_out, n_out) = match exit {
            Some((t, n)) if t >= t_in => (t, n),
            _ => (t_in, n_in),
        };
        Some(Span {
            t_in,
            n_in,
            t_out,
            n_out,
        })
    }
}

impl<T: Real> Shape<T> for RoundedPolygon<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::ROUNDED_POLYGON
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::RoundedPolygon(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(self.core.vertices(), pose).loosened(self.radius)
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

impl<T: Real> RayCast<T> for RoundedPolygon<T> {
    /// The first hit (module notes): the least entry over the offset edges
    /// and the vertex circles.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Ray, RayCast, RoundedPolygon};
    /// let b = RoundedPolygon::rounded_box(Vector2::new(2.0, 1.0), 0.5).unwrap();
    /// let id = Isometry2::identity();
    /// // Down onto the flat top.
    /// let hit = b.cast_ray(&id, &Ray::new(Point2::new(0.0, 5.0), Vector2::new(0.0, -1.0)), 9.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (4.0, Point2::new(0.0, 1.0)));
    /// ```
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let s = ScaledRay::new(ray).inverse_transformed(pose);
        let inside = self.contains_local(&s.origin);
        let span = self.span(&s.origin, &s.dir);
        resolve(ray, &s, span, inside, max_toi, solid, pose)
    }
}

impl<T: Real> PointQuery<T> for RoundedPolygon<T> {
    /// The nearest point of the shape (of its boundary, hollow; module notes).
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
        let local = match unit_direction(&w) {
            Some(u) => c + u * self.radius,
            None => {
                // Inside the core: out along the nearest edge's normal.
                let vertices = self.core.vertices();
                let mut best = (T::infinity(), Vector2::y());
                for (v, n) in vertices.iter().zip(self.core.normals()) {
                    let s = n.dot(&(v - q));
                    if s < best.0 {
                        best = (s, *n);
                    }
                }
                q + best.1 * (best.0 + self.radius)
            }
        };
        PointProjection {
            point: pose * local,
            is_inside,
        }
    }
}

impl<T: Real> Convex<T> for RoundedPolygon<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let core = polygonal::support_point(self.core.vertices(), pose, dir);
        match unit_direction(dir) {
            Some(u) => core + u * self.radius,
            None => core,
        }
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        self.contains_local(&pose.inverse_transform_point(p))
    }
}

impl<T: Real> SupportSeparatingAxes<T> for RoundedPolygon<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let core = polygonal::project(self.core.vertices(), pose, axis);
        let r = self.radius * axis.norm();
        Interval::new(core.min - r, core.max + r)
    }
    /// The core's edge normals, and the directions from each core vertex to
    /// the other shape's nearest core point.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        for n in self.core.normals() {
            axis(pose.rotation * n);
        }
        for v in self.core.vertices() {
            let v = pose * v;
            axis(other.nearest_core_point(other_pose, &v) - v);
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
    use num_traits::Float;

    fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }
    fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
        Vector2::new(T::lit(x), T::lit(y))
    }

    fn known_values<T: Real>() {
        // Outer half extents (2, 1), radius 0.5: core (±1.5, ±0.5).
        let b = RoundedPolygon::rounded_box(v(2.0, 1.0), T::half()).unwrap();
        let id = Isometry2::identity();
        let tol = test_tolerance::<T>(T::lit(10.0));
        let bb = b.bounding_box(&id);
        assert_eq!((bb.min, bb.max), (p(-2.0, -1.0), p(2.0, 1.0)));
        // Turned a quarter about (5, 5): the box stands up.
        let pose = Isometry2::new(v(5.0, 5.0), T::frac_pi_2());
        let bb = b.bounding_box(&pose);
        assert!((bb.min - p(4.0, 3.0)).norm() < tol);
        assert!((bb.max - p(6.0, 7.0)).norm() < tol);
        // Support points: straight up is the first of the core's top
        // corners (vertex 2, counter-clockwise from the bottom left) plus
        // r; diagonally, on the corner's arc.
        assert_eq!(b.support_point(&id, &v(0.0, 3.0)), p(1.5, 1.0));
        let s = b.support_point(&id, &v(1.0, 1.0));
        let h = Float::sqrt(T::half()) * T::half();
        assert!((s - Point2::new(T::lit(1.5) + h, T::half() + h)).norm() < tol);
        assert!(b.contains_point(&id, &p(2.0, 0.0)));
        assert!(b.contains_point(&id, &p(1.5, 1.0)));
        // Just outside the corner's arc, inside the box's square corner.
        assert!(!b.contains_point(&id, &p(1.9, 0.9)));
        let i = b.project(&id, &Vector2::x());
        assert_eq!((i.min, i.max), (T::lit(-2.0), T::lit(2.0)));
        assert_eq!(b.nearest_core_point(&id, &p(1.0, 4.0)), p(1.0, 0.5));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let b = RoundedPolygon::rounded_box(v(2.0, 1.0), T::one() / T::two()).unwrap();
        let big = RoundedPolygon::rounded_box(v(6.0, 6.0), T::lit(5.0)).unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        let tol = test_tolerance::<T>(T::lit(10.0));
        // Onto the flat top.
        let h = b
            .cast_ray(&id, &Ray::new(p(0.0, 5.0), v(0.0, -2.0)), inf, true)
            .unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(0.0, 1.0), v(0.0, 1.0))
        );
        // Onto a rounded corner: core corner (1, 1) of `big`, radius 5, a
        // 3-4-5 point (1 + 3, 1 + 4) = (4, 5) hit from the right along −x.
        let h = big
            .cast_ray(&id, &Ray::new(p(10.0, 5.0), v(-1.0, 0.0)), inf, true)
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(6.0)) < tol, "{h:?}");
        assert!((h.point - p(4.0, 5.0)).norm() < tol);
        assert!((h.normal.into_inner() - v(0.6, 0.8)).norm() < tol);
        // Hollow from inside: leaves through the left flat side.
        let h = b
            .cast_ray(&id, &Ray::new(p(0.0, 0.0), v(-1.0, 0.0)), inf, false)
            .unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(-2.0, 0.0), v(1.0, 0.0))
        );
        // Solid from inside: at the origin.
        let h = b
            .cast_ray(&id, &Ray::new(p(0.5, 0.0), v(1.0, 0.0)), inf, true)
            .unwrap();
        assert_eq!(h.toi, T::zero());
        // Misses: through the square box's corner (2, 1), outside the arc
        // (the line x + 2y = 4 passes 1.5/√5 > 0.5 from the core corner),
        // and behind.
        assert!(
            b.cast_ray(&id, &Ray::new(p(0.0, 2.0), v(2.0, -1.0)), inf, true)
                .is_none()
        );
        assert!(
            b.cast_ray(&id, &Ray::new(p(0.0, 5.0), v(0.0, 1.0)), inf, true)
                .is_none()
        );
        // Far from the origin: the same corner hit, the pose carrying it.
        let far = Isometry2::translation(T::lit(1e6), T::lit(-1e6));
        let h = big
            .cast_ray(
                &far,
                &Ray::new(p(1e6 + 10.0, -1e6 + 5.0), v(-1.0, 0.0)),
                inf,
                true,
            )
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(6.0)) < T::lit(1e6) * tol, "{h:?}");
        // Projections: onto the top, onto the corner arc, inside.
        let pr = b.project_point(&id, &p(1.0, 9.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 1.0), false));
        let pr = big.project_point(&id, &p(7.0, 9.0), true);
        assert!((pr.point - p(4.0, 5.0)).norm() < tol && !pr.is_inside);
        let pr = b.project_point(&id, &p(0.5, 0.25), true);
        assert_eq!((pr.point, pr.is_inside), (p(0.5, 0.25), true));
        // Hollow, inside the core: the nearest flat side (the top, 0.75 away).
        let pr = b.project_point(&id, &p(0.5, 0.25), false);
        assert_eq!((pr.point, pr.is_inside), (p(0.5, 1.0), true));
        // Hollow, in the rim outside the core: pushed out from the core.
        let pr = b.project_point(&id, &p(1.75, 0.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(2.0, 0.0), true));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        let tri = [p::<T>(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)];
        assert!(matches!(
            RoundedPolygon::new(&tri, T::zero()),
            Err(ShapeError::NonPositiveSize {
                field: "radius",
                ..
            })
        ));
        assert_eq!(
            RoundedPolygon::new(&tri, T::nan()),
            Err(ShapeError::NonFinite { field: "radius" })
        );
        assert_eq!(
            RoundedPolygon::new(&tri[..2], T::one()),
            Err(ShapeError::TooFewVertices { count: 2, min: 3 })
        );
        assert!(matches!(
            RoundedPolygon::rounded_box(v::<T>(1.0, 0.5), T::half()),
            Err(ShapeError::RadiusTooLarge { .. })
        ));
        assert!(matches!(
            RoundedPolygon::rounded_box(v::<T>(1.0, 0.5), T::one()),
            Err(ShapeError::RadiusTooLarge { .. })
        ));
        assert!(matches!(
            RoundedPolygon::rounded_box(v::<T>(-1.0, 0.5), T::lit(0.1)),
            Err(ShapeError::NonPositiveSize {
                field: "half_extents.x",
                ..
            })
        ));
        assert_eq!(
            RoundedPolygon::rounded_box(v::<T>(1.0, 0.5), T::infinity()),
            Err(ShapeError::NonFinite { field: "radius" })
        );
        let sq = ConvexPolygon::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)]).unwrap();
        assert!(RoundedPolygon::from_polygon(sq.clone(), T::lit(-1.0)).is_err());
        assert_eq!(
            RoundedPolygon::from_polygon(sq, T::one()).unwrap().radius(),
            T::one()
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
