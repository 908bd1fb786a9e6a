//! Shape casts of polygonal cores by sweeping the separating-axis intervals:
//! every pair of point, segment, aabb, obb, triangle and convex polygon, and
//! (with the corner step of [`rounded`](super::rounded)) a circle or a
//! capsule against a shape with area.
//!
//! **What it computes.** In A's frame, A at rest and B moving at the
//! relative velocity `v`: the first time `t ∈ [0, max_toi]` at which the
//! cores of A and B, grown by the radii `r = r_A + r_B`, touch; the unit
//! normal from A to B then and a witness point on each shape.
//!
//! **Method.**
//! 1. For each candidate axis `n` (unit, A's frame) project both cores: A on
//!    `[a_lo, a_hi]`, B at time 0 on `[b_lo, b_hi]`; under the motion B's
//!    interval slides by `t·(n·v)`. The grown shapes overlap along `n` while
//!    `b_lo + t·s ≤ a_hi + r` and `b_hi + t·s ≥ a_lo − r` (`s = n·v`): a
//!    closed interval of times `[enter, exit]` (linear inequalities: one
//!    division each), the whole line when `s = 0` and the intervals overlap,
//!    empty when `s = 0` and they do not (no hit at all).
//! 2. The time of impact of the cores (`r = 0`) is the latest entry over the
//!    axes, when it is not after the earliest exit; the entering axis, signed
//!    towards B, is the normal. The sweep stops as soon as the running
//!    interval is empty, starts after `max_toi` or ends before 0.
//! 3. Witness points: at that time the two supporting faces (A's along the
//!    normal, B's against it) lie on parallel lines `r` apart; their spans
//!    along the tangent overlap (exactly, up to rounding, for `r = 0`), and
//!    the witness points are the middle of the overlap on each line.
//! 4. With radii (`r > 0`), step 2 gives the first time the cores' separating
//!    slabs grown by `r` all overlap: the entry into the polygon `P` bounded
//!    by the grown faces of the cores' Minkowski difference `K`, which
//!    contains `K ⊕ disk(r)`. If the supporting faces' spans overlap at that
//!    time, the entry point lies on a flat side of `K ⊕ disk(r)`: it is the
//!    hit. Otherwise it lies in the corner of `P` at a vertex `V` of `K` (a
//!    vertex of B minus a vertex of A, the faces' nearest ends), outside the
//!    arc of radius `r` about `V`; the part of that corner outside the arc
//!    is bounded by the arc and by `P`'s sides, so the motion reaches
//!    `K ⊕ disk(r)` exactly when it reaches the disk about `V`: a quadratic
//!    ([`circle_toi`]).
//!
//! **Why it is exact.** Under a translation the shapes touch exactly when the
//! line `t ↦ t·v` meets the Minkowski difference of the grown shapes, and a
//! convex polygon is the intersection of the slabs of its edge normals. The
//! edge normals of `K` are the cores' edge normals (a segment's normal for a
//! segment core); when both cores are points or segments, `K` is a segment
//! or a point, and the segments' directions (two coordinate axes for two
//! points) close the slabs. Each time comes from one subtraction of
//! projections and one division, in A's frame where B's projections are its
//! local projections plus one offset `n·c`: no iteration, no tolerance, the
//! error is the rounding of the inputs' coordinates, whatever the distance
//! travelled. When both cores are points or segments and `r > 0`, the
//! corner step does not hold (the extra axes are not edge normals of `K`);
//! those pairs use [`rounded_core_cast`](super::rounded::rounded_core_cast).
//!
//! **References.** The separating-axis test under translation: Gottschalk,
//! Lin and Manocha, *OBBTree* (1996) and Ericson, *Real-Time Collision
//! Detection* §5.5.8 (moving OBBs / AABBs); Eberly, *Intersection of Convex
//! Objects: The Method of Separating Axes* (2001), for the interval sweep.

use core::cmp::Ordering;

use nalgebra::{Isometry2, Point2, Unit, UnitComplex, Vector2};
use num_traits::Float;
use shape::Real;

use super::advance::initial_touch;
use super::rounded::circle_toi;
use super::{ShapeCastArgs, ShapeCastHit, ShapeCastStatus};
use crate::Contact;
use crate::polygonal::{Polygonal, length_and_direction, unit};
use crate::sat::lanes::{Axes, LANES};
use crate::sat::linear::SCAN_UP_TO;

/// The contact kernel of a pair (A's frame), for a start in contact.
pub type ContactKernel<A, B, T> = fn(&A, &B, &Isometry2<T>) -> Option<Contact<T>>;

