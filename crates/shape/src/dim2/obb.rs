//! An oriented box: a rectangle that turns with its pose.
//!
//! Its queries work in the box's frame (the point mapped by
//! `inverse_transform_point`, as `contains_point` maps it), where the box is
//! `[−h, h]`. **Ray cast**: the slab method (Ericson §5.3.3): from outside,
//! the entry alone in the direction's own units (`single::slab_entry`), its
//! normal the rotation's column of the face's axis; from inside, or for a
//! direction along a local axis, the whole span (`single::slab_span`). A ray
//! through a corner hits it, a ray along a face's line hits the face; at a
//! corner the normal is the local x face's. **Projection**:
//! the clamp to `[−h, h]`; a hollow query of a point inside goes to the
//! nearest face (`single::box_projection`).

use core::any::Any;

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;

use super::check_positive_vector;
use crate::single::{ScaledRay, SlabEntry, box_projection, resolve, slab_entry, slab_span, within};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A closed rectangle `[−hx, hx] × [−hy, hy]` centred on the local origin that
/// rotates with its pose: the rotated rectangle of seed 000 (a 6 × 2 rectangle is
/// `Obb::new(Vector2::new(3.0, 1.0))`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb<T: Real> {
    half_extents: Vector2<T>,
}

impl<T: Real> Obb<T> {
    /// A box with the given half extents.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] (field
    /// `"half_extents.x"` or `"half_extents.y"`) for a half extent that is not a
    /// finite positive number.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use shape::{Obb, ShapeError};
    /// let b = Obb::new(Vector2::new(3.0, 1.0)).unwrap();
    /// assert_eq!(b.half_extents(), Vector2::new(3.0, 1.0));
    /// assert!(matches!(
    ///     Obb::new(Vector2::new(3.0, -1.0)),
    ///     Err(ShapeError::NonPositiveSize { field: "half_extents.y", .. })
    /// ));
    /// ```
    pub fn new(half_extents: Vector2<T>) -> Result<Self, ShapeError> {
        check_positive_vector(&half_extents, "half_extents.x", "half_extents.y")?;
        Ok(Self { half_extents })
    }

    /// Half the size along each local axis.
    #[must_use]
    pub fn half_extents(&self) -> Vector2<T> {
        self.half_extents
    }

    /// The four corners placed at `pose`, counter-clockwise from `(−hx, −hy)`.
    #[must_use]
    pub fn vertices(&self, pose: &Isometry2<T>) -> [Point2<T>; 4] {
        let h = self.half_extents;
        [
            pose * Point2::new(-h.x, -h.y),
            pose * Point2::new(h.x, -h.y),
            pose * Point2::new(h.x, h.y),
            pose * Point2::new(-h.x, h.y),
        ]
    }

    /// The box's two unit edge normals (its local x and y axes) at `pose`.
    #[must_use]
    pub fn axes(&self, pose: &Isometry2<T>) -> [Vector2<T>; 2] {
        [pose.rotation * Vector2::x(), pose.rotation * Vector2::y()]
    }

    /// The local corner maximising `p · dir` for a local direction (`+h` on a zero
    /// component).
    #[must_use]
    pub fn local_support_point(&self, dir: &Vector2<T>) -> Point2<T> {
        let h = self.half_extents;
        Point2::new(
            if dir.x < T::zero() { -h.x } else { h.x },
            if dir.y < T::zero() { -h.y } else { h.y },
        )
    }
}

impl<T: Real> Shape<T> for Obb<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::OBB
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Obb(self))
    }
    /// Exact: the half widths of the rotated box are `|R| h`.
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let r = pose.rotation.to_rotation_matrix();
        let m = r.matrix();
        let h = self.half_extents;
        let w = Vector2::new(
            Float::abs(m[(0, 0)]) * h.x + Float::abs(m[(0, 1)]) * h.y,
            Float::abs(m[(1, 0)]) * h.x + Float::abs(m[(1, 1)]) * h.y,
        );
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c - w, c + w)
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

