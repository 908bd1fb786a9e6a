//! A single point.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::check_finite_point;
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
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
