//! Axis-aligned box against axis-aligned box.
//!
//! Both boxes ignore rotation, so B's placement in A's frame is the translation
//! of `b_in_a` alone (its rotation is ignored).
//!
//! 1. Move B's corners into A's frame.
//! 2. Per axis, early out as soon as the intervals are apart (seed 003:
//!    separate in x or in y means no collision). Closed intervals: touching
//!    counts.
//! 3. For the contact, the overlap on each axis is a candidate push; the
//!    smaller one is the minimum translation (two boxes' Minkowski difference is
//!    a box, whose nearest face is on the axis of least overlap).
//!
//! 4. Closest points (apart): the nearest of the 8 corner clamps of
//!    `obb_obb.rs` (step 4 there), with both boxes unrotated.
//!
//! Exact: only additions, subtractions and comparisons of the inputs (the
//! closest points: but for the one square root of a corner–corner pair).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::{Aabb, Real};

use crate::Contact;

/// Whether the two boxes intersect.
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::sat::aabb_aabb;
/// let a = shape::Aabb::new(Point2::new(0.0, 0.0), Point2::new(1.0, 1.0)).unwrap();
/// assert!(aabb_aabb(&a, &a, &Isometry2::translation(1.0, 1.0))); // corners touch
/// assert!(!aabb_aabb(&a, &a, &Isometry2::translation(1.0, 1.5)));
/// ```
#[inline]
pub fn aabb_aabb<T: Real>(a: &Aabb<T>, b: &Aabb<T>, b_in_a: &Isometry2<T>) -> bool {
    let t = b_in_a.translation.vector;
    let (bmin, bmax) = (b.min() + t, b.max() + t);
    let (amin, amax) = (a.min(), a.max());
    !(bmin.x > amax.x || amin.x > bmax.x || bmin.y > amax.y || amin.y > bmax.y)
}

/// The contact of the two boxes in A's frame.
#[inline]
pub fn aabb_aabb_contact<T: Real>(
    a: &Aabb<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    if !aabb_aabb(a, b, b_in_a) {
        return None;
    }
    let t = b_in_a.translation.vector;
    let (bmin, bmax) = (b.min() + t, b.max() + t);
    let (amin, amax) = (a.min(), a.max());
    // Per axis: push B up by amax - bmin or down by bmax - amin.
    let axis = |i: usize| {
        let up = amax[i] - bmin[i];
        let down = bmax[i] - amin[i];
        if up <= down {
            (up, T::one())
        } else {
            (down, -T::one())
        }
    };
    let ((dx, sx), (dy, sy)) = (axis(0), axis(1));
    let (depth, n) = if dx <= dy {
        (dx, Vector2::new(sx, T::zero()))
    } else {
        (dy, Vector2::new(T::zero(), sy))
    };
    let support = |lo: Point2<T>, hi: Point2<T>, d: &Vector2<T>| {
        Point2::new(
            if d.x < T::zero() { lo.x } else { hi.x },
            if d.y < T::zero() { lo.y } else { hi.y },
        )
    };
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: support(amin, amax, &n),
        point_b: support(bmin, bmax, &-n),
    })
}

/// The closest points of two axis-aligned boxes within `max_distance`, in
/// A's frame: `Intersecting` exactly when [`aabb_aabb`] says so; apart, the
/// nearest corner clamp (module notes, step 4).
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::{ClosestPoints, sat::aabb_aabb_closest_points};
/// let a = shape::Aabb::new(Point2::new(0.0, 0.0), Point2::new(1.0, 1.0)).unwrap();
/// let cp = aabb_aabb_closest_points(&a, &a, &Isometry2::translation(3.0, 0.5), 10.0);
/// assert_eq!(cp.distance(), Some(2.0));
/// ```
#[inline]
pub fn aabb_aabb_closest_points<T: Real>(
    a: &Aabb<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if aabb_aabb(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        super::obb_obb::axis_boxes_closest(
            a.center(),
            a.half_extents(),
            b.center() + b_in_a.translation.vector,
            b.half_extents(),
            max_distance,
        )
    }
}
