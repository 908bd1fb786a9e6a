//! Box against box, either of them rotated: the separating axis test over the
//! four edge directions (seed 000).
//!
//! In A's frame, box A is centred at `ca` (an `Aabb` may be off-centre) with
//! axes x and y; box B is centred at `cb` with axes `u`, `v` (the columns of
//! B's rotation relative to A).
//!
//! 1. For two rectangles, a line parallel to an edge of one of them separates
//!    them whenever anything does (seed 000), so the candidate axes are `x`,
//!    `y`, `u`, `v`.
//! 2. On an axis `L`, box A projects to `ca·L ± (hAx |x·L| + hAy |y·L|)` and B
//!    to `cb·L ± (hBx |u·L| + hBy |v·L|)`: the boxes are apart on `L` when
//!    `|(cb − ca)·L| > rA(L) + rB(L)`. The axes are unit vectors here, so the
//!    same numbers give the depth `rA + rB − |(cb − ca)·L|` without a square
//!    root (the boolean test would not need unit axes either).
//! 3. The minimum translation is along the axis of least overlap, from A
//!    towards B (`+L` when `(cb − ca)·L ≥ 0`).
//!
//! Reference: Ericson, *Real-Time Collision Detection*, §4.4.1 (the 3D version).
//! Degenerate cases: concentric boxes push along `+L` of the first axis of least
//! overlap.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Aabb, Obb, Real};

use crate::Contact;

/// A box in A's frame: centre, half extents, unit axes.
#[derive(Clone, Copy)]
struct BoxFrame<T: Real> {
    c: Point2<T>,
    h: Vector2<T>,
    u: Vector2<T>,
    v: Vector2<T>,
}

impl<T: Real> BoxFrame<T> {
    #[inline]
    fn radius(&self, l: &Vector2<T>) -> T {
        self.h.x * Float::abs(self.u.dot(l)) + self.h.y * Float::abs(self.v.dot(l))
    }
    #[inline]
    fn support(&self, d: &Vector2<T>) -> Point2<T> {
        let sx = if self.u.dot(d) < T::zero() {
            -self.h.x
        } else {
            self.h.x
        };
        let sy = if self.v.dot(d) < T::zero() {
            -self.h.y
        } else {
            self.h.y
        };
        self.c + self.u * sx + self.v * sy
    }
}

#[inline]
fn frames<T: Real>(
    ca: Point2<T>,
    ha: Vector2<T>,
    cb_local: Point2<T>,
    hb: Vector2<T>,
    b_in_a: &Isometry2<T>,
) -> [BoxFrame<T>; 2] {
    let a = BoxFrame {
        c: ca,
        h: ha,
        u: Vector2::x(),
        v: Vector2::y(),
    };
    let b = BoxFrame {
        c: b_in_a * cb_local,
        h: hb,
        u: b_in_a.rotation * Vector2::x(),
        v: b_in_a.rotation * Vector2::y(),
    };
    [a, b]
}

#[inline]
fn boxes_intersect<T: Real>(f: &[BoxFrame<T>; 2]) -> bool {
    let d = f[1].c - f[0].c;
    [f[0].u, f[0].v, f[1].u, f[1].v]
        .iter()
        .all(|l| Float::abs(d.dot(l)) <= f[0].radius(l) + f[1].radius(l))
}

#[inline]
fn boxes_contact<T: Real>(f: &[BoxFrame<T>; 2]) -> Option<Contact<T>> {
    let d = f[1].c - f[0].c;
    let mut best: Option<(T, Vector2<T>)> = None;
    for l in [f[0].u, f[0].v, f[1].u, f[1].v] {
        let s = d.dot(&l);
        let overlap = f[0].radius(&l) + f[1].radius(&l) - Float::abs(s);
        if overlap < T::zero() {
            return None;
        }
        let n = if s < T::zero() { -l } else { l };
        if best.is_none_or(|(o, _)| overlap < o) {
            best = Some((overlap, n));
        }
    }
    let (depth, n) = best?;
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: f[0].support(&n),
        point_b: f[1].support(&-n),
    })
}

/// Whether two oriented boxes intersect; `b_in_a` is B's pose in A's frame.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::sat::obb_obb;
/// // Seed 000: two 6 x 2 rectangles.
/// let r = shape::Obb::new(Vector2::new(3.0, 1.0)).unwrap();
/// assert!(obb_obb(&r, &r, &Isometry2::new(Vector2::new(6.0, 0.0), 0.0))); // touching
/// assert!(obb_obb(&r, &r, &Isometry2::new(Vector2::new(3.5, 2.0), 0.7)));
/// assert!(!obb_obb(&r, &r, &Isometry2::new(Vector2::new(0.0, 4.5), 0.2)));
/// ```
#[inline]
pub fn obb_obb<T: Real>(a: &Obb<T>, b: &Obb<T>, b_in_a: &Isometry2<T>) -> bool {
    boxes_intersect(&frames(
        Point2::origin(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    ))
}

/// The contact of two oriented boxes, in A's frame.
#[inline]
pub fn obb_obb_contact<T: Real>(
    a: &Obb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    boxes_contact(&frames(
        Point2::origin(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    ))
}

/// An axis-aligned box against an oriented box: the same test, with A's box
/// centred where the `Aabb` is.
#[inline]
pub fn aabb_obb<T: Real>(a: &Aabb<T>, b: &Obb<T>, b_in_a: &Isometry2<T>) -> bool {
    boxes_intersect(&frames(
        a.center(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    ))
}

/// The contact of an axis-aligned box and an oriented box, in A's frame.
#[inline]
pub fn aabb_obb_contact<T: Real>(
    a: &Aabb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    boxes_contact(&frames(
        a.center(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    ))
}

/// The closest points of a `Obb` and a `Obb` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`obb_obb`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn obb_obb_closest_points<T: Real>(
    a: &Obb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if obb_obb(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}

/// The closest points of a `Aabb` and a `Obb` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`aabb_obb`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn aabb_obb_closest_points<T: Real>(
    a: &Aabb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if aabb_obb(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}
