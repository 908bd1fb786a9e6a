//! Shape casts of rounded cores: the first time a point comes within `r` of
//! a point ([`circle_toi`], a quadratic) or of a segment
//! ([`point_capsule_toi`]: a linear time on the offset sides, quadratics at
//! the ends), and from them every pair whose cores are both points or
//! segments with radii: circle–circle, point–circle, circle–capsule,
//! capsule–capsule, segment–circle, ... ([`rounded_core_cast`]). The corner
//! step of the polygonal sweep ([`sweep_cast`](super::polygonal::sweep_cast))
//! for a circle or a capsule against a shape with area is [`circle_toi`] too.
//!
//! **What it computes.** In A's frame, A at rest and B moving at `v`: the
//! first time `t ∈ [0, max_toi]` at which the distance of the cores reaches
//! `r = r_A + r_B`, the unit normal from A to B and the witness points.
//!
//! **Method.**
//! 1. A point `w + u·t` against a disk of radius `r` about the origin: the
//!    smaller root of `|w + u·t|² = r²`, written without cancellation: with
//!    `b = w·u < 0` (approaching), `a = u·u`, the miss distance `ρ = |w −
//!    u·(w·u)/a|` of the line and `c = (|w| − r)(|w| + r)`, the root is
//!    `t = c / (−b + √a·√((r − ρ)(r + ρ)))`: no difference of nearly equal
//!    squares for a grazing line (`ρ ≈ r`), none of `b² − ac` for a far one.
//! 2. A point against a segment grown by `r` (a capsule): the capsule is the
//!    union of the band `{|h| ≤ r, 0 ≤ along ≤ L}` and the two end disks, so
//!    its first entry is the earliest of theirs. Starting outside, the band
//!    is entered through a long side (entering it through an end means being
//!    in that end's disk already): the signed height `h(t) = h₀ + t·(n·u)`
//!    reaches `±r` at one linear time, a hit when the foot lies on the
//!    segment; and since the end disks lie inside the slab `|h| ≤ r`, that
//!    hit precedes theirs. Otherwise the earlier of the end disks' roots.
//! 3. Two cores that are points or segments: their distance, while they do
//!    not cross, is the least distance from an end point of one to the other
//!    core, so the first time it reaches `r` is the earliest over those (at
//!    most four) point–capsule times: B's end points moving at `v` against
//!    A's core, A's end points moving at `−v` against B's core at time 0.
//!    The start is decided first: crossing cores, or an end point within `r`
//!    of the other core, touch at time 0 (the pair's contact kernel then
//!    gives the normal, as in the advancement).
//!
//! **Why it is exact.** Every time is one closed form on the input
//! coordinates in A's frame: no iteration, no stopping tolerance; the
//! quadratic is evaluated in the cancellation-free form of step 1 (as
//! recommended by Goldberg, *What Every Computer Scientist Should Know About
//! Floating-Point Arithmetic*, 1991, for the roots of a quadratic).
//!
//! **References.** Ericson, *Real-Time Collision Detection* §5.3.2 (ray
//! against a sphere), §5.3.7 (against a capsule), §5.5.5 (moving spheres).

use core::cmp::Ordering;

use nalgebra::{Isometry2, Point2, SVector, Unit, Vector2};
use num_traits::Float;
use shape::Real;

use super::advance::initial_touch;
use super::polygonal::ContactKernel;
use super::{ShapeCastArgs, ShapeCastHit, ShapeCastStatus};
use crate::polygonal::{Polygonal, length_and_direction};