/// The core's projection on `dir` (its local frame): `(min, max)`.
#[inline]
fn interval<T: Real, P: Polygonal<T>>(p: &P, dir: &Vector2<T>) -> (T, T) {
    p.core_interval(dir)
}

/// The least projection on `dir` of a strictly convex polygon's vertices
/// (counter-clockwise, with edge normals: the sweep of two polygons is its
/// only caller) and its index, climbing from vertex `start`: the
/// projections around a convex polygon fall then rise once, so stepping
/// along the edges that fall ends at the minimum. An edge falls along `dir`
/// when its stored unit normal says so (`nᵢ × dir < 0`), not when its ends'
/// projections do: a short edge rounds those to equal in the middle of a
/// falling run (see `sat/linear.rs`, `Extreme`). At most once round (NaN
/// stops at once).
#[inline]
fn climb_min<T: Real, P: Polygonal<T>>(p: &P, dir: &Vector2<T>, start: usize) -> (T, usize) {
    debug_assert!(p.has_edge_normals());
    let count = p.core_vertex_count();
    let next = |i: usize| if i + 1 == count { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { count - 1 } else { i - 1 };
    let falls = |i: usize| p.core_axis(i).perp(dir) < T::zero();
    let rises = |i: usize| p.core_axis(i).perp(dir) > T::zero();
    let mut k = if start < count { start } else { 0 };
    let forward = falls(k);
    for _ in 0..count {
        if forward && falls(k) {
            k = next(k);
        } else if !forward && rises(prev(k)) {
            k = prev(k);
        } else {
            break;
        }
    }
    (p.core_vertex(k).coords.dot(dir), k)
}

/// The span along `tau` of the core's vertices within `tol` of `level` along
/// `dir` (its supporting face there): `(min, max)` and the vertices at them.
#[inline]
fn face_span<T: Real, P: Polygonal<T>>(
    p: &P,
    dir: &Vector2<T>,
    level: T,
    tau: &Vector2<T>,
    tol: T,
) -> (T, T, Point2<T>, Point2<T>) {
    let mut lo = (T::infinity(), Point2::origin());
    let mut hi = (T::neg_infinity(), Point2::origin());
    for i in 0..p.core_vertex_count() {
        let x = p.core_vertex(i);
        if Float::abs(x.coords.dot(dir) - level) <= tol {
            let u = x.coords.dot(tau);
            if u < lo.0 {
                lo = (u, x);
            }
            if u > hi.0 {
                hi = (u, x);
            }
        }
    }
    if lo.0 > hi.0 {
        // No vertex within the tolerance (only with NaN input): any vertex.
        let x = p.core_vertex(0);
        let u = x.coords.dot(tau);
        return (u, u, x, x);
    }
    (lo.0, hi.0, lo.1, hi.1)
}

/// The entering axis of the sweep.
#[derive(Clone, Copy)]
struct Entry<T: Real> {
    /// The axis in A's frame.
    n: Vector2<T>,
    /// The axis in B's frame.
    n_b: Vector2<T>,
    /// Whether B enters from the `+n` side of A (the normal is `+n`).
    plus: bool,
    /// A's projection.
    a: (T, T),
    /// B's local projection (without the offset `n·c`).
    b: (T, T),
    /// `n·c`, `c` B's origin in A's frame.
    offset: T,
    /// `n·v`.
    s: T,
}

/// The running intersection of the axes' time intervals.
struct Sweep<T: Real> {
    v: Vector2<T>,
    radii: T,
    max_toi: T,
    enter: T,
    exit: T,
    entry: Option<Entry<T>>,
    /// The entering face of two polygons ([`Sweep::face`]) by its code
    /// ([`PolygonFaces::code`]; `usize::MAX` for none), and the other
    /// polygon's least projection on its normal.
    entering: usize,
    entering_low: T,
    /// The latest entry through an axis not parallel to the entering one,
    /// with its normal (towards B): the other side of a vertex of `K`.
    runner_up: Option<(T, Vector2<T>)>,
}

impl<T: Real> Sweep<T> {
    fn new(v: Vector2<T>, radii: T, max_toi: T) -> Self {
        Self {
            v,
            radii,
            max_toi,
            enter: T::neg_infinity(),
            exit: T::infinity(),
            entry: None,
            entering: usize::MAX,
            entering_low: T::zero(),
            runner_up: None,
        }
    }

    /// Narrows the interval by axis `n` (A's frame; `n_b` in B's frame);
    /// `false` when no hit remains possible.
    #[inline]
    fn axis<A: Polygonal<T>, B: Polygonal<T>>(
        &mut self,
        a: &A,
        b: &B,
        c: &Vector2<T>,
        n: Vector2<T>,
        n_b: Vector2<T>,
    ) -> bool {
        let (a_lo, a_hi) = interval(a, &n);
        let (lb, hb) = interval(b, &n_b);
        let offset = n.dot(c);
        let s = n.dot(&self.v);
        // Gap with B beyond A's `+n` side, and beyond its `−n` side.
        let gap_plus = (lb + offset) - a_hi - self.radii;
        let gap_minus = a_lo - (hb + offset) - self.radii;
        let (enter, exit, plus) = if s > T::zero() {
            (gap_minus / s, -gap_plus / s, false)
        } else if s < T::zero() {
            (gap_plus / -s, -gap_minus / -s, true)
        } else {
            // No motion along `n`: the intervals overlap for ever or never.
            return !(gap_plus > T::zero() || gap_minus > T::zero());
        };
        let signed = if plus { n } else { -n };
        if enter > self.enter {
            if let Some(e) = &self.entry {
                let previous = if e.plus { e.n } else { -e.n };
                if previous.perp(&signed) != T::zero() {
                    self.runner_up = Some((self.enter, previous));
                }
            }
            self.enter = enter;
            self.entry = Some(Entry {
                n,
                n_b,
                plus,
                a: (a_lo, a_hi),
                b: (lb, hb),
                offset,
                s,
            });
        } else if self.runner_up.is_none_or(|(t, _)| enter > t)
            && self
                .entry
                .as_ref()
                .is_some_and(|e| e.n.perp(&n) != T::zero())
        {
            self.runner_up = Some((enter, signed));
        }
        if exit < self.exit {
            self.exit = exit;
        }
        !(self.enter > self.exit || self.enter > self.max_toi || self.exit < T::zero())
    }

    /// Narrows the interval by up to [`LANES`] sides of the Minkowski
    /// difference (faces of one polygon, codes `first_code..`), side `q` met
    /// at `gap[q] / approach[q]` (see [`PolygonFaces::group_terms`]): entered
    /// then when `approach > 0`, left when `approach < 0`; `false` when no
    /// hit remains possible. Only the face is recorded: its [`Entry`] is
    /// rebuilt once, at the end. Lanes past the faces hold `gap ≤ 0` and
    /// `approach = 0`: neither an entry nor an exit.
    ///
    /// The lanes are independent until the running entry and exit, so the
    /// divisions and the selections between `t` and `∓∞` are vector
    /// instructions, and the sign of `approach`, which changes from face to
    /// face at random, is a mask rather than a branch. The latest entry and
    /// its face are selected in the faces' order (a later face wins only by
    /// a strictly later time, as face by face), again without a branch.
    /// The answer is the face-by-face sweep's: the entry only grows, the
    /// exit only shrinks and a face with no motion along its normal that is
    /// apart stays apart, so a hit ruled out by one face of the group stays
    /// ruled out by the group, and the end state is the same.
    #[inline(always)]
    fn faces(
        &mut self,
        gap: &[T; LANES],
        approach: &[T; LANES],
        low: &[T; LANES],
        first_code: usize,
    ) -> bool {
        let mut t_in = [T::neg_infinity(); LANES];
        let mut t_out = [T::infinity(); LANES];
        let mut never = false;
        for q in 0..LANES {
            let t = gap[q] / approach[q];
            // A NaN time (from numbers that overflowed) is neither, as face
            // by face, where it lost every comparison.
            t_in[q] = if (approach[q] > T::zero()) & (t >= T::neg_infinity()) {
                t
            } else {
                T::neg_infinity()
            };
            t_out[q] = if (approach[q] < T::zero()) & (t <= T::infinity()) {
                t
            } else {
                T::infinity()
            };
            // No motion along the normal: apart along it for ever, or never.
            never |= (approach[q] == T::zero()) & (gap[q] > T::zero());
        }
        // The group's latest entry and earliest exit by halving (lane-wise
        // selections, vector instructions); then, on a new latest entry
        // (a few times per cast), its first face in order, as face by face.
        const { assert!(LANES == 8) };
        let later = |x: T, y: T| if y > x { y } else { x };
        let earlier = |x: T, y: T| if y < x { y } else { x };
        let (mut hi, mut lo) = ([T::zero(); LANES / 2], [T::zero(); LANES / 2]);
        for q in 0..LANES / 2 {
            hi[q] = later(t_in[q], t_in[q + LANES / 2]);
            lo[q] = earlier(t_out[q], t_out[q + LANES / 2]);
        }
        let (hi, lo) = (
            later(later(hi[0], hi[2]), later(hi[1], hi[3])),
            earlier(earlier(lo[0], lo[2]), earlier(lo[1], lo[3])),
        );
        if hi > self.enter {
            if let Some(q) = t_in.iter().position(|t| *t == hi) {
                self.enter = t_in[q];
                self.entering = first_code + q;
                self.entering_low = low[q];
            }
        }
        self.exit = earlier(self.exit, lo);
        !(never | (self.enter > self.exit) | (self.enter > self.max_toi) | (self.exit < T::zero()))
    }
}

/// `p`'s least projection on `axis(q)` for `q < count` (in `p`'s frame):
/// eight at a time for a small core (`sat/lanes.rs`), else climbing from `*k`
/// as the axes turn.
#[inline(always)]
fn lows_on<T: Real, P: Polygonal<T>>(
    p: &P,
    count: usize,
    axis: impl Fn(usize) -> Vector2<T>,
    k: &mut usize,
) -> [T; LANES] {
    if p.core_vertex_count() <= SCAN_UP_TO {
        return Axes::new(count, axis).least(p);
    }
    let mut low = [T::zero(); LANES];
    for (q, low) in low.iter_mut().enumerate().take(count) {
        (*low, *k) = climb_min(p, &axis(q), *k);
    }
    low
}

/// A side of the Minkowski difference of two polygons: a face of A (B
/// beyond it) or of B (A beyond it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum FaceSide {
    OfA(usize),
    OfB(usize),
}

