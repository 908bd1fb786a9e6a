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
//! 5. Closest points of `obb_obb` and `aabb_obb`: the first axis along which
//!    the boolean test's own numbers find the boxes apart (so `Intersecting`
//!    is exactly its answer) is a face of one box separating the other, whose
//!    corner lowest along the face's normal is found by the signs of two dot
//!    products; from there the descent of `sat/descent.rs` walks the
//!    boundary of the boxes' Minkowski difference to the closest features,
//!    the boxes seen as four-edge polygons (`BoxCore`). Step 4's eight
//!    clamps stay for `aabb_aabb`.
//!
//! Reference: Ericson, *Real-Time Collision Detection*, §4.4.1 (the 3D version).
//! Degenerate cases: concentric boxes push along `+L` of the first axis of least
//! overlap.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Aabb, Obb, Real};

use super::core::apart_from_face;
use super::descent::Face;
use crate::polygonal::Polygonal;
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

/// The contact of two boxes in A's frame (A's axes are `x` and `y`, as
/// [`frames`] builds them): the numbers of the general per-axis test
/// (`rA(L) + rB(L) − |d·L|` over `x, y, u, v`) with the dot products
/// against `x` and `y` written out. `x·w = 1·w.x + 0·w.y` is `w.x` up to
/// the sign of a zero, which only ever meets `|·|` or a `< 0` test here, so
/// the depth, the axis and the support points are the general form's
/// (equal numbers; a zero's sign may differ), without its multiplications
/// by 0 and 1. The boolean test keeps the general form: the two decide
/// alike, `rA + rB − |s| < 0` exactly when `|s| > rA + rB`.
#[inline]
fn boxes_contact<T: Real>(f: &[BoxFrame<T>; 2]) -> Option<Contact<T>> {
    let (a, b) = (&f[0], &f[1]);
    let d = b.c - a.c;
    let (u, v) = (b.u, b.v);
    let abs = |x: T| Float::abs(x);
    // Per axis: the signed offset of the centres along it and both radii.
    // x: rA = hAx·|x·x| + hAy·|y·x| = hAx; rB = hBx·|u·x| + hBy·|v·x|.
    let axes = [
        (d.x, a.h.x + (b.h.x * abs(u.x) + b.h.y * abs(v.x))),
        (d.y, a.h.y + (b.h.x * abs(u.y) + b.h.y * abs(v.y))),
        (
            d.dot(&u),
            (a.h.x * abs(u.x) + a.h.y * abs(u.y))
                + (b.h.x * abs(u.dot(&u)) + b.h.y * abs(v.dot(&u))),
        ),
        (
            d.dot(&v),
            (a.h.x * abs(v.x) + a.h.y * abs(v.y))
                + (b.h.x * abs(u.dot(&v)) + b.h.y * abs(v.dot(&v))),
        ),
    ];
    let mut best = (T::zero(), 0usize);
    for (k, &(s, reach)) in axes.iter().enumerate() {
        let overlap = reach - abs(s);
        if overlap < T::zero() {
            return None;
        }
        if k == 0 || overlap < best.0 {
            best = (overlap, k);
        }
    }
    let (depth, k) = best;
    let l = match k {
        0 => Vector2::x(),
        1 => Vector2::y(),
        2 => u,
        _ => v,
    };
    let n = if axes[k].0 < T::zero() { -l } else { l };
    // A's support along n: its corner on the side of each axis, `x·n` and
    // `y·n` being `n.x` and `n.y` (up to the sign of a zero, which `< 0`
    // does not see).
    let sx = if n.x < T::zero() { -a.h.x } else { a.h.x };
    let sy = if n.y < T::zero() { -a.h.y } else { a.h.y };
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: Point2::new(a.c.x + sx, a.c.y + sy),
        point_b: b.support(&-n),
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

/// A box as a four-edge polygon core for the descent of `sat/descent.rs`:
/// centre `c` and half extents `h` in the box's own frame, vertices
/// counter-clockwise from `(−x, −y)`, so that edge `i` (from vertex `i`) has
/// the outward normal `−y`, `+x`, `+y`, `−x`.
struct BoxCore<T: Real> {
    c: Point2<T>,
    h: Vector2<T>,
}

impl<T: Real> Polygonal<T> for BoxCore<T> {
    #[inline]
    fn core_vertex_count(&self) -> usize {
        4
    }
    #[inline]
    fn core_vertex(&self, i: usize) -> Point2<T> {
        let (x, y) = (self.h.x, self.h.y);
        self.c
            + match i {
                0 => Vector2::new(-x, -y),
                1 => Vector2::new(x, -y),
                2 => Vector2::new(x, y),
                _ => Vector2::new(-x, y),
            }
    }
    #[inline]
    fn core_axis_count(&self) -> usize {
        4
    }
    #[inline]
    fn core_axis(&self, i: usize) -> Vector2<T> {
        let (o, l) = (T::zero(), T::one());
        match i {
            0 => Vector2::new(o, -l),
            1 => Vector2::new(l, o),
            2 => Vector2::new(o, l),
            _ => Vector2::new(-l, o),
        }
    }
    #[inline]
    fn radius(&self) -> T {
        T::zero()
    }
    #[inline]
    fn has_edge_normals(&self) -> bool {
        true
    }
}

/// The index of a box corner by the signs of its coordinates (`BoxCore`'s
/// order), the corner lowest along a direction whose components along the
/// box's axes are `du`, `dv`.
#[inline]
fn lowest_corner<T: Real>(du: T, dv: T) -> usize {
    match (du > T::zero(), dv > T::zero()) {
        (true, true) => 0,
        (false, true) => 1,
        (false, false) => 2,
        (true, false) => 3,
    }
}

/// The first of the four axes along which the boxes are apart, as the
/// boolean test finds it (the same numbers as `boxes_intersect`: apart
/// exactly when it says so), as the separating face of one box with the
/// other's corner lowest along its outward normal (step 5 of the module
/// notes), and the gap along it.
#[inline]
fn separating_face<T: Real>(f: &[BoxFrame<T>; 2]) -> Option<(Face, T)> {
    let d = f[1].c - f[0].c;
    for (k, l) in [f[0].u, f[0].v, f[1].u, f[1].v].iter().enumerate() {
        let s = d.dot(l);
        let reach = f[0].radius(l) + f[1].radius(l);
        if Float::abs(s) <= reach {
            continue;
        }
        // The face's outward normal (A's frame) and the face's index.
        let up = s > T::zero();
        let face = if k < 2 {
            // A's faces ±x, ±y, facing B (`d·l > 0`: B on the + side).
            let n = if up { *l } else { -l };
            let i = match (k, up) {
                (0, true) => 1,
                (0, false) => 3,
                (_, true) => 2,
                (_, false) => 0,
            };
            Face::OfA {
                i,
                j: lowest_corner(n.dot(&f[1].u), n.dot(&f[1].v)),
            }
        } else {
            // B's faces ∓u, ∓v, facing A.
            let m = if up { -l } else { *l };
            let j = match (k, up) {
                (2, true) => 3,
                (2, false) => 1,
                (_, true) => 0,
                (_, false) => 2,
            };
            Face::OfB {
                i: lowest_corner(m.dot(&f[0].u), m.dot(&f[0].v)),
                j,
            }
        };
        return Some((face, Float::abs(s) - reach));
    }
    None
}

/// The closest points of two boxes that [`separating_face`] found apart
/// (step 5 of the module notes): the descent of `sat/descent.rs` on the two
/// boxes as four-edge polygons, A's at `ca`, B's centred in its frame.
#[inline]
fn boxes_apart<T: Real>(
    (ca, ha): (Point2<T>, Vector2<T>),
    hb: Vector2<T>,
    b_in_a: &Isometry2<T>,
    (face, gap): (Face, T),
    max_distance: T,
) -> ClosestPoints<T> {
    let a = BoxCore { c: ca, h: ha };
    let b = BoxCore {
        c: Point2::origin(),
        h: hb,
    };
    apart_from_face(&a, &b, b_in_a, (face, gap), max_distance)
}

/// The closest points of two oriented boxes within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`obb_obb`] says so; apart, the
/// descent from the separating face (module notes, step 5).
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
    match separating_face(&f) {
        None => ClosestPoints::Intersecting,
        Some(sep) => boxes_apart(
            (Point2::origin(), a.half_extents()),
            b.half_extents(),
            b_in_a,
            sep,
            max_distance,
        ),
    }
}

