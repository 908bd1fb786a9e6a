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
//! 4. Closest points (apart, after the test): the closest pair of two
//!    disjoint convex polygons has a vertex of one of them, and a point's
//!    nearest point on a box is the clamp of its coordinates in the box's
//!    frame (Ericson §5.1.4). So each box's 4 corners are clamped into the
//!    other box (8 clamps) and the nearest corner–clamp pair is the answer.
//!    When the clamp changed one coordinate only, the corner faces a side:
//!    the direction is that side's normal and the distance the coordinate's
//!    excess, exact to rounding; when it changed both (corner against
//!    corner), the direction is the difference normalised from the scaled
//!    vector. No square root but that one, no separating-axis pass beyond
//!    the boolean's.
//!
//! Reference: Ericson, *Real-Time Collision Detection*, §4.4.1 (the 3D version).
//! Degenerate cases: concentric boxes push along `+L` of the first axis of least
//! overlap.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Aabb, Obb, Real};

use crate::{ClosestPoints, Contact};

/// A box in A's frame: centre, half extents, unit axes.
#[derive(Clone, Copy)]
struct BoxFrame<T: Real> {
    c: Point2<T>,
    h: Vector2<T>,
    u: Vector2<T>,
    v: Vector2<T>,
}

impl<T: Real> BoxFrame<T> {
    #[inline(always)]
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

#[inline(always)]
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

// Always inlined, as the boolean kernels that call it: in the table's
// function for the pair the compiler otherwise keeps a call, and computes A's
// axes (x and y) as general vectors.
#[inline(always)]
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
#[inline(always)]
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
#[inline(always)]
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

/// The closest points of two boxes apart (step 4), in A's frame.
#[inline]
fn boxes_closest<T: Real>(f: &[BoxFrame<T>; 2], max_distance: T) -> ClosestPoints<T> {
    // (squared distance, corner, its clamp, the corner's box, the offset
    // from the clamp to the corner in the other box's frame)
    type Candidate<T> = (T, Point2<T>, Point2<T>, usize, Vector2<T>);
    let mut best: Option<Candidate<T>> = None;
    for k in 0..2 {
        let (c, o) = (&f[k], &f[1 - k]);
        for (sx, sy) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] {
            let (hx, hy) = (
                if sx < 0 { -c.h.x } else { c.h.x },
                if sy < 0 { -c.h.y } else { c.h.y },
            );
            let corner = c.c + c.u * hx + c.v * hy;
            let d = corner - o.c;
            let local = Vector2::new(d.dot(&o.u), d.dot(&o.v));
            let k2 = Vector2::new(
                nalgebra::clamp(local.x, -o.h.x, o.h.x),
                nalgebra::clamp(local.y, -o.h.y, o.h.y),
            );
            let off = local - k2;
            let d2 = off.norm_squared();
            if best.is_none_or(|b| d2 < b.0) {
                best = Some((d2, corner, o.c + o.u * k2.x + o.v * k2.y, k, off));
            }
        }
    }
    let Some((_, corner, clamp, k, off)) = best else {
        return ClosestPoints::Farther;
    };
    let o = &f[1 - k];
    // From the other box's surface towards the corner, in its frame, and the
    // distance.
    let sign = |v: T| if v < T::zero() { -T::one() } else { T::one() };
    let (local, d) = if off.y == T::zero() && off.x != T::zero() {
        (Vector2::new(sign(off.x), T::zero()), Float::abs(off.x))
    } else if off.x == T::zero() && off.y != T::zero() {
        (Vector2::new(T::zero(), sign(off.y)), Float::abs(off.y))
    } else {
        match crate::polygonal::length_and_direction(off) {
            Some((len, u)) => (u, len),
            // Touching by rounding: along the centres.
            None => (
                crate::polygonal::length_and_direction(f[k].c - o.c)
                    .map_or_else(Vector2::x, |(_, u)| u),
                T::zero(),
            ),
        }
    };
    let towards_corner = o.u * local.x + o.v * local.y;
    // A → B: towards the corner when the corner is B's, away when it is A's.
    let (n, point_a, point_b) = if k == 1 {
        (towards_corner, clamp, corner)
    } else {
        (-towards_corner, corner, clamp)
    };
    ClosestPoints::apart(point_a, point_b, Unit::new_unchecked(n), d, max_distance)
}

/// The closest points of two oriented boxes within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`obb_obb`] says so; apart, the
/// nearest of the 8 corner clamps (module notes, step 4).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::{ClosestPoints, sat::obb_obb_closest_points};
/// let b = shape::Obb::new(Vector2::new(1.0, 1.0)).unwrap();
/// // B's corner (−1, −1) lands at (4, 5): 3, 4 from A's corner (1, 1).
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, .. } =
///     obb_obb_closest_points(&b, &b, &Isometry2::translation(5.0, 6.0), 10.0) else { panic!() };
/// assert_eq!((distance, point_a, point_b), (5.0, Point2::new(1.0, 1.0), Point2::new(4.0, 5.0)));
/// ```
#[inline]
pub fn obb_obb_closest_points<T: Real>(
    a: &Obb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let f = frames(
        Point2::origin(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    );
    if boxes_intersect(&f) {
        ClosestPoints::Intersecting
    } else {
        boxes_closest(&f, max_distance)
    }
}

/// The closest points of an axis-aligned box and an oriented box within
/// `max_distance`, in A's frame: `Intersecting` exactly when [`aabb_obb`]
/// says so; apart, the nearest of the 8 corner clamps (module notes, step 4).
#[inline]
pub fn aabb_obb_closest_points<T: Real>(
    a: &Aabb<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let f = frames(
        a.center(),
        a.half_extents(),
        Point2::origin(),
        b.half_extents(),
        b_in_a,
    );
    if boxes_intersect(&f) {
        ClosestPoints::Intersecting
    } else {
        boxes_closest(&f, max_distance)
    }
}

/// The closest points of two boxes apart, given as centres, half extents
/// and B's rotation in A's frame (for `aabb_aabb`, which ignores rotation).
#[inline]
pub(crate) fn axis_boxes_closest<T: Real>(
    ca: Point2<T>,
    ha: Vector2<T>,
    cb: Point2<T>,
    hb: Vector2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let f = [
        BoxFrame {
            c: ca,
            h: ha,
            u: Vector2::x(),
            v: Vector2::y(),
        },
        BoxFrame {
            c: cb,
            h: hb,
            u: Vector2::x(),
            v: Vector2::y(),
        },
    ];
    boxes_closest(&f, max_distance)
}