/// The first time `t ≥ 0` at which `|w + u·t| ≤ r`, for `w` outside the disk
/// (`|w| > r`); `None` when the line misses the disk or moves away from it.
/// Any dimension.
#[inline]
pub fn circle_toi<T: Real, const D: usize>(
    w: &SVector<T, D>,
    u: &SVector<T, D>,
    r: T,
) -> Option<T> {
    let b = w.dot(u);
    if b.partial_cmp(&T::zero()) != Some(Ordering::Less) {
        // Moving away, or no motion (or NaN).
        return None;
    }
    let a = u.norm_squared();
    if a.partial_cmp(&T::zero()) != Some(Ordering::Greater) {
        return None;
    }
    // The line's miss distance: the part of `w` across the motion.
    let rho = (w - u * (b / a)).norm();
    if rho > r {
        return None;
    }
    let lw = w.norm();
    let c = (lw - r) * (lw + r);
    let root = Float::sqrt(a) * Float::sqrt((r - rho) * (r + rho));
    Some(Float::max(c / (root - b), T::zero()))
}

/// The first time `t ≥ 0` at which the point `p + u·t` comes within `r` of
/// the segment `[s0, s1]` (a point when `s0 == s1`), for a point farther
/// than `r` at time 0, with the segment's point then closest.
#[inline]
pub fn point_capsule_toi<T: Real>(
    p: &Point2<T>,
    u: &Vector2<T>,
    s0: &Point2<T>,
    s1: &Point2<T>,
    r: T,
) -> Option<(T, Point2<T>)> {
    let w = p - s0;
    let e = s1 - s0;
    let Some((len, d)) = length_and_direction(e) else {
        return circle_toi(&w, u, r).map(|t| (t, *s0));
    };
    let n = Vector2::new(-d.y, d.x);
    let (h0, hv) = (n.dot(&w), n.dot(u));
    if Float::abs(h0) > r && h0 * hv < T::zero() {
        // The band's long side is reached first (step 2).
        let t = (Float::abs(h0) - r) / Float::abs(hv);
        let along = d.dot(&w) + t * d.dot(u);
        if along >= T::zero() && along <= len {
            return Some((t, s0 + d * along));
        }
    }
    let at_s0 = circle_toi(&w, u, r).map(|t| (t, *s0));
    let at_s1 = circle_toi(&(w - e), u, r).map(|t| (t, *s1));
    match (at_s0, at_s1) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// The squared distance from `p` to the segment `[s0, s1]` (a point when
/// `s0 == s1`).
#[inline]
fn point_segment_distance_squared<T: Real>(p: &Point2<T>, s0: &Point2<T>, s1: &Point2<T>) -> T {
    let e = s1 - s0;
    let w = p - s0;
    let ee = e.norm_squared();
    let along = w.dot(&e);
    if along <= T::zero() || ee.partial_cmp(&T::zero()) != Some(Ordering::Greater) {
        w.norm_squared()
    } else if along >= ee {
        (p - s1).norm_squared()
    } else {
        let cross = e.perp(&w);
        // `cross² / ee` for the height, `ee` the squared length.
        cross * (cross / ee)
    }
}

/// Whether the segments `[p0, p1]` and `[q0, q1]` cross at interior points
/// of both (strictly opposite orientations each way).
#[inline]
fn segments_cross<T: Real>(p0: &Point2<T>, p1: &Point2<T>, q0: &Point2<T>, q1: &Point2<T>) -> bool {
    let d = p1 - p0;
    let (s0, s1) = (d.perp(&(q0 - p0)), d.perp(&(q1 - p0)));
    let f = q1 - q0;
    let (s2, s3) = (f.perp(&(p0 - q0)), f.perp(&(p1 - q0)));
    s0 * s1 < T::zero() && s2 * s3 < T::zero()
}

/// The shape cast of two cores that are points or segments, grown by radii
/// with `r_A + r_B > 0` (see the [module documentation](self), step 3).
#[inline]
pub fn rounded_core_cast<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    contact: ContactKernel<A, B, T>,
) -> Option<ShapeCastHit<T>> {
    let v = args.vel_b;
    let (ra, rb) = (a.radius(), b.radius());
    let r = ra + rb;
    let a0 = a.core_vertex(0);
    let a1 = if a.core_vertex_count() >= 2 {
        a.core_vertex(1)
    } else {
        a0
    };
    let b0 = b_in_a * b.core_vertex(0);
    let b1 = if b.core_vertex_count() >= 2 {
        b_in_a * b.core_vertex(1)
    } else {
        b0
    };
    // Features: (moving point, its velocity, the other core, whether the
    // point is B's).
    let mut features = [(a0, v, a0, a0, true); 4];
    let count = if a.core_vertex_count() < 2 {
        features[0] = (a0, -v, b0, b1, false);
        1
    } else if b.core_vertex_count() < 2 {
        features[0] = (b0, v, a0, a1, true);
        1
    } else {
        features = [
            (b0, v, a0, a1, true),
            (b1, v, a0, a1, true),
            (a0, -v, b0, b1, false),
            (a1, -v, b0, b1, false),
        ];
        4
    };
    let r2 = r * r;
    let touching = features[..count]
        .iter()
        .any(|(p, _, s0, s1, _)| point_segment_distance_squared(p, s0, s1) <= r2)
        || (count == 4 && segments_cross(&a0, &a1, &b0, &b1));
    if touching {
        return initial_touch(
            contact(a, b, b_in_a).map(|k| (k.normal, k.point_a, k.point_b)),
            &v,
            args.options,
        );
    }
    let mut best: Option<(T, Point2<T>, usize)> = None;
    for (i, (p, u, s0, s1, _)) in features[..count].iter().enumerate() {
        if let Some((t, q)) = point_capsule_toi(p, u, s0, s1, r) {
            if best.is_none_or(|(bt, _, _)| t < bt) {
                best = Some((t, q, i));
            }
        }
    }
    let (t, q, i) = best?;
    if t > args.max_toi {
        return None;
    }
    let (p, u, _, _, from_b) = features[i];
    // Both cores' points in A's frame at the time of impact.
    let (core_a, core_b) = if from_b {
        (q, p + u * t)
    } else {
        (p, q + v * t)
    };
    let d = core_b - core_a;
    let n = length_and_direction(d).map_or_else(
        || Unit::try_new(-v, T::zero()).map_or(Vector2::x(), Unit::into_inner),
        |(_, n)| n,
    );
    Some(ShapeCastHit {
        toi: t,
        normal: Unit::new_unchecked(n),
        point_a: core_a + n * ra,
        point_b: core_b - n * rb,
        status: ShapeCastStatus::Hit,
    })
}