/// Up to [`LANES`] faces of one polygon, structure of arrays: the normals
/// in A's frame (`nx`, `ny`) and in B's (`ox`, `oy`), and the levels of the
/// faces along them in their polygon's own frame.
struct Group<T> {
    nx: [T; LANES],
    ny: [T; LANES],
    ox: [T; LANES],
    oy: [T; LANES],
    level: [T; LANES],
}

/// Two polygons' faces as the half-planes of the sweep (both cores with edge
/// normals), in A's frame: B's origin at `c`, moving at `v`.
struct PolygonFaces<'p, T: Real, A, B> {
    a: &'p A,
    b: &'p B,
    rot: &'p UnitComplex<T>,
    c: Vector2<T>,
    v: Vector2<T>,
    radii: T,
}

impl<T: Real, A: Polygonal<T>, B: Polygonal<T>> PolygonFaces<'_, T, A, B> {
    /// A face as one number: A's faces first, then B's.
    #[inline(always)]
    fn code(&self, side: FaceSide) -> usize {
        match side {
            FaceSide::OfA(i) => i,
            FaceSide::OfB(j) => self.a.core_axis_count() + j,
        }
    }

    /// The face of a [`code`](Self::code).
    fn side(&self, code: usize) -> FaceSide {
        let na = self.a.core_axis_count();
        if code < na {
            FaceSide::OfA(code)
        } else {
            FaceSide::OfB(code - na)
        }
    }

    /// The face's normal in A's frame and in B's, whether it is A's (B
    /// entering from its `+n` side), and the supporting levels of A and B
    /// along it (B's in its own frame), given the other polygon's level
    /// `low` (its least projection on the normal).
    #[inline(always)]
    fn geometry(&self, side: FaceSide, low: T) -> (Vector2<T>, Vector2<T>, bool, T, T) {
        match side {
            FaceSide::OfA(i) => {
                let n = self.a.core_axis(i);
                let n_b = self.rot.inverse_transform_vector(&n);
                (n, n_b, true, n.dot(&self.a.core_vertex(i).coords), low)
            }
            FaceSide::OfB(j) => {
                let m = self.b.core_axis(j);
                (
                    self.rot * m,
                    m,
                    false,
                    low,
                    m.dot(&self.b.core_vertex(j).coords),
                )
            }
        }
    }

    /// The sweep's terms of one face: `(gap, approach)`, B (grown by the
    /// radii) touching the face's line at `gap / approach`.
    #[inline(always)]
    fn terms(&self, side: FaceSide, low: T) -> (T, T) {
        let (n, _, plus, a_level, b_level) = self.geometry(side, low);
        let offset = n.dot(&self.c);
        let s = n.dot(&self.v);
        if plus {
            ((b_level + offset) - a_level - self.radii, -s)
        } else {
            (a_level - (b_level + offset) - self.radii, s)
        }
    }

    /// The other polygon's least projection on the normals of faces
    /// `first..first + count` of A (`of_a`) or of B: eight at a time for a
    /// small core (`sat/lanes.rs`), else climbing from `*k`.
    #[inline(always)]
    fn lows(&self, of_a: bool, first: usize, count: usize, k: &mut usize) -> [T; LANES] {
        let (a, b, rot) = (self.a, self.b, self.rot);
        if of_a {
            let axis = |q: usize| rot.inverse_transform_vector(&a.core_axis(first + q));
            lows_on(b, count, axis, k)
        } else {
            lows_on(a, count, |q| rot * b.core_axis(first + q), k)
        }
    }

    /// Every face through the sweep, A's then B's; `false` as soon as no
    /// hit remains possible.
    fn sweep(&self, sweep: &mut Sweep<T>) -> bool {
        self.sweep_faces::<true>(sweep) && self.sweep_faces::<false>(sweep)
    }

    /// [`sweep`](Self::sweep) over A's faces (`OF_A`) or B's, [`LANES`] at
    /// a time.
    #[inline(always)]
    fn sweep_faces<const OF_A: bool>(&self, sweep: &mut Sweep<T>) -> bool {
        let count = if OF_A {
            self.a.core_axis_count()
        } else {
            self.b.core_axis_count()
        };
        let mut k = 0;
        for first in (0..count).step_by(LANES) {
            let lanes = (count - first).min(LANES);
            let g = self.group::<OF_A>(first, lanes);
            // The other polygon's least projections, as `lows` asks them
            // (the same axes, so the same bits).
            let low = if OF_A {
                lows_on(self.b, lanes, |q| Vector2::new(g.ox[q], g.oy[q]), &mut k)
            } else {
                lows_on(self.a, lanes, |q| Vector2::new(g.nx[q], g.ny[q]), &mut k)
            };
            let (gap, approach) = self.group_terms::<OF_A>(&g, lanes, &low);
            let side = if OF_A {
                FaceSide::OfA(first)
            } else {
                FaceSide::OfB(first)
            };
            if !sweep.faces(&gap, &approach, &low, self.code(side)) {
                return false;
            }
        }
        true
    }

    /// Faces `first..first + lanes` of A (`OF_A`) or of B, lane by lane:
    /// the normals in A's frame and in B's, and the faces' levels along
    /// them in their own polygon's frame, as [`geometry`](Self::geometry)
    /// computes them; zeros past `lanes`.
    #[inline(always)]
    fn group<const OF_A: bool>(&self, first: usize, lanes: usize) -> Group<T> {
        let mut g = Group {
            nx: [T::zero(); LANES],
            ny: [T::zero(); LANES],
            ox: [T::zero(); LANES],
            oy: [T::zero(); LANES],
            level: [T::zero(); LANES],
        };
        for q in 0..lanes.min(LANES) {
            let (n, n_b, level) = if OF_A {
                let n = self.a.core_axis(first + q);
                let level = n.dot(&self.a.core_vertex(first + q).coords);
                (n, self.rot.inverse_transform_vector(&n), level)
            } else {
                let m = self.b.core_axis(first + q);
                (
                    self.rot * m,
                    m,
                    m.dot(&self.b.core_vertex(first + q).coords),
                )
            };
            (g.nx[q], g.ny[q]) = (n.x, n.y);
            (g.ox[q], g.oy[q]) = (n_b.x, n_b.y);
            g.level[q] = level;
        }
        g
    }

    /// [`terms`](Self::terms) of a [`group`](Self::group) of faces given
    /// the other polygon's least projections `low` on their normals, lane
    /// by lane: the same operations on the same numbers, so the same bits.
    /// Lanes past `lanes` get `gap = −radii` and `approach = ±0` (see
    /// [`Sweep::faces`]).
    #[inline(always)]
    fn group_terms<const OF_A: bool>(
        &self,
        g: &Group<T>,
        lanes: usize,
        low: &[T; LANES],
    ) -> ([T; LANES], [T; LANES]) {
        let (c, v) = (&self.c, &self.v);
        let mut gap = [T::zero(); LANES];
        let mut approach = [T::zero(); LANES];
        for q in 0..LANES {
            let low = if q < lanes { low[q] } else { T::zero() };
            let offset = g.nx[q] * c.x + g.ny[q] * c.y;
            let s = g.nx[q] * v.x + g.ny[q] * v.y;
            if OF_A {
                gap[q] = (low + offset) - g.level[q] - self.radii;
                approach[q] = -s;
            } else {
                gap[q] = low - (g.level[q] + offset) - self.radii;
                approach[q] = s;
            }
        }
        (gap, approach)
    }

    /// The other polygon's least projection on one face's normal (a scan:
    /// once per cast, or on the rare runner-up search).
    fn low(&self, side: FaceSide) -> T {
        let mut k = 0;
        match side {
            FaceSide::OfA(i) => self.lows(true, i, 1, &mut k)[0],
            FaceSide::OfB(j) => self.lows(false, j, 1, &mut k)[0],
        }
    }

    /// The entering face's record, rebuilt with the values the sweep used
    /// (`low`: the other polygon's least projection on its normal).
    fn entry(&self, side: FaceSide, low: T) -> Entry<T> {
        let (n, n_b, plus, a_level, b_level) = self.geometry(side, low);
        Entry {
            n,
            n_b,
            plus,
            a: (a_level, a_level),
            b: (b_level, b_level),
            offset: n.dot(&self.c),
            s: n.dot(&self.v),
        }
    }

    /// The latest entry through a face not parallel to `entering` (whose
    /// normal towards B is `normal`), with its normal towards B: the other
    /// side of a vertex of `K`. Only asked for at a vertex contact.
    fn runner_up(&self, entering: FaceSide, normal: &Vector2<T>) -> Option<(T, Vector2<T>)> {
        let sides = (0..self.a.core_axis_count())
            .map(FaceSide::OfA)
            .chain((0..self.b.core_axis_count()).map(FaceSide::OfB));
        let mut best: Option<(T, Vector2<T>)> = None;
        for side in sides.filter(|s| *s != entering) {
            let low = self.low(side);
            let (gap, approach) = self.terms(side, low);
            if approach > T::zero() {
                let (n, _, plus, _, _) = self.geometry(side, low);
                let signed = if plus { n } else { -n };
                let enter = gap / approach;
                if normal.perp(&signed) != T::zero() && best.is_none_or(|(t, _)| enter > t) {
                    best = Some((enter, signed));
                }
            }
        }
        best
    }
}