/// The closest points of an axis-aligned box and an oriented box within
/// `max_distance`, in A's frame: `Intersecting` exactly when [`aabb_obb`]
/// says so; apart, the descent from the separating face (module notes,
/// step 5).
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
    match separating_face(&f) {
        None => ClosestPoints::Intersecting,
        Some(sep) => boxes_apart(
            (a.center(), a.half_extents()),
            b.half_extents(),
            b_in_a,
            sep,
            max_distance,
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shape::testing::{cases, test_tolerance};

    /// The descent from the farthest face against the eight corner clamps
    /// (`boxes_closest`, step 4, an independent reference): the same
    /// decision as the boolean test, the same distance, the points on the
    /// boxes; for two boxes and for an axis-aligned box with an offset
    /// centre, at random poses and moved to touch to rounding.
    fn check<T: Real>(
        ha: [f64; 2],
        hb: [f64; 2],
        centre: [f64; 2],
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let v = |[x, y]: [f64; 2]| Vector2::new(T::lit(x), T::lit(y));
        let (a, b) = (Obb::new(v(ha)).unwrap(), Obb::new(v(hb)).unwrap());
        let lo = Point2::from(v(centre) - v(ha));
        let aabb = Aabb::new(lo, lo + v(ha) * T::two()).unwrap();
        let m = Isometry2::new(v([x, y]), T::lit(turn));
        let scale = 2.0 + x.abs() + y.abs() + centre[0].abs() + centre[1].abs();
        let tol = 4.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
        let one = |m: &Isometry2<T>, aligned: bool| -> Result<(), TestCaseError> {
            let (answer, hit, f) = if aligned {
                let f = frames(
                    aabb.center(),
                    aabb.half_extents(),
                    Point2::origin(),
                    b.half_extents(),
                    m,
                );
                (
                    aabb_obb_closest_points(&aabb, &b, m, T::infinity()),
                    aabb_obb(&aabb, &b, m),
                    f,
                )
            } else {
                let f = frames(
                    Point2::origin(),
                    a.half_extents(),
                    Point2::origin(),
                    b.half_extents(),
                    m,
                );
                (
                    obb_obb_closest_points(&a, &b, m, T::infinity()),
                    obb_obb(&a, &b, m),
                    f,
                )
            };
            prop_assert_eq!(matches!(answer, ClosestPoints::Intersecting), hit);
            if let ClosestPoints::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            } = answer
            {
                let ClosestPoints::WithinMargin {
                    distance: reference,
                    ..
                } = boxes_closest(&f, T::infinity())
                else {
                    return Err(TestCaseError::fail("the corner clamps found no pair"));
                };
                prop_assert!(
                    (distance - reference).as_f64().abs() <= tol,
                    "{distance:?} against {reference:?}"
                );
                prop_assert!(((point_b - point_a).norm() - distance).as_f64().abs() <= tol);
                prop_assert!(((point_b - point_a).dot(&normal) - distance).as_f64().abs() <= tol);
                // On the boxes: within each box, and at the distance.
                for (p, k) in [(point_a, 0), (point_b, 1)] {
                    let q = p - f[k].c;
                    let (u, w) = (q.dot(&f[k].u).as_f64().abs(), q.dot(&f[k].v).as_f64().abs());
                    let out = (u - f[k].h.x.as_f64()).max(w - f[k].h.y.as_f64());
                    prop_assert!(out.abs() <= tol, "point {p:?} {out:?} off box {k}");
                }
            }
            Ok(())
        };
        for aligned in [false, true] {
            one(&m, aligned)?;
            let answer = if aligned {
                aabb_obb_closest_points(&aabb, &b, &m, T::infinity())
            } else {
                obb_obb_closest_points(&a, &b, &m, T::infinity())
            };
            if let ClosestPoints::WithinMargin {
                normal, distance, ..
            } = answer
            {
                for k in [-2.0, 0.0, 2.0] {
                    let shift = distance + T::lit(k) * <T as Float>::epsilon() * T::lit(scale);
                    let touching = Isometry2::from_parts(
                        (m.translation.vector - normal.into_inner() * shift).into(),
                        m.rotation,
                    );
                    one(&touching, aligned)?;
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(256)))]

        #[test]
        fn descent_matches_the_corner_clamps(
            ha in [0.1f64..2.0, 0.1f64..2.0], hb in [0.1f64..2.0, 0.1f64..2.0], c in [-1.0f64..1.0, -1.0f64..1.0],
            x in -6.0f64..6.0, y in -6.0f64..6.0, turn in prop_oneof![-3.2f64..3.2, Just(0.0), Just(core::f64::consts::FRAC_PI_2)],
        ) {
            check::<f64>(ha, hb, c, (x, y, turn))?;
            check::<f32>(ha, hb, c, (x, y, turn))?;
        }
    }
}
