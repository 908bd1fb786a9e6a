//! Point against circle: the squared distance to the centre against the squared
//! radius (no square root on the boolean path, seed 003). The contact pushes the
//! circle away from the point along centre − point; a point at the centre
//! pushes along `+x` of A's frame (documented fallback).

use nalgebra::{Isometry2, Unit, Vector2};
use num_traits::Float;
use shape::{Circle, Point, Real};

use crate::Contact;
use crate::polygonal::length_and_direction;

/// Whether the point lies in the closed disk.
///
/// ```
/// use nalgebra::Isometry2;
/// use narrowphase::point::point_circle;
/// let c = shape::Circle::new(5.0).unwrap();
/// assert!(point_circle(&shape::Point::origin(), &c, &Isometry2::translation(3.0, 4.0))); // on the rim
/// assert!(!point_circle(&shape::Point::origin(), &c, &Isometry2::translation(3.0, 4.1)));
/// ```
#[inline]
pub fn point_circle<T: Real>(a: &Point<T>, b: &Circle<T>, b_in_a: &Isometry2<T>) -> bool {
    let d = b_in_a.translation.vector - a.position().coords;
    d.norm_squared() <= b.radius() * b.radius()
}

/// The contact of a point and a circle, in the point's frame.
#[inline]
pub fn point_circle_contact<T: Real>(
    a: &Point<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let p = a.position();
    let d = b_in_a.translation.vector - p.coords;
    let d2 = d.norm_squared();
    let r = b.radius();
    if d2 > r * r {
        return None;
    }
    // Length and direction of the scaled vector (`d2` may be subnormal).
    let (len, n) = length_and_direction(d).unwrap_or((T::zero(), Vector2::x()));
    let depth = Float::max(r - len, T::zero());
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: p,
        point_b: p - n * depth,
    })
}

/// The closest points of a `Point` and a `Circle` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`point_circle`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn point_circle_closest_points<T: Real>(
    a: &Point<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if point_circle(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}