/// The rounding tolerance of projections of points of magnitude `extent`
/// (a face's membership, a vertex contact): `16·ε·extent`.
#[inline]
fn face_tolerance<T: Real>(extent: T) -> T {
    T::epsilon() * T::lit(16.0) * extent
}

/// Whether disks about the shapes' origins that hold them (radius `√2`
/// times the core's largest coordinate, plus the rounding radius) meet at a
/// time in `[0, max_toi]`, B's origin at `c + v t` in A's frame: the point of
/// that path nearest A's origin against the sum of the radii. `false` only
/// when the shapes cannot touch, so a cast that misses by a wide margin
/// (most casts, for a moving shape among scattered ones) skips the sweep
/// of two polygons (the other pairs' sweeps cost about as much as this).
/// Conservative: the disks are grown by `16 ε` of the sizes involved, more
/// than the rounding of the nearest point; NaN numbers, and a speed whose
/// square overflows, answer `true`.
#[inline(always)]
fn bounding_disks_meet<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    c: &Vector2<T>,
    v: &Vector2<T>,
    max_toi: T,
) -> bool {
    let reach = T::lit(1.4143) * (a.core_extent() + b.core_extent()) + (a.radius() + b.radius());
    let vv = v.norm_squared();
    if vv == T::infinity() {
        // A speed whose square overflows: no nearest point to trust.
        return true;
    }
    let t = if vv > T::zero() {
        Float::min(Float::max(-c.dot(v) / vv, T::zero()), max_toi)
    } else {
        T::zero()
    };
    let p = c + v * t;
    let slack = face_tolerance(
        reach + Float::abs(c.x) + Float::abs(c.y) + Float::abs(v.x * t) + Float::abs(v.y * t),
    );
    let bound = (reach + slack) * (reach + slack);
    p.norm_squared().partial_cmp(&bound) != Some(Ordering::Greater)
}

