//! Linear-time building blocks for big convex cores: the core kernel's
//! separating-axis test and closest points in `O(n + m)` instead of `O(n·m)`.
//!
//! # Extreme vertices along turning directions ([`Extreme`])
//!
//! The separating-axis test asks, for every edge normal of one polygon in
//! turn, for the extreme vertex of a convex core along it. The normals of a
//! counter-clockwise polygon turn counter-clockwise, each by less than half a
//! turn, and so does the extreme vertex of a counter-clockwise convex core
//! (the vertex maximising `v·d` moves from `i` to `i + 1` exactly when `d`
//! passes the outward normal of that edge). So:
//!
//! 1. the first direction is answered by a full scan;
//! 2. each later one climbs from the previous answer: step to the next
//!    vertex while the edge to it rises along the new direction, which its
//!    outward normal says (`nᵢ × d > 0`: `d` has passed the normal).
//!
//! Why it is exact: for directions `d₀` then `d₁` turning by less than half a
//! turn, the vertices from `d₀`'s extreme to `d₁`'s are joined by edges whose
//! directions lie within a quarter turn of `d₁`'s tangent side, so `v·d₁`
//! rises strictly along them and falls after: the climb stops at `d₁`'s
//! extreme. The climbs of a whole sequence of directions turning once around
//! take at most `n` steps together, `O(n + k)` for `k` directions instead of
//! `O(n·k)`. In floating point the steps are decided on the stored unit
//! normals, not on the dot products of an edge's two ends: those of a short
//! edge round to equal in the middle of a rising run, and a climb stopped
//! there would be short of the maximum by much more than rounding (and stay
//! there for the following directions). The normal of each edge is its own
//! direction to rounding however short it is, so the climb ends at the
//! vertex whose normal cone holds `d` (a core without edge normals climbs on
//! the values). Cores of at most [`SCAN_UP_TO`] vertices are always scanned
//! (as fast, and bit for bit the answers of the scan).
//!
//! # Closest points of two convex polygons ([`walk_closest`])
//!
//! The cores' closest pair is the point of `D = B − A` (their Minkowski
//! difference, in A's frame) nearest the origin, and the boundary of `D` is
//! a convex polygon of `n + m` edges: each is an edge of B minus a vertex of
//! A, or a vertex of B minus an edge of A, met in the order of their
//! directions (the Minkowski sum of two convex polygons is the merge of their
//! edge sequences by angle; de Berg et al., *Computational Geometry*, §13.3).
//! So:
//!
//! 1. start at the vertex of `D` extreme along `−n₀` (A's first edge normal):
//!    A's vertex 0 and B's vertex lowest along `n₀`;
//! 2. repeatedly take whichever of the two current edges (B's `bⱼ → bⱼ₊₁`,
//!    or `−A`'s `−aₖ → −aₖ₊₁`) turns first, by the sign of the cross
//!    product of their outward normals (both lie within half a turn ahead
//!    of the last edge taken, so the sign orders their angles), until both
//!    have gone round;
//! 3. each edge taken is one (vertex, edge) pair: its point–segment distance
//!    is a candidate, unless the distance from the vertex to the edge's
//!    *line* (a lower bound) already exceeds the best found.
//!
//! The nearest of the candidates is the cores' distance when they are apart,
//! as the nearest point of a polygon to an outside point lies on one of its
//! edges (Ericson, *Real-Time Collision Detection*, §5.1.2; the same
//! argument as the brute force over all `n·m` pairs, restricted to the pairs
//! that form `D`'s boundary). The walk is a closed chain of genuine
//! (vertex, edge) pairs whatever the rounding of the cross products: a wrong
//! decision between two edges parallel to rounding moves the chain off `D`'s
//! boundary by a sliver as thin as that rounding. That holds because the
//! turns are decided on the stored unit normals, each known to the
//! precision's rounding whatever its edge's length; the edge vectors of
//! placed vertices are not (module code, step 2).
//!
//! # Also here
//!
//! [`point_closest`]: a point's nearest point on a big polygon, one pass over
//! its edges; [`extreme_index`]: a polygon's extreme vertex along any
//! direction in `O(log n)`, by binary search over its sorted normals (for the
//! ellipse kernel's Newton steps). The one-sided pass of a big polygon
//! against a small core is in `core.rs` (`core_sat`).
//!
//! Degenerate cases: both cores must be strictly convex and counter-clockwise
//! with at least three vertices (triangles and polygons: validated at
//! construction); a segment or a point core keeps the general kernel's
//! search, which is linear in the other core's size already.