impl<T: Real> RayCast<T> for Obb<T> {
    /// The first hit (module notes).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Obb, Ray, RayCast};
    /// let b = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
    /// // Through the corner (−1, −1).
    /// let ray = Ray::new(Point2::new(-2.0, -3.0), Vector2::new(1.0, 2.0));
    /// let hit = b.cast_ray(&Isometry2::identity(), &ray, 10.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (1.0, Point2::new(-1.0, -1.0)));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let o = pose.inverse_transform_point(&ray.origin);
        let d = pose.inverse_transform_vector(&ray.dir);
        let h = Point2::from(self.half_extents);
        match slab_entry(&o, &d, &-h, &h) {
            SlabEntry::At { t, axis, side } => {
                if !within(t, max_toi) {
                    return None;
                }
                // The face's outward normal `side · e_axis`, turned: the
                // rotation's column, no product.
                let (c, s) = (pose.rotation.re, pose.rotation.im);
                let n = if axis == 0 {
                    Vector2::new(c, s)
                } else {
                    Vector2::new(-s, c)
                };
                Some(RayHit {
                    toi: t,
                    point: ray.origin + ray.dir * t,
                    normal: Unit::new_unchecked(n * side),
                })
            }
            SlabEntry::Miss => None,
            SlabEntry::Careful => self.cast_ray_careful(pose, ray, max_toi, solid),
        }
    }
}

impl<T: Real> Obb<T> {
    /// The ray cast from inside the box or with a direction along an axis:
    /// the whole span (`single::slab_span`) and `resolve`.
    #[cold]
    fn cast_ray_careful(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let s = ScaledRay::new(ray).inverse_transformed(pose);
        let h = Point2::from(self.half_extents);
        let span = slab_span(&s.origin, &s.dir, &-h, &h);
        let inside = span.is_some_and(|sp| sp.holds_origin());
        resolve(ray, &s, span, inside, max_toi, solid, pose)
    }
}

impl<T: Real> PointQuery<T> for Obb<T> {
    /// The nearest point of the box (of its boundary, hollow).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let q = pose.inverse_transform_point(p);
        let h = Point2::from(self.half_extents);
        let (point, is_inside) = box_projection(&q, &-h, &h, solid);
        PointProjection {
            // Itself exactly when it projects to itself.
            point: if point == q { *p } else { pose * point },
            is_inside,
        }
    }
}