/// The shape cast of two polygonal cores grown by their radii (see the
/// [module documentation](self)). Both cores points or segments with
/// `r_A + r_B > 0` belong to
/// [`rounded_core_cast`](super::rounded::rounded_core_cast) instead.
#[inline]
pub fn sweep_cast<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    contact: ContactKernel<A, B, T>,
) -> Option<ShapeCastHit<T>> {
    let v = args.vel_b;
    let rot = &b_in_a.rotation;
    let c = b_in_a.translation.vector;
    let (ra, rb) = (a.radius(), b.radius());
    let radii = ra + rb;
    let mut sweep = Sweep::new(v, radii, args.max_toi);
    let mut polygons = None;
    if a.has_edge_normals() && b.has_edge_normals() {
        // Two polygons: the Minkowski difference's sides are A's edges (B
        // beyond them) and B's edges (A beyond them), one support query
        // each instead of two projection intervals per axis. A small core's
        // supports come eight axes at a time (`sat/lanes.rs`); a big one's
        // climb: the edge normals turn counter-clockwise, so the other
        // polygon's lowest vertex along them does too, and each search
        // climbs on from the last one (O(n + m) projections in all, rotating
        // calipers).
        // The sweep of two polygons costs a dozen faces: a cast that misses
        // by a wide margin is told first by the bounding disks.
        if !bounding_disks_meet(a, b, &c, &v, args.max_toi) {
            return None;
        }
        let faces = PolygonFaces {
            a,
            b,
            rot,
            c,
            v,
            radii,
        };
        if !faces.sweep(&mut sweep) {
            return None;
        }
        if sweep.entering != usize::MAX {
            sweep.entry = Some(faces.entry(faces.side(sweep.entering), sweep.entering_low));
        }
        polygons = Some(faces);
    } else {
        for i in 0..a.core_axis_count() {
            let n = a.core_axis(i);
            if !sweep.axis(a, b, &c, n, rot.inverse_transform_vector(&n)) {
                return None;
            }
        }
        for j in 0..b.core_axis_count() {
            let m = b.core_axis(j);
            if !sweep.axis(a, b, &c, rot * m, m) {
                return None;
            }
        }
    }
    if a.core_vertex_count() <= 2 && b.core_vertex_count() <= 2 {
        // The Minkowski difference is a segment or a point: close it along
        // the segments' directions (the coordinate axes for two points).
        let mut closed = false;
        if a.core_vertex_count() == 2 {
            let d = unit(a.core_vertex(1) - a.core_vertex(0));
            closed = true;
            if !sweep.axis(a, b, &c, d, rot.inverse_transform_vector(&d)) {
                return None;
            }
        }
        if b.core_vertex_count() == 2 {
            let d = unit(b.core_vertex(1) - b.core_vertex(0));
            closed = true;
            if !sweep.axis(a, b, &c, rot * d, d) {
                return None;
            }
        }
        if !closed {
            for d in [Vector2::x(), Vector2::y()] {
                if !sweep.axis(a, b, &c, d, rot.inverse_transform_vector(&d)) {
                    return None;
                }
            }
        }
    }
    let Some(e) = sweep.entry else {
        // No axis moves: the cores' slabs overlap at every time.
        return contact(a, b, b_in_a)
            .and_then(|k| initial_touch(Some((k.normal, k.point_a, k.point_b)), &v, args.options));
    };
    let mut toi = sweep.enter;
    if toi <= T::zero() {
        // Touching at time 0, or (with radii) past the entry of the grown
        // slabs: the contact kernel decides.
        if let Some(k) = contact(a, b, b_in_a) {
            return initial_touch(Some((k.normal, k.point_a, k.point_b)), &v, args.options);
        }
        if radii <= T::zero() {
            // The slabs say touching at 0, the kernel says apart: the two
            // disagree at rounding level, the hit is at 0.
            toi = T::zero();
        }
    }
    // The supporting faces at `toi`: A's along the normal `σn`, B's against it.
    let sigma = if e.plus { T::one() } else { -T::one() };
    let tau = Vector2::new(-e.n.y, e.n.x);
    let tau_b = Vector2::new(-e.n_b.y, e.n_b.x);
    let tol_a = face_tolerance(a.core_extent());
    let tol_b = face_tolerance(b.core_extent());
    let (a_level, b_level) = if e.plus {
        (e.a.1, e.b.0)
    } else {
        (e.a.0, e.b.1)
    };
    let (al, ah, xa_lo, xa_hi) = face_span(a, &e.n, a_level, &tau, tol_a);
    let (bl, bh, yb_lo, yb_hi) = face_span(b, &e.n_b, b_level, &tau_b, tol_b);
    let normal = Unit::new_unchecked(e.n * sigma);
    if radii > T::zero() {
        let slide = tau.dot(&c) + toi * tau.dot(&v);
        let corner = if bh + slide < al {
            Some((yb_hi, xa_lo))
        } else if bl + slide > ah {
            Some((yb_lo, xa_hi))
        } else {
            None
        };
        if let Some((yb, xa)) = corner {
            // The entry lies beyond the faces' ends: the disk about the
            // vertex pair decides (see the module documentation, step 4).
            let w = (b_in_a * yb) - xa;
            let t = circle_toi(&w, &v, radii)?;
            if t > args.max_toi {
                return None;
            }
            let d = w + v * t;
            let n = length_and_direction(d).map_or(*normal, |(_, n)| n);
            return Some(ShapeCastHit {
                toi: t,
                normal: Unit::new_unchecked(n),
                point_a: xa + n * ra,
                point_b: xa + d - n * rb,
                status: ShapeCastStatus::Hit,
            });
        }
        if toi < T::zero() {
            // The flat side was entered before 0 and the shapes are apart
            // now: the motion has left them behind.
            return None;
        }
    }
    // The middle of the faces' overlap along the tangent.
    let slide = tau.dot(&c) + toi * tau.dot(&v);
    let lo = Float::max(al, bl + slide);
    let hi = Float::min(ah, bh + slide);
    let m = (lo + hi) * T::half();
    let normal = if radii > T::zero() {
        normal
    } else {
        let runner_up = || match &polygons {
            Some(faces) => faces.runner_up(faces.side(sweep.entering), &normal),
            _ => sweep.runner_up,
        };
        vertex_normal(
            sweep.enter,
            runner_up,
            normal,
            (lo, hi),
            (al, ah),
            (bl + slide, bh + slide),
            &v,
        )
    };
    let core_a = e.n * a_level + tau * m;
    let core_b = e.n * (b_level + e.offset + e.s * toi) + tau * m;
    Some(ShapeCastHit {
        toi,
        normal,
        point_a: Point2::from(core_a + normal.into_inner() * ra),
        point_b: Point2::from(core_b - normal.into_inner() * rb),
        status: ShapeCastStatus::Hit,
    })
}