use nalgebra::{Isometry2, Point2, Vector2};
use shape::Real;

use super::core::InsideEdge;
use crate::polygonal::Polygonal;

/// Cores with at most this many vertices are scanned rather than climbed
/// (and the general kernel's pairwise closest-point search is kept for
/// them): for a handful of vertices a scan costs no more, and keeps every
/// small pair's answer bit for bit as it was.
pub(crate) const SCAN_UP_TO: usize = 16;

/// Whether either core is big enough for the linear-time paths.
#[inline]
pub(crate) fn big<T: Real, A: Polygonal<T>, B: Polygonal<T>>(a: &A, b: &B) -> bool {
    a.core_vertex_count() > SCAN_UP_TO || b.core_vertex_count() > SCAN_UP_TO
}

/// The extreme vertex of a counter-clockwise convex core along directions
/// that turn counter-clockwise from one call to the next (module notes).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extreme {
    /// The last answer; `None` before the first call.
    index: Option<usize>,
}

impl Extreme {
    /// `max v·d` over the core's vertices.
    #[inline(always)]
    pub(crate) fn max<T: Real, P: Polygonal<T>>(&mut self, p: &P, d: &Vector2<T>) -> T {
        let n = p.core_vertex_count();
        let dot = |i: usize| p.core_vertex(i).coords.dot(d);
        match self.index {
            Some(start) if n > SCAN_UP_TO && p.has_edge_normals() => {
                // Step while the edge ahead rises along `d`: its outward
                // normal lies clockwise of `d` (`nᵢ × d > 0`), decided on the
                // stored unit normal. Not on the two ends' dot products: a
                // short edge rounds them equal (a tie in the middle of a
                // rising run), and the climb stalled there, far short of the
                // maximum, for every direction until the tie broke (an f32
                // polygon of 2,054 vertices with a 1.7e-7 edge: a contact
                // 0.029 too shallow; a deep run of `vertices`). At most once
                // round (NaN stops at once).
                let mut i = start;
                for _ in 0..n {
                    if p.core_axis(i).perp(d) > T::zero() {
                        i = if i + 1 == n { 0 } else { i + 1 };
                    } else {
                        break;
                    }
                }
                self.index = Some(i);
                dot(i)
            }
            Some(start) if n > SCAN_UP_TO => {
                let (mut i, mut best) = (start, dot(start));
                // Strictly increasing values cannot come round to `start`:
                // at most `n − 1` steps.
                loop {
                    let j = if i + 1 == n { 0 } else { i + 1 };
                    let dj = dot(j);
                    if dj > best {
                        (i, best) = (j, dj);
                    } else {
                        break;
                    }
                }
                self.index = Some(i);
                best
            }
            _ => self.scan(p, d),
        }
    }

    /// [`max`](Self::max) by a scan of every vertex: the first direction
    /// (once per sequence, kept out of the climbs' inlined code) and small
    /// cores.
    #[inline(never)]
    fn scan<T: Real, P: Polygonal<T>>(&mut self, p: &P, d: &Vector2<T>) -> T {
        let dot = |i: usize| p.core_vertex(i).coords.dot(d);
        let (mut i, mut best) = (0, dot(0));
        for j in 1..p.core_vertex_count() {
            let dj = dot(j);
            if dj > best {
                (i, best) = (j, dj);
            }
        }
        self.index = Some(i);
        best
    }

    /// `min v·d` over the core's vertices (as `−max v·(−d)`: negation is
    /// exact, so this is the scan's minimum bit for bit).
    #[inline(always)]
    pub(crate) fn min<T: Real, P: Polygonal<T>>(&mut self, p: &P, d: &Vector2<T>) -> T {
        -self.max(p, &-d)
    }
}

