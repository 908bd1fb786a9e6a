//! An axis-aligned box that stays axis-aligned.
//!
//! Its queries ignore the pose's rotation and, like `contains_point`, compare
//! world coordinates with the world box `[min + t, max + t]` (`t` the pose's
//! translation), so a ray cast or projection and a containment test agree on
//! every point exactly.
//!
//! **Ray cast**: the slab method (`single::slab_entry` from outside,
//! `single::slab_span` from inside or along an axis): per axis, the times
//! `(min + t − o)/d` and `(max + t − o)/d` bound the line; an axis the ray
//! runs parallel to holds all of it or none (closed: a ray along a face's line
//! hits). The normal is the face whose bound is the binding one (the lower
//! axis at a corner). **Projection**: the clamp; a hollow query of a point
//! inside goes to the nearest face (`single::box_projection` for ties).

use core::any::Any;

use nalgebra::{Isometry2, Point2, Translation2, Unit, UnitComplex, Vector2};
use num_traits::Float;

use super::{check_finite_point, check_positive_vector, check_positive_width};
use crate::single::{ScaledRay, SlabEntry, box_projection, resolve, slab_entry, slab_span, within};
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A closed axis-aligned box `[min, max]` in local coordinates that stays
/// axis-aligned whatever the rotation of its pose: only the translation moves it
/// (tiles, triggers, the cheapest hit box of seed 003). For a box that turns
/// with its pose, use [`Obb`](crate::Obb).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb<T: Real> {
    min: Point2<T>,
    max: Point2<T>,
}

impl<T: Real> Aabb<T> {
    /// The box with corners `min` and `max`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::NonPositiveSize`] when `max` is not strictly greater than
    /// `min` on both axes.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{Aabb, ShapeError};
    /// let a = Aabb::new(Point2::new(0.0, 0.0), Point2::new(4.0, 2.0)).unwrap();
    /// assert_eq!(a.half_extents().x, 2.0);
    /// assert_eq!(
    ///     Aabb::new(Point2::new(0.0, 0.0), Point2::new(4.0, 0.0)),
    ///     Err(ShapeError::NonPositiveSize { field: "height (max.y - min.y)", value: 0.0 }),
    /// );
    /// ```
    pub fn new(min: Point2<T>, max: Point2<T>) -> Result<Self, ShapeError> {
        check_finite_point(&min, "min")?;
        check_finite_point(&max, "max")?;
        check_positive_width(max.x - min.x, "width (max.x - min.x)")?;
        check_positive_width(max.y - min.y, "height (max.y - min.y)")?;
        Ok(Self { min, max })
    }

    /// The box `[−h, h]` centred on the local origin.
    ///
    /// # Errors
    /// As [`Aabb::new`], for half extents that are not finite and positive
    /// (field `"half_extents.x"` or `".y"`), and [`ShapeError::NonFinite`] with
    /// the field of [`Aabb::new`] when the full width `2h` overflows.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use shape::Aabb;
    /// let a = Aabb::from_half_extents(Vector2::new(1.0f32, 3.0)).unwrap();
    /// assert_eq!(a.min().y, -3.0);
    /// ```
    pub fn from_half_extents(half_extents: Vector2<T>) -> Result<Self, ShapeError> {
        check_positive_vector(&half_extents, "half_extents.x", "half_extents.y")?;
        // The width 2h may still overflow; `new` reports that on its axis.
        Self::new(Point2::from(-half_extents), Point2::from(half_extents))
    }

    /// The corner with the smallest coordinates.
    #[must_use]
    pub fn min(&self) -> Point2<T> {
        self.min
    }

    /// The corner with the largest coordinates.
    #[must_use]
    pub fn max(&self) -> Point2<T> {
        self.max
    }

    /// The local centre.
    #[must_use]
    pub fn center(&self) -> Point2<T> {
        nalgebra::center(&self.min, &self.max)
    }

    /// Half the size along each axis.
    #[must_use]
    pub fn half_extents(&self) -> Vector2<T> {
        (self.max - self.min) * T::half()
    }

    /// The four corners placed at `pose` (rotation ignored), counter-clockwise
    /// from `min`.
    #[must_use]
    pub fn vertices(&self, pose: &Isometry2<T>) -> [Point2<T>; 4] {
        let t = pose.translation.vector;
        [
            self.min + t,
            Point2::new(self.max.x, self.min.y) + t,
            self.max + t,
            Point2::new(self.min.x, self.max.y) + t,
        ]
    }
}

