//! Cuboid against an [`Aabb3`]: [`cuboid_cuboid`](super::cuboid_cuboid)'s
//! 15-axis test with B's box centred where the `Aabb3` is in its local frame.
//!
//! 1. The dispatch table hands over the `Aabb3`'s *effective* pose
//!    (translation only), so `b_in_a`'s rotation is the inverse of the cuboid's:
//!    B's axes in A's frame are its columns, as for any box.
//! 2. B's centre is `b_in_a · center`; then the separating-axis test, the
//!    axis of least overlap and the contact points are `cuboid_cuboid`'s, and
//!    so is the fast path when the cuboid is not rotated.
//!
//! Reference: Ericson, *Real-Time Collision Detection*, §4.4.1. Degenerate
//! cases: as `cuboid_cuboid` (first axis of least overlap, `+L` on a tie).

use nalgebra::{Isometry3, Point3};
use shape::{Aabb3, Cuboid, Real};

use super::cuboid_cuboid::{boxes_closest_points, boxes_contact, boxes_intersect, frames};
use super::{ClosestPoints3, Contact3};

/// Whether the relative rotation is exactly the identity.
#[inline]
fn aligned<T: Real>(b_in_a: &Isometry3<T>) -> bool {
    let q = b_in_a.rotation.quaternion();
    q.i == T::zero() && q.j == T::zero() && q.k == T::zero()
}

/// Whether a cuboid and an axis-aligned box intersect.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::cuboid_aabb3;
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// let floor = shape::Aabb3::new(Point3::new(-5.0, -5.0, -1.0), Point3::new(5.0, 5.0, 0.0)).unwrap();
/// // A cube balanced on a corner reaches √3/2 below its centre.
/// let corner = Isometry3::new(Vector3::zeros(), Vector3::new(0.9553166181245093, 0.0, 0.0))
///     * Isometry3::new(Vector3::zeros(), Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_4));
/// assert!(cuboid_aabb3(&cube, &floor, &(corner.inverse() * Isometry3::translation(0.0, 0.0, -0.86))));
/// assert!(!cuboid_aabb3(&cube, &floor, &(corner.inverse() * Isometry3::translation(0.0, 0.0, -0.87))));
/// ```
#[inline]
pub fn cuboid_aabb3<T: Real>(a: &Cuboid<T>, b: &Aabb3<T>, b_in_a: &Isometry3<T>) -> bool {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        b.center(),
        b.half_extents(),
        b_in_a,
    );
    boxes_intersect(&f, aligned(b_in_a))
}

/// The contact of a cuboid and an axis-aligned box, in the cuboid's frame.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::cuboid_aabb3_contact;
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// let floor = shape::Aabb3::new(Point3::new(-5.0, -5.0, -1.0), Point3::new(5.0, 5.0, 0.0)).unwrap();
/// // The cube's centre 0.25 above the floor: it sinks 0.25 into it.
/// let c = cuboid_aabb3_contact(&cube, &floor, &Isometry3::translation(0.0, 0.0, -0.25)).unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.25, -Vector3::z()));
/// ```
#[inline]
pub fn cuboid_aabb3_contact<T: Real>(
    a: &Cuboid<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        b.center(),
        b.half_extents(),
        b_in_a,
    );
    boxes_contact(&f, aligned(b_in_a))
}

/// The closest points of a cuboid and an axis-aligned box within
/// `max_distance`, in the cuboid's frame; `Intersecting` exactly when
/// [`cuboid_aabb3`] says so.
#[inline]
pub fn cuboid_aabb3_closest_points<T: Real>(
    a: &Cuboid<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        b.center(),
        b.half_extents(),
        b_in_a,
    );
    boxes_closest_points(&f, aligned(b_in_a), max_distance)
}