/// The closest points of two strictly convex counter-clockwise cores with at
/// least three vertices each (A's frame), and the edge holding one of them
/// strictly inside, by the walk of the module notes: `O(n + m)`.
pub(crate) fn walk_closest<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> (Point2<T>, Point2<T>, InsideEdge<T>) {
    let (na, nb) = (a.core_vertex_count(), b.core_vertex_count());
    let vb = |j: usize| b_in_a * b.core_vertex(j);
    // 1. B's vertex lowest along A's first normal (first on ties).
    let n0 = a.core_axis(0);
    let s0 = b_in_a.rotation.inverse_transform_vector(&n0);
    let mut low = (0, b.core_vertex(0).coords.dot(&s0));
    for j in 1..nb {
        let d = b.core_vertex(j).coords.dot(&s0);
        if d < low.1 {
            low = (j, d);
        }
    }
    let (mut k, mut j) = (0, low.0);
    let (mut taken_a, mut taken_b) = (0, 0);
    let (mut a0, mut a1) = (a.core_vertex(0), a.core_vertex(1 % na));
    let (mut b0, mut b1) = (vb(j), vb((j + 1) % nb));
    // A's current edge normal in B's frame, for the turn test.
    let mut na_in_b = s0;
    // The best pair so far and its squared distance.
    let mut best = ((a0, b0, None), (b0 - a0).norm_squared());
    let inside = |v: &Point2<T>, e0: Point2<T>, e1: Point2<T>, of_a: bool| -> InsideEdge<T> {
        let e = e1 - e0;
        let t = (v - e0).dot(&e);
        (t > T::zero() && t < e.norm_squared()).then_some((e0, e, of_a))
    };
    while taken_a < na || taken_b < nb {
        // 2. −A's edge is `a0 − a1`, B's `b1 − b0`: B's first when −A's
        // turns counter-clockwise of it, that is when B's outward normal
        // turns counter-clockwise of A's (`(b1 − b0)⊥(a0 − a1) = nₐ⊥n_b`:
        // each edge is its normal turned a quarter). The stored normals,
        // compared in B's frame, decide: the difference of two placed
        // vertices would not, as a short edge of B placed far from the
        // origin rounds to any direction, or to zero, which took every
        // edge of A at one vertex of B and walked off D (an f32 1008-gon
        // with edges of 1e-5 at 5 from A, 0.0074 too far).
        let take_b = taken_a == na || (taken_b < nb && na_in_b.perp(&b.core_axis(j)) > T::zero());
        if take_b {
            // 3. A's vertex a0 against B's edge b0 → b1; the distance to the
            // edge's line bounds the distance to the edge from below.
            let m = b_in_a.rotation * b.core_axis(j);
            let line = (a0 - b0).dot(&m);
            if line * line <= best.1 {
                let q = shape::dim2::closest_point_on_segment(&b0, &b1, &a0);
                let d2 = (q - a0).norm_squared();
                if d2 < best.1 {
                    best = ((a0, q, inside(&a0, b0, b1, false)), d2);
                }
            }
            taken_b += 1;
            j = if j + 1 == nb { 0 } else { j + 1 };
            b0 = b1;
            b1 = vb(if j + 1 == nb { 0 } else { j + 1 });
        } else {
            // B's vertex b0 against A's edge a0 → a1.
            let line = (b0 - a0).dot(&a.core_axis(k));
            if line * line <= best.1 {
                let p = shape::dim2::closest_point_on_segment(&a0, &a1, &b0);
                let d2 = (b0 - p).norm_squared();
                if d2 < best.1 {
                    best = ((p, b0, inside(&b0, a0, a1, true)), d2);
                }
            }
            taken_a += 1;
            k = if k + 1 == na { 0 } else { k + 1 };
            a0 = a1;
            a1 = a.core_vertex(if k + 1 == na { 0 } else { k + 1 });
            na_in_b = b_in_a.rotation.inverse_transform_vector(&a.core_axis(k));
        }
    }
    best.0
}

/// An edge of a core: its start and its vector.
pub(crate) type Edge<T> = (Point2<T>, Vector2<T>);

