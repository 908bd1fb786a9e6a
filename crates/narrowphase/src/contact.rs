//! The result of a contact query.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::Real;

/// How two intersecting shapes touch: the minimum translation and a point on
/// each shape.
///
/// `normal` is a unit vector pointing from A towards B; moving B by
/// `depth · normal` leaves the shapes touching and no shorter move separates
/// them. `point_a` is the point of A deepest along `normal`, `point_b` the point
/// of B deepest along `−normal`, so `(point_a − point_b) · normal = depth` (the
/// two points may differ along the contact plane, e.g. two boxes face to face).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact<T: Real> {
    /// Unit normal from A to B.
    pub normal: Unit<Vector2<T>>,
    /// Penetration depth, `≥ 0` (zero when touching).
    pub depth: T,
    /// Contact point on A.
    pub point_a: Point2<T>,
    /// Contact point on B.
    pub point_b: Point2<T>,
}

impl<T: Real> Contact<T> {
    /// The same contact seen from B: normal negated, points swapped.
    #[must_use]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            depth: self.depth,
            point_a: self.point_b,
            point_b: self.point_a,
        }
    }

    /// The contact mapped by `pose` (from a shape's local frame to the world).
    #[must_use]
    pub fn transformed(&self, pose: &Isometry2<T>) -> Self {
        Self {
            normal: pose.rotation * self.normal,
            depth: self.depth,
            point_a: pose * self.point_a,
            point_b: pose * self.point_b,
        }
    }
}