impl<T: Real> Shape<T> for Aabb<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::AABB
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Aabb(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let t = pose.translation.vector;
        BoundingBox2::new(self.min + t, self.max + t)
    }
    /// Only the translation: the box does not turn.
    fn effective_pose(&self, pose: &Isometry2<T>) -> Isometry2<T> {
        Isometry2::from_parts(
            Translation2::from(pose.translation.vector),
            UnitComplex::identity(),
        )
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

impl<T: Real> RayCast<T> for Aabb<T> {
    /// The first hit (module notes); the pose's rotation is ignored.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Aabb, Ray, RayCast};
    /// let tile = Aabb::new(Point2::new(0.0, 0.0), Point2::new(2.0, 1.0)).unwrap();
    /// let pose = Isometry2::new(Vector2::new(10.0, 0.0), 0.7); // turned: ignored
    /// let ray = Ray::new(Point2::new(0.0, 0.5), Vector2::new(4.0, 0.0));
    /// let hit = tile.cast_ray(&pose, &ray, 100.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.point), (2.5, Point2::new(10.0, 0.5)));
    /// assert_eq!(hit.normal.into_inner(), Vector2::new(-1.0, 0.0));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let b = self.bounding_box(pose);
        match slab_entry(&ray.origin, &ray.dir, &b.min, &b.max) {
            SlabEntry::At { t, axis, side } => {
                if !within(t, max_toi) {
                    return None;
                }
                let mut n = Vector2::zeros();
                n[axis] = side;
                Some(RayHit {
                    toi: t,
                    point: ray.origin + ray.dir * t,
                    normal: Unit::new_unchecked(n),
                })
            }
            SlabEntry::Miss => None,
            SlabEntry::Careful => {
                let s = ScaledRay::new(ray);
                let span = slab_span(&s.origin, &s.dir, &b.min, &b.max);
                let inside = span.is_some_and(|sp| sp.holds_origin());
                let frame = Isometry2::identity();
                resolve(ray, &s, span, inside, max_toi, solid, &frame)
            }
        }
    }
}

impl<T: Real> PointQuery<T> for Aabb<T> {
    /// The nearest point of the box (of its boundary, hollow); the pose's
    /// rotation is ignored.
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let b = self.bounding_box(pose);
        let (point, is_inside) = box_projection(p, &b.min, &b.max, solid);
        PointProjection { point, is_inside }
    }
}

