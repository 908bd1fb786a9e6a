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

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::Real;

use super::advance::initial_touch;
use super::rounded::circle_toi;
use super::{ShapeCastArgs, ShapeCastHit, ShapeCastStatus};
use crate::Contact;
use crate::polygonal::{Polygonal, length_and_direction, unit};

/// The contact kernel of a pair (A's frame), for a start in contact.
pub type ContactKernel<A, B, T> = fn(&A, &B, &Isometry2<T>) -> Option<Contact<T>>;

/// The core's projection on `dir` (its local frame): `(min, max)`.
#[inline]
fn interval<T: Real, P: Polygonal<T>>(p: &P, dir: &Vector2<T>) -> (T, T) {
    p.core_interval(dir)
}

/// The least projection on `dir` of a strictly convex polygon's vertices
/// (counter-clockwise) and its index, climbing from vertex `start`: the
/// projections around a convex polygon rise and fall once, so moving to the
/// lower neighbour while there is one ends at the minimum (ties, from
/// parallel edges, at either of the two equal vertices).
#[inline]
fn climb_min<T: Real, P: Polygonal<T>>(p: &P, dir: &Vector2<T>, start: usize) -> (T, usize) {
    let count = p.core_vertex_count();
    let at = |i: usize| p.core_vertex(i).coords.dot(dir);
    let next = |i: usize| if i + 1 == count { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { count - 1 } else { i - 1 };
    let start = if start < count { start } else { 0 };
    let (mut k, mut best) = (start, at(start));
    let forward = at(next(k));
    let ahead = forward < best;
    if ahead {
        (k, best) = (next(k), forward);
    }
    // At most once round the polygon (NaN projections stop at once).
    for _ in 0..count {
        let j = if ahead { next(k) } else { prev(k) };
        let x = at(j);
        if x < best {
            (k, best) = (j, x);
        } else {
            break;
        }
    }
    (best, k)
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

    /// Narrows the interval by one side of the Minkowski difference: B must
    /// come within `radii` of A's supporting line `a_level` along `n` (A's
    /// frame; `n_b` in B's frame), from the `+n` side when `plus` (B's
    /// supporting level `b_level` in its frame, plus `n·c`), else from the
    /// `−n` side; `false` when no hit remains possible.
    #[inline]
    fn half_plane(
        &mut self,
        c: &Vector2<T>,
        n: Vector2<T>,
        n_b: Vector2<T>,
        plus: bool,
        a_level: T,
        b_level: T,
    ) -> bool {
        let offset = n.dot(c);
        let s = n.dot(&self.v);
        let (gap, approach) = if plus {
            ((b_level + offset) - a_level - self.radii, -s)
        } else {
            (a_level - (b_level + offset) - self.radii, s)
        };
        // Touching needs `gap − approach·t ≤ 0`.
        if approach > T::zero() {
            let enter = gap / approach;
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
                    a: (a_level, a_level),
                    b: (b_level, b_level),
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
        } else if approach < T::zero() {
            let exit = gap / approach;
            if exit < self.exit {
                self.exit = exit;
            }
        } else {
            return gap.partial_cmp(&T::zero()) != Some(Ordering::Greater);
        }
        !(self.enter > self.exit || self.enter > self.max_toi || self.exit < T::zero())
    }
}

/// The rounding tolerance of projections of points of magnitude `extent`
/// (a face's membership, a vertex contact): `16·ε·extent`.
#[inline]
fn face_tolerance<T: Real>(extent: T) -> T {
    T::epsilon() * T::lit(16.0) * extent
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
    if a.has_edge_normals() && b.has_edge_normals() {
        // Two polygons: the Minkowski difference's sides are A's edges (B
        // beyond them) and B's edges (A beyond them), one support query
        // each instead of two projection intervals per axis.
        // The edge normals turn counter-clockwise, so the other polygon's
        // lowest vertex along them does too: each search climbs on from the
        // last one (O(n + m) projections in all, rotating calipers).
        let mut k = 0;
        for i in 0..a.core_axis_count() {
            let n = a.core_axis(i);
            let n_b = rot.inverse_transform_vector(&n);
            let a_level = n.dot(&a.core_vertex(i).coords);
            let b_level;
            (b_level, k) = climb_min(b, &n_b, k);
            if !sweep.half_plane(&c, n, n_b, true, a_level, b_level) {
                return None;
            }
        }
        let mut k = 0;
        for j in 0..b.core_axis_count() {
            let m = b.core_axis(j);
            let n = rot * m;
            let b_level = m.dot(&b.core_vertex(j).coords);
            let a_level;
            (a_level, k) = climb_min(a, &n, k);
            if !sweep.half_plane(&c, n, m, false, a_level, b_level) {
                return None;
            }
        }
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
        vertex_normal(
            &sweep,
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
    sweep: &Sweep<T>,
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
    let Some((t2, n2)) = sweep.runner_up else {
        return normal;
    };
    let speed = v.norm();
    if (Float::abs(sweep.enter - t2) * speed)
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