/// The shape cast of two circles: [`rounded_core_cast`] for two point cores
/// written out (one quadratic on the centres, [`circle_toi`]).
#[inline]
pub fn circle_circle_cast<T: Real>(
    a: &shape::Circle<T>,
    b: &shape::Circle<T>,
    b_in_a: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    contact: ContactKernel<shape::Circle<T>, shape::Circle<T>, T>,
) -> Option<ShapeCastHit<T>> {
    let (ra, rb) = (a.radius(), b.radius());
    let r = ra + rb;
    let c = b_in_a.translation.vector;
    let v = args.vel_b;
    // The same comparison as `circle_circle` (touching counts).
    if c.norm_squared() <= r * r {
        return initial_touch(
            contact(a, b, b_in_a).map(|k| (k.normal, k.point_a, k.point_b)),
            &v,
            args.options,
        );
    }
    let t = circle_toi(&c, &v, r)?;
    if t > args.max_toi {
        return None;
    }
    let d = c + v * t;
    let n = length_and_direction(d).map_or_else(
        || Unit::try_new(-v, T::zero()).map_or(Vector2::x(), Unit::into_inner),
        |(_, n)| n,
    );
    Some(ShapeCastHit {
        toi: t,
        normal: Unit::new_unchecked(n),
        point_a: Point2::from(n * ra),
        point_b: Point2::from(d - n * rb),
        status: ShapeCastStatus::Hit,
    })
}
