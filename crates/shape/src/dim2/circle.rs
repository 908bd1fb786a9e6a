//! A disk, centred on its local origin.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{check_positive, unit_direction};
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
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
