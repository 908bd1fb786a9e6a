//! An ellipse that rotates with its pose.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{check_positive_vector, scaled_norm, unit_direction};
use crate::{BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind};

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