/// The point of a convex core with edge normals nearest the point `c`
/// outside it (both in the core's frame), and the edge (start, vector)
/// when that point lies strictly inside it: one pass over the edges, the
/// foot of `c` on each clamped to it (Ericson §5.1.2), skipping an edge
/// whose line is already farther than the best found (`|(c − v)·n|` bounds
/// the distance to the edge from below).
pub(crate) fn point_closest<T: Real, P: Polygonal<T>>(
    p: &P,
    c: &Point2<T>,
) -> (Point2<T>, Option<Edge<T>>) {
    let n = p.core_vertex_count();
    let mut best = (p.core_vertex(0), T::infinity(), None);
    for i in 0..n {
        let v0 = p.core_vertex(i);
        let line = (c - v0).dot(&p.core_axis(i));
        if line * line > best.1 {
            continue;
        }
        let v1 = p.core_vertex(if i + 1 == n { 0 } else { i + 1 });
        let e = v1 - v0;
        let t = (c - v0).dot(&e);
        let ee = e.norm_squared();
        let (q, edge) = if t <= T::zero() {
            (v0, None)
        } else if t >= ee {
            (v1, None)
        } else {
            (v0 + e * (t / ee), Some((v0, e)))
        };
        let d2 = (q - c).norm_squared();
        if d2 < best.1 {
            best = (q, d2, edge);
        }
    }
    (best.0, best.2)
}

