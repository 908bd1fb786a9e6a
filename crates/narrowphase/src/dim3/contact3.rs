//! The result of a 3D contact query: the 3D form of [`Contact`](crate::Contact).

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use shape::Real;

/// How two intersecting 3D shapes touch: the minimum translation and a point
/// on each shape.
///
/// `normal` is a unit vector pointing from A towards B; moving B by
/// `depth · normal` leaves the shapes touching and no shorter move separates
/// them. `point_a` is a point of A deepest along `normal`, `point_b` a point of
/// B deepest along `−normal`, so `point_a − point_b ≈ depth · normal`.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Unit, Vector3};
/// use narrowphase::dim3::Contact3;
/// let c = Contact3 {
///     normal: Unit::new_normalize(Vector3::new(1.0, 0.0, 0.0)),
///     depth: 0.5,
///     point_a: Point3::new(1.0, 0.0, 0.0),
///     point_b: Point3::new(0.5, 0.0, 0.0),
/// };
/// let f = c.flipped();
/// assert_eq!((f.normal.x, f.point_a.x, f.point_b.x), (-1.0, 0.5, 1.0));
/// let moved = c.transformed(&Isometry3::translation(0.0, 0.0, 2.0));
/// assert_eq!(moved.point_a, Point3::new(1.0, 0.0, 2.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact3<T: Real> {
    /// Unit normal from A to B.
    pub normal: Unit<Vector3<T>>,
    /// Penetration depth, `≥ 0` (zero when touching).
    pub depth: T,
    /// Contact point on A.
    pub point_a: Point3<T>,
    /// Contact point on B.
    pub point_b: Point3<T>,
}

impl<T: Real> Contact3<T> {
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
    pub fn transformed(&self, pose: &Isometry3<T>) -> Self {
        Self {
            normal: pose.rotation * self.normal,
            depth: self.depth,
            point_a: pose * self.point_a,
            point_b: pose * self.point_b,
        }
    }
}
