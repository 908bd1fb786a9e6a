//! An oriented box: a rectangle that turns with its pose.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};
use num_traits::Float;

use super::check_positive_vector;
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
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