/// The index of a vertex maximising `v·d` over a strictly convex
/// counter-clockwise core with edge normals (`has_edge_normals`), in
/// `O(log n)`: vertex `i + 1` is extreme for the directions between the
/// normals of edges `i` and `i + 1`, and the normals are sorted by their
/// angle from normal 0; a binary search finds the last normal at or before
/// `d`. Angles are compared without trigonometry: by half-turn (the side of
/// normal 0 a direction lies on), then by the sign of the cross product
/// within a half-turn. Where `d` is within rounding of a normal the search
/// may land on either end of its edge; a climb to the neighbour that is
/// strictly higher (either way) settles on a maximum of the rounded dot
/// products.
pub(crate) fn extreme_index<T: Real, P: Polygonal<T>>(p: &P, d: &Vector2<T>) -> usize {
    let n = p.core_vertex_count();
    let n0 = p.core_axis(0);
    // 0 for angles from normal 0 in [0, π), 1 for [π, 2π).
    let half = |v: &Vector2<T>| {
        let c = n0.perp(v);
        usize::from(!(c > T::zero() || (c == T::zero() && n0.dot(v) > T::zero())))
    };
    let hd = half(d);
    let at_or_before_d = |v: &Vector2<T>| {
        let hv = half(v);
        hv < hd || (hv == hd && v.perp(d) >= T::zero())
    };
    // Invariant: normal `lo` is at or before `d`; normals from `hi` on are
    // after it (normal 0 is at angle 0, before everything).
    let (mut lo, mut hi) = (0, n);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if at_or_before_d(&p.core_axis(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut i = if lo + 1 == n { 0 } else { lo + 1 };
    let dot = |i: usize| p.core_vertex(i).coords.dot(d);
    let mut best = dot(i);
    for step in [1, n - 1] {
        loop {
            let j = (i + step) % n;
            let dj = dot(j);
            if dj > best {
                (i, best) = (j, dj);
            } else {
                break;
            }
        }
    }
    i
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;
    use shape::ConvexPolygon;
    use shape::testing::cases;

    /// `n` points on an ellipse at sorted random angles, hulled.
    fn polygon(angles: &[f64], r: f64, squash: f64) -> ConvexPolygon<f64> {
        let mut t = angles.to_vec();
        t.sort_by(f64::total_cmp);
        let pts: Vec<Point2<f64>> = t
            .iter()
            .map(|a| Point2::new(r * a.cos(), r * squash * a.sin()))
            .collect();
        ConvexPolygon::from_hull(&pts).unwrap()
    }

    /// Points on an ellipse at random angles, each followed by a twin a
    /// tiny turn further on (`10^gap` radians for each of `gaps` in turn;
    /// edges of about `r·10^gap`), hulled in
    /// the precision `T`: a polygon with clusters of very short edges
    /// (`None` when the points span no area).
    pub(crate) fn twinned<T: Real>(
        angles: &[f64],
        gaps: &[f64],
        r: f64,
        squash: f64,
    ) -> Option<ConvexPolygon<T>> {
        let t: Vec<f64> = angles
            .iter()
            .zip(gaps.iter().cycle())
            .flat_map(|(a, g)| [*a, a + 10f64.powf(*g)])
            .collect();
        crate::sat::descent::tests::polygon(&t, r, squash)
    }

    /// The walk between a small polygon and a big one with clusters of
    /// edges far shorter than the rounding of their placed vertices, both
    /// ways round, against the brute force: within the precision's test
    /// tolerance at the scene's scale (f32: 1.5e-4 at 5). The turns were
    /// once decided on placed edge vectors, which such an edge gives any
    /// direction: an f32 walk took every edge of A at one vertex of B and
    /// answered 0.0074 too far.
    fn walk_with_short_edges<T: Real>(
        small: &[f64],
        big: &[f64],
        gaps: &[f64],
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let (Some(a), Some(b)) = (
            twinned::<T>(small, &[-1.0], 0.2, 0.6),
            twinned::<T>(big, gaps, 0.5, 0.75),
        ) else {
            return Err(TestCaseError::reject("collinear points"));
        };
        let place =
            |x: f64, y: f64, t: f64| Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(t));
        let m = place(x, y, turn);
        let tol = 4.0 * shape::testing::test_tolerance(T::lit(8.0)).as_f64();
        let brute = crate::sat::descent::tests::brute(&a, &b, &m);
        for (order, x, y, m) in [("A small", &a, &b, m), ("A big", &b, &a, m.inverse())] {
            let (p, q, _) = walk_closest(x, y, &m);
            let d = (q - p).norm().as_f64();
            prop_assert!(
                (d - brute).abs() <= tol,
                "{}: walk {} brute {}",
                order,
                d,
                brute
            );
        }
        Ok(())
    }

    /// The climb along directions turning once round a polygon with
    /// clusters of very short edges, from a random start in 96 steps,
    /// against the scan (within the precision's tolerance at the polygon's
    /// size). The steps were once decided on an edge's two ends' dot
    /// products, which a short edge rounds equal in the middle of a rising
    /// run: the climb stalled there (an f32 contact 0.029 too shallow on a
    /// 2,054-gon).
    fn climb_with_short_edges<T: Real>(
        angles: &[f64],
        gaps: &[f64],
        r: f64,
        start: f64,
    ) -> Result<(), TestCaseError> {
        let Some(p) = twinned::<T>(angles, gaps, r, 0.7) else {
            return Err(TestCaseError::reject("collinear points"));
        };
        let scan = |d: &Vector2<T>| {
            p.vertices()
                .iter()
                .map(|v| v.coords.dot(d).as_f64())
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let tol = shape::testing::test_tolerance(T::lit(r)).as_f64();
        let (mut hi, mut lo) = (Extreme::default(), Extreme::default());
        for k in 0..96 {
            let a = start + core::f64::consts::TAU * f64::from(k) / 96.0;
            let d = Vector2::new(T::lit(a.cos()), T::lit(a.sin()));
            let (got, want) = (hi.max(&p, &d).as_f64(), scan(&d));
            prop_assert!(
                (got - want).abs() <= tol,
                "max at step {}: {} scan {}",
                k,
                got,
                want
            );
            let (got, want) = (lo.min(&p, &d).as_f64(), -scan(&-d));
            prop_assert!(
                (got - want).abs() <= tol,
                "min at step {}: {} scan {}",
                k,
                got,
                want
            );
        }
        Ok(())
    }

    fn scan_max(p: &ConvexPolygon<f64>, d: &Vector2<f64>) -> f64 {
        p.vertices()
            .iter()
            .map(|v| v.coords.dot(d))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn angles() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(0.0..core::f64::consts::TAU, 3..600)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(64)))]

        /// Climbing along a polygon's own normals, one turn round, gives the
        /// scan's extremes (the same dot products: exactly, away from ties
        /// within rounding).
        #[test]
        fn climb_matches_scan(t in angles(), r in 0.1f64..10.0, q in 0.2f64..1.0) {
            let p = polygon(&t, r, q);
            let (mut hi, mut lo) = (Extreme::default(), Extreme::default());
            let tol = 1e-13 * r;
            for n in p.normals() {
                prop_assert!((hi.max(&p, n) - scan_max(&p, n)).abs() <= tol);
                prop_assert!((lo.min(&p, n) + scan_max(&p, &-n)).abs() <= tol);
            }
        }

        /// The binary search over the normals finds a scan's maximum for any
        /// direction.
        #[test]
        fn binary_search_matches_scan(t in angles(), r in 0.1f64..10.0, q in 0.2f64..1.0,
                                      dirs in prop::collection::vec(-3.2f64..3.2, 1..32)) {
            let p = polygon(&t, r, q);
            for a in dirs {
                let d = Vector2::new(a.cos(), a.sin());
                let i = extreme_index(&p, &d);
                prop_assert!((p.vertices()[i].coords.dot(&d) - scan_max(&p, &d)).abs() <= 1e-13 * r);
            }
            // Exactly along every normal, where two vertices tie.
            for n in p.normals() {
                let i = extreme_index(&p, n);
                prop_assert!((p.vertices()[i].coords.dot(n) - scan_max(&p, n)).abs() <= 1e-13 * r);
            }
        }

        #[test]
        fn climb_with_short_edges_f32(t in angles(), gaps in prop::collection::vec(-7.5f64..-5.5, 1..8),
                                      r in 1.0f64..4.0, start in -3.2f64..3.2) {
            climb_with_short_edges::<f32>(&t, &gaps, r, start)?;
        }

        #[test]
        fn climb_with_short_edges_f64(t in angles(), gaps in prop::collection::vec(-16.0f64..-14.0, 1..8),
                                      r in 1.0f64..4.0, start in -3.2f64..3.2) {
            climb_with_short_edges::<f64>(&t, &gaps, r, start)?;
        }

        #[test]
        fn walk_with_short_edges_f32(small in prop::collection::vec(0.0..core::f64::consts::TAU, 3..12),
                                     big in angles(), gaps in prop::collection::vec(-7.0f64..-3.0, 1..8),
                                     r in 4.0f64..6.0, bearing in -3.2f64..3.2, turn in -3.2f64..3.2) {
            walk_with_short_edges::<f32>(&small, &big, &gaps, (r * bearing.cos(), r * bearing.sin(), turn))?;
        }

        #[test]
        fn walk_with_short_edges_f64(small in prop::collection::vec(0.0..core::f64::consts::TAU, 3..12),
                                     big in angles(), gaps in prop::collection::vec(-16.0f64..-10.0, 1..8),
                                     r in 4.0f64..6.0, bearing in -3.2f64..3.2, turn in -3.2f64..3.2) {
            walk_with_short_edges::<f64>(&small, &big, &gaps, (r * bearing.cos(), r * bearing.sin(), turn))?;
        }

        /// The walk's closest pair is the brute force's over all (vertex,
        /// edge) pairs, for polygons apart.
        #[test]
        fn walk_matches_brute_force(ta in angles(), tb in angles(), x in 0.0f64..8.0,
                                    y in -4.0f64..4.0, turn in -3.2f64..3.2) {
            let (a, b) = (polygon(&ta, 1.0, 0.6), polygon(&tb, 1.5, 0.4));
            let m = Isometry2::new(Vector2::new(x + 2.6, y), turn);
            let (pa, pb, _) = walk_closest(&a, &b, &m);
            let bv: Vec<Point2<f64>> = b.vertices().iter().map(|v| m * v).collect();
            let closest = |p: &Point2<f64>, vs: &[Point2<f64>]| {
                (0..vs.len())
                    .map(|i| {
                        let q = shape::dim2::closest_point_on_segment(&vs[i], &vs[(i + 1) % vs.len()], p);
                        (q - p).norm()
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            let brute = a
                .vertices()
                .iter()
                .map(|p| closest(p, &bv))
                .chain(bv.iter().map(|q| closest(q, a.vertices())))
                .fold(f64::INFINITY, f64::min);
            prop_assert!(((pb - pa).norm() - brute).abs() <= 1e-12 * (8.0 + x), "{} {}", (pb - pa).norm(), brute);
        }
    }
}
