//! Closest features of a box core and a segment core (a capsule or a segment
//! against a box, axis-aligned or oriented): the pair the general kernel's
//! search over every (vertex, edge) pair finds (`core.rs`,
//! `closest_core_features`), from six candidates in the box's own frame.
//!
//! # Why six candidates
//!
//! The closest pair of two convex polygons apart is one vertex's nearest
//! point on an edge of the other (Ericson, *Real-Time Collision Detection*,
//! §5.1.9; the same argument the general search rests on). In the box's
//! frame, where it is `[lo, hi]`:
//!
//! - a segment end `v` against the box's four edges: outside the box, its
//!   nearest point of the boundary is `v` clamped to `[lo, hi]`, exactly (no
//!   rounding at all), on an edge's interior when one coordinate is clamped
//!   and the other lies strictly inside its range, at a corner when both are
//!   clamped;
//! - each of the four corners against the segment: its nearest point, by the
//!   same `closest_point_on_segment` the general search calls.
//!
//! A segment end inside the closed box (the cores touch or overlap to
//! rounding: the boolean test found them apart along an axis, the search is
//! asked anyway) is handed back to the general search: its nearest boundary
//! point is not the clamp.
//!
//! # Two vertices
//!
//! As in the general search, a corner and a segment end are kept as the
//! closest pair only if neither projects strictly inside an edge of the other
//! that ends at the other: otherwise that edge's point is strictly nearer in
//! exact arithmetic, and rounding alone kept the two vertices (their squared
//! distances can agree to the last bit while the normal they give is far off
//! the edge's). The check is on the indices the candidates carry.
//!
//! Cost: two clamps and four point–segment feet, against up to twelve
//! point–segment feet with the placed vertices recomputed (capsule–cuboid
//! distance, f32: 1,469 instructions per query before).

use nalgebra::{Point2, Vector2};
use shape::Real;

use super::core::InsideEdge;

/// A candidate: the box's point, the segment's point, the edge holding one of
/// them strictly inside (`true`: the box's), the squared distance, and the
/// vertices when both points are vertices (corner index, segment end index).
type Candidate<T> = (
    Point2<T>,
    Point2<T>,
    Option<(Point2<T>, Vector2<T>, bool)>,
    T,
    Option<(usize, usize)>,
);

/// The box's corners, counter-clockwise from `lo` (the core's vertex order).
#[inline(always)]
fn corners<T: Real>(lo: &Point2<T>, hi: &Point2<T>) -> [Point2<T>; 4] {
    [*lo, Point2::new(hi.x, lo.y), *hi, Point2::new(lo.x, hi.y)]
}

/// The box edge (start, vector) from corner `k` to corner `k + 1`.
#[inline(always)]
fn edge<T: Real>(c: &[Point2<T>; 4], k: usize) -> (Point2<T>, Vector2<T>) {
    let next = if k == 3 { 0 } else { k + 1 };
    (c[k], c[next] - c[k])
}

/// Whether `x` lies strictly between `lo` and `hi`.
#[inline(always)]
fn strictly_within<T: Real>(x: T, lo: T, hi: T) -> bool {
    lo < x && x < hi
}

/// The closest features of the box `[lo, hi]` and the segment `[p0, p1]`,
/// all in the box's frame: `(point of the box, point of the segment, the
/// edge holding one of them strictly inside, flagged `true` when it is the
/// box's)`. `None` when a segment end lies in the closed box (the general
/// search answers then).
pub(crate) fn box_segment_features<T: Real>(
    lo: &Point2<T>,
    hi: &Point2<T>,
    p0: &Point2<T>,
    p1: &Point2<T>,
) -> Option<(Point2<T>, Point2<T>, InsideEdge<T>)> {
    let c = corners(lo, hi);
    let ends = [*p0, *p1];
    let mut best: Option<Candidate<T>> = None;
    let mut consider = |cand: Candidate<T>| {
        if best.as_ref().is_none_or(|b| cand.3 < b.3) {
            best = Some(cand);
        }
    };
    // The segment's ends against the box's boundary: the clamp.
    for (m, v) in ends.iter().enumerate() {
        let (in_x, in_y) = (
            strictly_within(v.x, lo.x, hi.x),
            strictly_within(v.y, lo.y, hi.y),
        );
        let q = Point2::new(
            num_traits::Float::min(num_traits::Float::max(v.x, lo.x), hi.x),
            num_traits::Float::min(num_traits::Float::max(v.y, lo.y), hi.y),
        );
        if q == *v || v.x.is_nan() || v.y.is_nan() {
            // In the closed box, or not a number: the general search.
            return None;
        }
        let d2 = (v - q).norm_squared();
        // Edges, counter-clockwise from lo: 0 bottom, 1 right, 2 top, 3 left.
        let (side, vertices) = if in_x {
            (Some(if v.y < lo.y { 0 } else { 2 }), None)
        } else if in_y {
            (Some(if v.x > hi.x { 1 } else { 3 }), None)
        } else {
            // Both clamped: a corner (which one, from the clamped sides).
            let k = match (q.x == hi.x, q.y == hi.y) {
                (false, false) => 0,
                (true, false) => 1,
                (true, true) => 2,
                (false, true) => 3,
            };
            (None, Some((k, m)))
        };
        let inside = side.map(|k| {
            let (e0, e) = edge(&c, k);
            (e0, e, true)
        });
        consider((q, *v, inside, d2, vertices));
    }
    // The corners against the segment.
    let e = p1 - p0;
    let ee = e.norm_squared();
    for (k, corner) in c.iter().enumerate() {
        let q = shape::dim2::closest_point_on_segment(p0, p1, corner);
        let d2 = (q - corner).norm_squared();
        let t = (corner - p0).dot(&e);
        let (inside, vertices) = if t > T::zero() && t < ee {
            (Some((*p0, e, false)), None)
        } else {
            (None, Some((k, usize::from(t >= ee))))
        };
        consider((*corner, q, inside, d2, vertices));
    }
    let (pa, pb, inside, _, vertices) = best?;
    let Some((k, m)) = vertices else {
        return Some((pa, pb, inside));
    };
    // Two vertices (module notes): the corner strictly inside the segment's
    // span, or the end strictly inside an edge at the corner, gives way to
    // that edge's point.
    let (corner, end) = (c[k], ends[m]);
    let t = (corner - p0).dot(&e);
    if t > T::zero() && t < ee {
        return Some((
            corner,
            shape::dim2::closest_point_on_segment(p0, p1, &corner),
            Some((*p0, e, false)),
        ));
    }
    // The edges at corner k: k (starting there) and k − 1 (ending there);
    // edges 0 and 2 are horizontal, 1 and 3 vertical.
    for side in [k, (k + 3) % 4] {
        let (e0, ev) = edge(&c, side);
        let horizontal = side % 2 == 0;
        let within = if horizontal {
            strictly_within(end.x, lo.x, hi.x)
        } else {
            strictly_within(end.y, lo.y, hi.y)
        };
        if within {
            let q = if horizontal {
                Point2::new(end.x, corner.y)
            } else {
                Point2::new(corner.x, end.y)
            };
            return Some((q, end, Some((e0, ev, true))));
        }
    }
    Some((corner, end, None))
}