impl<T: Real> Convex<T> for Obb<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        pose * self.local_support_point(&pose.rotation.inverse_transform_vector(dir))
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        Float::abs(q.x) <= self.half_extents.x && Float::abs(q.y) <= self.half_extents.y
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Obb<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let c = pose.translation.vector.dot(axis);
        let local = pose.rotation.inverse_transform_vector(axis);
        let r =
            self.half_extents.x * Float::abs(local.x) + self.half_extents.y * Float::abs(local.y);
        Interval::new(c - r, c + r)
    }
    /// The box's two edge normals (seed 000: for two rectangles, the four edge
    /// directions are the only candidates).
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        _other: &dyn SupportSeparatingAxes<T>,
        _other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let [u, v] = self.axes(pose);
        axis(u);
        axis(v);
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        let q = pose.inverse_transform_point(p);
        let h = self.half_extents;
        pose * Point2::new(
            nalgebra::clamp(q.x, -h.x, h.x),
            nalgebra::clamp(q.y, -h.y, h.y),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn known_values<T: Real>() {
        let tol = test_tolerance::<T>(T::lit(10.0));
        let b = Obb::new(Vector2::new(T::lit(3.0), T::one())).unwrap();
        // Seed 000's 6 x 2 rectangle at (0, 5), a quarter turn: 2 x 6.
        let pose = Isometry2::new(Vector2::new(T::zero(), T::lit(5.0)), T::frac_pi_2());
        let bb = b.bounding_box(&pose);
        assert!((bb.min - Point2::new(-T::one(), T::two())).norm() < tol);
        assert!((bb.max - Point2::new(T::one(), T::lit(8.0))).norm() < tol);
        // An eighth of a turn: half widths (3 + 1) / √2 on both axes.
        let pose = Isometry2::new(Vector2::zeros(), T::frac_pi_4());
        let w = T::lit(4.0) / Float::sqrt(T::two());
        let bb = b.bounding_box(&pose);
        assert!(Float::abs(bb.max.x - w) < tol && Float::abs(bb.max.y - w) < tol);
        // The support point in +x is a corner, and its x is the box's half width.
        let s = b.support_point(&pose, &Vector2::x());
        assert!(Float::abs(s.x - w) < tol);
        let i = b.project(&pose, &Vector2::x());
        assert!(Float::abs(i.max - w) < tol && Float::abs(i.min + w) < tol);
        let id = Isometry2::identity();
        assert!(b.contains_point(&id, &Point2::new(T::lit(3.0), -T::one())));
        assert!(!b.contains_point(&id, &Point2::new(T::lit(3.0) + tol, T::zero())));
        let v = b.vertices(&id);
        assert_eq!(v[0], Point2::new(T::lit(-3.0), -T::one()));
        assert_eq!(v[2], Point2::new(T::lit(3.0), T::one()));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let b = Obb::new(v(2.0, 1.0)).unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        let cast =
            |o: Point2<T>, d: Vector2<T>, solid: bool| b.cast_ray(&id, &Ray::new(o, d), inf, solid);
        // Into the corner (2, 1) along (−1, −2)... from (3, 3): enters there.
        let h = cast(p(3.0, 3.0), v(-1.0, -2.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::one(), p(2.0, 1.0)));
        assert_eq!(h.normal.into_inner(), v(1.0, 0.0));
        // Grazing the corner (−2, 1) only.
        let h = cast(p(-3.0, 0.0), v(1.0, 1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::one(), p(-2.0, 1.0), v(-1.0, 0.0))
        );
        assert!(cast(p(-3.0, 0.125), v(1.0, 1.0), true).is_none());
        // Along the bottom face: it hits at the corner (−2, −1).
        let h = cast(p(-6.0, -1.0), v(2.0, 0.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(-2.0, -1.0)));
        // Along the bottom face starting at its corner, hollow: leaves at the far corner.
        let h = cast(p(-2.0, -1.0), v(1.0, 0.0), false).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(4.0), p(2.0, -1.0), v(-1.0, 0.0))
        );
        // Inside, solid and hollow.
        let h = cast(p(0.0, 0.0), v(0.0, 3.0), true).unwrap();
        assert_eq!((h.toi, h.normal.into_inner()), (T::zero(), v(0.0, -1.0)));
        let h = cast(p(0.0, 0.0), v(0.0, 4.0), false).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(0.25), p(0.0, 1.0), v(0.0, -1.0))
        );
        // Turned a quarter at (5, 0): the box is 2 wide in x, 4 tall in y.
        let pose = Isometry2::new(v(5.0, 0.0), T::frac_pi_2());
        let h = b
            .cast_ray(&pose, &Ray::new(p(0.0, 0.5), v(1.0, 0.0)), inf, true)
            .unwrap();
        let tol = T::lit(1e-5);
        assert!(Float::abs(h.toi - T::lit(4.0)) < tol);
        assert!((h.normal.into_inner() - v(-1.0, 0.0)).norm() < tol);
        // Projections: outside to a corner, hollow inside to the nearest face.
        let pr = b.project_point(&id, &p(5.0, 5.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(2.0, 1.0), false));
        let pr = b.project_point(&id, &p(1.5, 0.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(2.0, 0.0), true));
        let pr = b.project_point(&id, &p(1.5, 0.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.5, 0.0), true));
        // The centre: the y faces are nearer (1 < 2); +y wins the tie.
        assert_eq!(b.project_point(&id, &p(0.0, 0.0), false).point, p(0.0, 1.0));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        for (h, field) in [
            (Vector2::new(T::zero(), T::one()), "half_extents.x"),
            (Vector2::new(T::one(), -T::one()), "half_extents.y"),
        ] {
            assert_eq!(
                Obb::new(h),
                Err(ShapeError::NonPositiveSize {
                    field,
                    value: h[(field.ends_with('y')) as usize].as_f64()
                })
            );
        }
        assert_eq!(
            Obb::new(Vector2::new(T::infinity(), T::one())),
            Err(ShapeError::NonFinite {
                field: "half_extents.x"
            })
        );
        assert_eq!(
            Obb::new(Vector2::new(T::one(), T::nan())),
            Err(ShapeError::NonFinite {
                field: "half_extents.y"
            })
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