impl<T: Real> Convex<T> for Aabb<T> {
    /// The corner on the side of `dir` on each axis (`max` on a zero component).
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let x = if dir.x < T::zero() {
            self.min.x
        } else {
            self.max.x
        };
        let y = if dir.y < T::zero() {
            self.min.y
        } else {
            self.max.y
        };
        Point2::new(x, y) + pose.translation.vector
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        self.bounding_box(pose).contains_point(p)
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Aabb<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let c = (self.center().coords + pose.translation.vector).dot(axis);
        let h = self.half_extents();
        let r = h.x * Float::abs(axis.x) + h.y * Float::abs(axis.y);
        Interval::new(c - r, c + r)
    }
    /// The two world axes (seed 003's per-axis test).
    fn candidate_axes(
        &self,
        _pose: &Isometry2<T>,
        _other: &dyn SupportSeparatingAxes<T>,
        _other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        axis(Vector2::x());
        axis(Vector2::y());
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        let b = self.bounding_box(pose);
        Point2::new(
            nalgebra::clamp(p.x, b.min.x, b.max.x),
            nalgebra::clamp(p.y, b.min.y, b.max.y),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    fn ignores_rotation<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let a = Aabb::new(p(-1.0, -2.0), p(3.0, 2.0)).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(10.0), T::lit(-5.0)), T::lit(0.9));
        let b = a.bounding_box(&pose);
        assert_eq!((b.min, b.max), (p(9.0, -7.0), p(13.0, -3.0)));
        let e = a.effective_pose(&pose);
        assert_eq!(e.rotation, UnitComplex::identity());
        assert_eq!(e.translation, pose.translation);
        assert_eq!(
            a.support_point(&pose, &Vector2::new(-T::one(), T::one())),
            p(9.0, -3.0)
        );
        assert!(a.contains_point(&pose, &p(13.0, -7.0)));
        assert!(!a.contains_point(&pose, &p(13.5, -7.0)));
        let i = a.project(&pose, &Vector2::new(T::one(), T::one()));
        assert_eq!((i.min, i.max), (T::lit(2.0), T::lit(10.0)));
        assert_eq!(a.nearest_core_point(&pose, &p(0.0, 0.0)), p(9.0, -3.0));
        assert_eq!(a.vertices(&pose)[2], p(13.0, -3.0));
    }
    for_each_precision!(rotation, ignores_rotation);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let a = Aabb::new(p(-1.0, -2.0), p(3.0, 2.0)).unwrap();
        // At (10, −5), turned (ignored): the box [9, 13] × [−7, −3].
        let pose = Isometry2::new(v(10.0, -5.0), T::lit(0.9));
        let inf = T::infinity();
        let cast = |o: Point2<T>, d: Vector2<T>, solid: bool| {
            a.cast_ray(&pose, &Ray::new(o, d), inf, solid)
        };
        let h = cast(p(0.0, -4.0), v(3.0, 0.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(3.0), p(9.0, -4.0), v(-1.0, 0.0))
        );
        // Entering at the corner (13, −3): tie, the x face's normal.
        let h = cast(p(15.0, -1.0), v(-1.0, -1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(13.0, -3.0), v(1.0, 0.0))
        );
        // Touching the corner (13, −3) only: a single point, the y face's normal.
        let h = cast(p(11.0, -1.0), v(1.0, -1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(13.0, -3.0), v(0.0, 1.0))
        );
        assert!(cast(p(11.0, -0.5), v(1.0, -1.0), true).is_none());
        // Along the top face's line: closed, it hits the corner.
        let h = cast(p(5.0, -3.0), v(1.0, 0.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(9.0, -3.0)));
        // Inside: solid at the origin, hollow at the exit, inward normal.
        let h = cast(p(10.0, -4.0), v(0.0, 0.5), false).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(10.0, -3.0), v(0.0, -1.0))
        );
        assert_eq!(
            cast(p(10.0, -4.0), v(0.0, 0.5), true).unwrap().toi,
            T::zero()
        );
        // On a face pointing out: solid 0, hollow 0 (it leaves at once).
        assert_eq!(
            cast(p(9.0, -4.0), v(-1.0, 0.0), false).unwrap().toi,
            T::zero()
        );
        // On a face pointing in: hollow goes to the far face.
        let h = cast(p(9.0, -4.0), v(1.0, 0.0), false).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(13.0, -4.0)));
        // Projections (the rotation ignored).
        let pr = a.project_point(&pose, &p(20.0, 0.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(13.0, -3.0), false));
        let pr = a.project_point(&pose, &p(10.0, -3.5), false);
        assert_eq!((pr.point, pr.is_inside), (p(10.0, -3.0), true));
        let pr = a.project_point(&pose, &p(10.0, -3.5), true);
        assert_eq!((pr.point, pr.is_inside), (p(10.0, -3.5), true));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        let o = Point2::<T>::origin();
        let one = Point2::new(T::one(), T::one());
        assert!(matches!(
            Aabb::new(one, o),
            Err(ShapeError::NonPositiveSize { .. })
        ));
        assert!(matches!(
            Aabb::new(o, Point2::new(T::one(), T::nan())),
            Err(ShapeError::NonFinite { field: "max" })
        ));
        assert!(matches!(
            Aabb::from_half_extents(Vector2::new(T::one(), -T::one())),
            Err(ShapeError::NonPositiveSize {
                field: "half_extents.y",
                ..
            })
        ));
        // Corners beyond the largest local coordinate (their width would
        // overflow): too large.
        let huge = Aabb::new(
            Point2::new(-<T as Float>::max_value(), T::zero()),
            Point2::new(<T as Float>::max_value(), T::one()),
        );
        assert!(matches!(
            huge,
            Err(ShapeError::TooLarge { field: "min", .. })
        ));
        let limit = crate::tolerance::max_size::<T>();
        // Widths are sizes: up to the limit too.
        let half = limit * T::half();
        assert!(Aabb::new(Point2::new(-half, T::zero()), Point2::new(half, T::one())).is_ok());
    }
    for_each_precision!(rejects, rejects_bad_input);
}
