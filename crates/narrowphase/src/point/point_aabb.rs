//! Point against axis-aligned box: move the point into the box's frame, then
//! four comparisons. (The box ignores its own pose's rotation, but the point's
//! frame may be rotated, so `b_in_a` can carry a rotation.) The contact pushes
//! the box off along the axis of the nearest face.

use nalgebra::{Isometry2, Unit, Vector2};
use shape::{Aabb, Point, Real};

use crate::Contact;

/// Whether the point lies in the closed box.
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::point::point_aabb;
/// let b = shape::Aabb::new(Point2::new(0.0, 0.0), Point2::new(2.0, 1.0)).unwrap();
/// assert!(point_aabb(&shape::Point::origin(), &b, &Isometry2::identity())); // a corner
/// assert!(!point_aabb(&shape::Point::origin(), &b, &Isometry2::translation(0.5, 0.0)));
/// ```
#[inline]
pub fn point_aabb<T: Real>(a: &Point<T>, b: &Aabb<T>, b_in_a: &Isometry2<T>) -> bool {
    let q = b_in_a.inverse_transform_point(&a.position());
    let (lo, hi) = (b.min(), b.max());
    lo.x <= q.x && q.x <= hi.x && lo.y <= q.y && q.y <= hi.y
}

/// The contact of a point and an axis-aligned box, in the point's frame.
#[inline]
pub fn point_aabb_contact<T: Real>(
    a: &Point<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    if !point_aabb(a, b, b_in_a) {
        return None;
    }
    let p = a.position();
    let q = b_in_a.inverse_transform_point(&p);
    let (lo, hi) = (b.min(), b.max());
    // Distances to the four faces; the box moves away from the nearest one's side.
    let candidates = [
        (q.x - lo.x, Vector2::new(T::one(), T::zero())),
        (hi.x - q.x, Vector2::new(-T::one(), T::zero())),
        (q.y - lo.y, Vector2::new(T::zero(), T::one())),
        (hi.y - q.y, Vector2::new(T::zero(), -T::one())),
    ];
    let (depth, local) =
        candidates.iter().skip(1).fold(
            candidates[0],
            |best, c| if c.0 < best.0 { *c } else { best },
        );
    let n = b_in_a.rotation * local;
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: p,
        point_b: p - n * depth,
    })
}

/// The closest points of a `Point` and a `Aabb` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`point_aabb`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn point_aabb_closest_points<T: Real>(
    a: &Point<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if point_aabb(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}