/// The normal at a vertex of the Minkowski difference (the faces' spans meet
/// at one end of each: a vertex of one core on a vertex of the other, or a
/// point core on a vertex): any direction between the two faces' normals
/// there separates; the one against the motion is reported when it lies
/// between them (the limit of a vanishing rounding), else the nearer face
/// normal. A contact on a face keeps the face's normal.
fn vertex_normal<T: Real>(
    enter: T,
    runner_up: impl FnOnce() -> Option<(T, Vector2<T>)>,
    normal: Unit<Vector2<T>>,
    (lo, hi): (T, T),
    (al, ah): (T, T),
    (bl, bh): (T, T),
    v: &Vector2<T>,
) -> Unit<Vector2<T>> {
    let tol = face_tolerance(Float::abs(al) + Float::abs(ah) + Float::abs(bl) + Float::abs(bh));
    let near = |x: T, y: T| Float::abs(x - y) <= tol;
    let at_end = |x: T, l: T, h: T| near(x, l) || near(x, h);
    if !(near(lo, hi) && at_end(lo, al, ah) && at_end(lo, bl, bh)) {
        return normal;
    }
    let Some((t2, n2)) = runner_up() else {
        return normal;
    };
    let speed = v.norm();
    if (Float::abs(enter - t2) * speed)
        .partial_cmp(&tol)
        .is_none_or(Ordering::is_gt)
    {
        return normal;
    }
    let Some((_, d)) = length_and_direction(-v) else {
        return normal;
    };
    let n1 = normal.into_inner();
    let turn = n1.perp(&n2);
    if n1.perp(&d) * turn >= T::zero() && d.perp(&n2) * turn >= T::zero() {
        Unit::new_unchecked(d)
    } else if n2.dot(&d) > n1.dot(&d) {
        Unit::new_unchecked(n2)
    } else {
        normal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::linear::tests::twinned;
    use proptest::prelude::*;
    use shape::testing::cases;

    /// The least projection from every start vertex, on a polygon with
    /// clusters of very short edges, against the scan (within the
    /// precision's tolerance at the polygon's size). The way down was once
    /// read from the projections of an edge's ends, which a short edge
    /// rounds equal in the middle of a falling run.
    fn climb_min_with_short_edges<T: Real>(
        angles: &[f64],
        gaps: &[f64],
        r: f64,
        dir: f64,
    ) -> Result<(), TestCaseError> {
        let Some(p) = twinned::<T>(angles, gaps, r, 0.7) else {
            return Err(TestCaseError::reject("collinear points"));
        };
        let d = Vector2::new(T::lit(dir.cos()), T::lit(dir.sin()));
        let want = p
            .vertices()
            .iter()
            .map(|v| v.coords.dot(&d).as_f64())
            .fold(f64::INFINITY, f64::min);
        let tol = shape::testing::test_tolerance(T::lit(r)).as_f64();
        for start in 0..p.core_vertex_count() {
            let (got, k) = climb_min(&p, &d, start);
            prop_assert_eq!(got, p.core_vertex(k).coords.dot(&d));
            prop_assert!(
                (got.as_f64() - want).abs() <= tol,
                "from {}: {} scan {}",
                start,
                got,
                want
            );
        }
        Ok(())
    }

    fn angles() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(0.0..core::f64::consts::TAU, 3..300)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(64)))]

        #[test]
        fn climb_min_with_short_edges_f32(t in angles(), gaps in prop::collection::vec(-7.5f64..-5.5, 1..8),
                                          r in 1.0f64..4.0, dir in -3.2f64..3.2) {
            climb_min_with_short_edges::<f32>(&t, &gaps, r, dir)?;
        }

        #[test]
        fn climb_min_with_short_edges_f64(t in angles(), gaps in prop::collection::vec(-16.0f64..-14.0, 1..8),
                                          r in 1.0f64..4.0, dir in -3.2f64..3.2) {
            climb_min_with_short_edges::<f64>(&t, &gaps, r, dir)?;
        }
    }
}
