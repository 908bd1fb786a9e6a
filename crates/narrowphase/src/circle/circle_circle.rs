//! Circle against circle: squared distance of the centres against the squared
//! sum of radii, no square root on the boolean path (seed 003). The contact is
//! exact: normal along the centres, depth `rA + rB − |d|`. Coincident centres
//! push along `+x` of A's frame (documented fallback).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Circle, Real};

use crate::polygonal::length_and_direction;
use crate::{ClosestPoints, Contact};

/// Whether the two disks intersect.
///
/// ```
/// use nalgebra::Isometry2;
/// use narrowphase::circle::circle_circle;
/// let c = shape::Circle::new(1.0).unwrap();
/// assert!(circle_circle(&c, &c, &Isometry2::translation(2.0, 0.0))); // touching
/// assert!(!circle_circle(&c, &c, &Isometry2::translation(2.0, 0.01)));
/// ```
#[inline]
pub fn circle_circle<T: Real>(a: &Circle<T>, b: &Circle<T>, b_in_a: &Isometry2<T>) -> bool {
    let r = a.radius() + b.radius();
    b_in_a.translation.vector.norm_squared() <= r * r
}

/// The contact of two circles, in A's frame.
#[inline]
pub fn circle_circle_contact<T: Real>(
    a: &Circle<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let d = b_in_a.translation.vector;
    let r = a.radius() + b.radius();
    let d2 = d.norm_squared();
    if d2 > r * r {
        return None;
    }
    // Length and direction of the scaled vector: `d2` may be subnormal and
    // `√d2` too inexact to normalise with (centres 5e-22 apart in f32).
    let (len, n) = length_and_direction(d).unwrap_or((T::zero(), Vector2::x()));
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth: Float::max(r - len, T::zero()),
        point_a: Point2::from(n * a.radius()),
        point_b: Point2::from(d - n * b.radius()),
    })
}

/// The closest points of two circles within `max_distance`, in A's frame:
/// along the centres' line, at distance `|d| − rA − rB`. `Intersecting`
/// exactly when [`circle_circle`] says so (the same squared comparison).
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::{ClosestPoints, circle::circle_circle_closest_points};
/// use shape::Circle;
/// let (a, b) = (Circle::new(1.0).unwrap(), Circle::new(2.0).unwrap());
/// let m = Isometry2::translation(0.0, 5.0);
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, .. } =
///     circle_circle_closest_points(&a, &b, &m, 10.0) else { panic!() };
/// assert_eq!((distance, point_a, point_b), (2.0, Point2::new(0.0, 1.0), Point2::new(0.0, 3.0)));
/// ```
#[inline]
pub fn circle_circle_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let d = b_in_a.translation.vector;
    let r = a.radius() + b.radius();
    let d2 = d.norm_squared();
    if d2 <= r * r {
        return ClosestPoints::Intersecting;
    }
    // Apart: `d` is not zero. A normal square is exact to rounding (no
    // square overflowed, and one that underflowed is below `ε |d|²`): its
    // root is the length. Else the length from the scaled vector.
    let (len, n) = if d2 >= T::min_positive_value() && d2 <= <T as Float>::max_value() {
        let len = Float::sqrt(d2);
        (len, d / len)
    } else {
        length_and_direction(d).unwrap_or((T::zero(), Vector2::x()))
    };
    ClosestPoints::apart(
        Point2::from(n * a.radius()),
        Point2::from(d - n * b.radius()),
        Unit::new_unchecked(n),
        len - r,
        max_distance,
    )
}
