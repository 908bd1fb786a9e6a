//! Closest points of two small convex polygons apart (cores with outward
//! unit edge normals and no radius: triangles, convex polygons, boxes seen as
//! four-edge polygons), in A's frame: a separating face first, then a
//! descent along the boundary of the Minkowski difference from that face to
//! the closest features. Usually a few steps, `O(n + m)` at worst, instead
//! of the `O(n·m)` (vertex, edge) pairs of the general kernel.
//!
//! # The Minkowski difference
//!
//! The cores' closest pair `(p, q)` gives the point `q − p` of
//! `D = B − A = {q − p}` nearest the origin, and the origin is outside `D`
//! exactly when the cores are apart. `D` is a convex polygon whose edges are
//! B's edges moved by minus a vertex of A (`bⱼ + s·Fⱼ − aₖ`) and A's edges
//! reversed, moved by a vertex of B (`bⱼ − aₖ − s·Eₖ`), `s ∈ [0, 1]`, met
//! counter-clockwise in the order of their directions (the merge of the two
//! edge sequences; de Berg et al., *Computational Geometry*, §13.3). Every
//! edge of `D` is thus one (vertex, edge) pair of the cores, and the point
//! of the edge nearest the origin is the vertex's nearest point on the
//! edge: the foot at `s = (v − e₀)·e / |e|²` clamped to `[0, 1]`.
//!
//! # The method
//!
//! 1. **A separating face** ([`separating_face`]): a face of A whose every
//!    vertex of B lies strictly beyond its line (or a face of B, A beyond
//!    it), tested with exactly the numbers of the separating-axis pass of
//!    `core.rs` (`polygon_sat`), so that the cores are found apart exactly
//!    when `core_intersects` finds them apart. A face is proved not to
//!    separate by one vertex on its inner side, tried first where the last
//!    face found one (usually the first vertex tried); only a separating
//!    face has all the other core's vertices projected, which gives its
//!    lowest vertex.
//! 2. **The start**: A's face `i` separating by `g > 0`, with B's vertex `j`
//!    lowest along its outward normal `nᵢ`, is the edge `bⱼ − (A's edge i)`
//!    of `D`, whose outward normal is `−nᵢ` and whose line is `g` from the
//!    origin, on the origin's side: the origin sees it from outside (a
//!    face of B is the edge `(B's edge j) − aᵢ` likewise).
//! 3. **The descent** (Voronoi regions of `D`'s boundary): on the current
//!    edge from `P₀` to `P₁`, with `t = (O − P₀)·(P₁ − P₀) / |P₁ − P₀|²`:
//!    - `0 ≤ t ≤ 1`: the foot is `D`'s nearest point to the origin (`O −
//!      foot` lies along the edge's outward normal, inside `D`'s normal
//!      cone there, which is the optimality condition of the projection on
//!      a convex set); done;
//!    - `t > 1`: the edge's nearest point is `P₁`; on to the next edge
//!      (`t < 0`: `P₀`, back to the previous one). Once the walk has gone
//!      forward, `t ≤ 0` on the next edge proves the shared vertex nearest
//!      (`(O − P₁)·E_before ≥ 0` and `(O − P₁)·E_after ≤ 0`: `O − P₁` is in
//!      the vertex's normal cone), and likewise backward.
//!
//!    Each edge the walk reaches is seen from outside: from a visible edge
//!    whose foot is beyond its end, the next edge turns left by less than
//!    half a turn, and the vector from its start to the origin, having
//!    positive components along the previous edge and its outward normal,
//!    has a positive one along the new edge's outward normal too. So the
//!    walk stays on the part of the boundary the origin sees and meets one
//!    of the certificates above before going round. The next edge at a
//!    vertex `bⱼ − aₖ` is B's edge `j` when it turns before A's reversed
//!    edge `k` (the sign of their cross product, as in `linear.rs`'s full
//!    walk), the previous one likewise.
//!
//! The answer's direction and distance come from the edge holding a closest
//! point strictly inside, by its stored unit normal (exact to rounding even
//! when the cores nearly touch; no square root), else from the two vertices.
//!
//! # Rounding
//!
//! Every candidate is a genuine (vertex, edge) pair, and its point a point
//! of the cores, so rounding in the decisions can only stop the walk one
//! edge early or late where `t` is within rounding of 0 or 1, where the two
//! candidates agree to rounding. The walk takes at most `n + m + 1` steps;
//! should rounding ever keep it going, the caller falls back to the full
//! walk round `D` (`linear.rs`), which is exact on its own.

use core::cmp::Ordering;

use nalgebra::{Isometry2, Point2, Vector2};
use shape::Real;

use super::exact::touching_within_rounding;
use crate::polygonal::Polygonal;

/// A face separating two cores (step 1 of the module notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Face {
    /// A's edge `i` (from vertex `i`), with B's vertex `j` lowest along its
    /// outward normal.
    OfA { i: usize, j: usize },
    /// B's edge `j`, with A's vertex `i` lowest along its outward normal.
    OfB { i: usize, j: usize },
}

impl Face {
    /// The face's outward normal as a direction from A towards B, in A's
    /// frame.
    #[inline]
    pub(crate) fn axis<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
        &self,
        a: &A,
        b: &B,
        b_in_a: &Isometry2<T>,
    ) -> Vector2<T> {
        match *self {
            Face::OfA { i, .. } => a.core_axis(i),
            Face::OfB { j, .. } => -(b_in_a.rotation * b.core_axis(j)),
        }
    }
}

/// Whether every vertex of the core `p` lies strictly beyond a face: with
/// `local` the face's normal and `offset` its offset in `p`'s frame, each
/// `fl(fl(v·local) + offset) > 0`. That is `polygon_sat`'s
/// `fl(min_v (v·local) + offset) > 0` exactly: the minimum is one of the
/// dot products, and `x ↦ fl(x + offset)` does not decrease. Then the
/// lowest vertex (the first, on ties) and the separation; else `None`, with
/// `witness` moved to a vertex on the inner side. The witness, the vertex
/// that proved the last face not separating, is tried first: the next face
/// is usually not separating either, and the same vertex proves it.
#[inline]
fn beyond<T: Real, P: Polygonal<T>>(
    p: &P,
    local: &Vector2<T>,
    offset: T,
    witness: &mut usize,
) -> Option<(usize, T)> {
    let height = |k: usize| p.core_vertex(k).coords.dot(local);
    // On or inside the face's line (or NaN): not beyond.
    let below = |x: T| {
        (x + offset)
            .partial_cmp(&T::zero())
            .is_none_or(Ordering::is_le)
    };
    if below(height(*witness)) {
        return None;
    }
    let mut low = (0, height(0));
    if below(low.1) {
        *witness = 0;
        return None;
    }
    for k in 1..p.core_vertex_count() {
        let x = height(k);
        if below(x) {
            *witness = k;
            return None;
        }
        if x < low.1 {
            low = (k, x);
        }
    }
    Some((low.0, low.1 + offset))
}

/// The face of `p` whose line the point `c` (in `p`'s frame) is farthest
/// beyond: the face most likely to separate a core around `c`, tried
/// first.
#[inline]
fn facing<T: Real, P: Polygonal<T>>(p: &P, c: &Vector2<T>) -> usize {
    let beyond = |i: usize| (c - p.core_vertex(i).coords).dot(&p.core_axis(i));
    let mut best = (0, beyond(0));
    for i in 1..p.core_vertex_count() {
        let h = beyond(i);
        if h > best.1 {
            best = (i, h);
        }
    }
    best.0
}

/// A face of A or B separating the two cores (both with outward unit edge
/// normals), and its separation `g > 0`; `None` when no face separates them,
/// which is exactly when `core.rs`'s `polygon_sat` finds them overlapping
/// (the same normals, offsets and dot products: module notes, step 1).
/// A's faces are tried first, from the one B's origin is farthest beyond.
pub(crate) fn separating_face<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> Option<(Face, T)> {
    // As `core.rs`'s `core_sat`: a gap within rounding of zero between cores
    // that touch exactly (`exact.rs`) is no gap.
    float_separating_face(a, b, b_in_a)
        .filter(|&(_, gap)| !touching_within_rounding(a, b, b_in_a, gap))
}

/// [`separating_face`] in floating point.
fn float_separating_face<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> Option<(Face, T)> {
    // A's faces: B's vertices projected on A's normals turned into B's frame.
    let na = a.core_vertex_count();
    let mut i = facing(a, &b_in_a.translation.vector);
    let mut witness = 0;
    for _ in 0..na {
        let n = a.core_axis(i);
        let local = b_in_a.rotation.inverse_transform_vector(&n);
        let offset = (b_in_a.translation.vector - a.core_vertex(i).coords).dot(&n);
        if let Some((j, g)) = beyond(b, &local, offset, &mut witness) {
            return Some((Face::OfA { i, j }, g));
        }
        i = next(i, na);
    }
    // B's faces, in B's frame.
    let a_in_b = b_in_a.inverse();
    let mut witness = 0;
    for j in 0..b.core_vertex_count() {
        let n = b.core_axis(j);
        let local = a_in_b.rotation.inverse_transform_vector(&n);
        let offset = (a_in_b.translation.vector - b.core_vertex(j).coords).dot(&n);
        if let Some((i, g)) = beyond(a, &local, offset, &mut witness) {
            return Some((Face::OfB { i, j }, g));
        }
    }
    None
}

/// The closest pair of two cores apart, found by [`descent`] (A's frame).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Closest<T: Real> {
    /// The point of A.
    pub(crate) pa: Point2<T>,
    /// The point of B.
    pub(crate) pb: Point2<T>,
    /// The unit direction from A towards B and the distance, from the edge
    /// holding one of the points strictly inside (its stored normal); `None`
    /// when both points are vertices, or the vertex is not strictly beyond
    /// the edge's line by rounding.
    pub(crate) by_edge: Option<(Vector2<T>, T)>,
}

/// The closest pair of two cores with outward unit edge normals (at least
/// three vertices each, strictly convex, counter-clockwise) that `face`
/// separates: steps 2 and 3 of the module notes. `None` when the walk has
/// not settled within `n + m` steps (rounding; the caller then walks round
/// the whole difference).
pub(crate) fn descent<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    face: Face,
) -> Option<Closest<T>> {
    let vb = |j: usize| b_in_a * b.core_vertex(j);
    // The start edge, from the vertex `bⱼ − aᵢ` of D, forward.
    let (i, j, on_a) = match face {
        Face::OfA { i, j } => (i, j, true),
        Face::OfB { i, j } => (i, j, false),
    };
    let (pa, pb) = (a.core_vertex(i), vb(j));
    let (e0, e, v) = if on_a {
        (pa, a.core_vertex(next(i, a.core_vertex_count())) - pa, pb)
    } else {
        (
            pb,
            b_in_a.rotation * (b.core_vertex(next(j, b.core_vertex_count())) - b.core_vertex(j)),
            pa,
        )
    };
    let num = (v - e0).dot(&e);
    let ee = e.norm_squared();
    if num < T::zero() {
        // Nearest at or before the start vertex: back from it.
        return walk(a, b, b_in_a, (i, pa), (j, pb), false);
    }
    if num >= ee {
        // Nearest at or after the end vertex: on from it.
        return if on_a {
            let k = next(i, a.core_vertex_count());
            walk(a, b, b_in_a, (k, a.core_vertex(k)), (j, pb), true)
        } else {
            let l = next(j, b.core_vertex_count());
            walk(a, b, b_in_a, (i, pa), (l, vb(l)), true)
        };
    }
    Some(on_edge(
        a,
        b,
        b_in_a,
        (pa, pb),
        (e0, e, v),
        (num, ee),
        on_a,
        if on_a { i } else { j },
    ))
}

/// The next vertex of a core of `count` vertices.
#[inline]
fn next(k: usize, count: usize) -> usize {
    if k + 1 == count { 0 } else { k + 1 }
}

/// The previous vertex.
#[inline]
fn prev(k: usize, count: usize) -> usize {
    if k == 0 { count - 1 } else { k - 1 }
}

/// The answer on a polygon edge from `e0` along `e`, whose point nearest the
/// other core's vertex `v` is at `t = num / ee` in `[0, 1)` (`pa`, `pb` the
/// pair of vertices at `t = 0`); `edge` is the edge's index in its core
/// (A's when `of_a`).
#[allow(clippy::too_many_arguments)]
#[inline]
fn on_edge<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    (pa, pb): (Point2<T>, Point2<T>),
    (e0, e, v): (Point2<T>, Vector2<T>, Point2<T>),
    (num, ee): (T, T),
    of_a: bool,
    edge: usize,
) -> Closest<T> {
    if num.partial_cmp(&T::zero()).is_none_or(Ordering::is_le) {
        return Closest {
            pa,
            pb,
            by_edge: None,
        };
    }
    let foot = e0 + e * (num / ee);
    // The polygon edge's outward unit normal, and the vertex's height above
    // its line.
    let m = if of_a {
        a.core_axis(edge)
    } else {
        b_in_a.rotation * b.core_axis(edge)
    };
    let side = (v - e0).dot(&m);
    let by_edge = (side > T::zero()).then_some((if of_a { m } else { -m }, side));
    let (pa, pb) = if of_a { (foot, v) } else { (v, foot) };
    Closest { pa, pb, by_edge }
}

/// Step 3 of the module notes from the vertex `bⱼ − aₖ` of D (`pa = aₖ`,
/// `pb = bⱼ` in A's frame), which is the nearest point of the edge the walk
/// came along: on round D (`forward`, counter-clockwise) or back, one edge
/// at a time, until an edge's nearest point is its start (that vertex is
/// D's nearest point) or inside it (the foot is).
fn walk<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    (mut k, mut pa): (usize, Point2<T>),
    (mut j, mut pb): (usize, Point2<T>),
    forward: bool,
) -> Option<Closest<T>> {
    let (na, nb) = (a.core_vertex_count(), b.core_vertex_count());
    let step_a = |k: usize| if forward { next(k, na) } else { prev(k, na) };
    let step_b = |j: usize| if forward { next(j, nb) } else { prev(j, nb) };
    // The two edges out of the vertex, the way the walk goes: A's edge
    // `aₖ → aₖ±₁` (D's edge runs along its reverse) and B's `bⱼ → bⱼ±₁`.
    let mut ea = a.core_vertex(step_a(k)) - pa;
    let mut fb = b_in_a.rotation * (b.core_vertex(step_b(j)) - b.core_vertex(j));
    for _ in 0..na + nb {
        // B's edge comes first when A's reversed edge turns after it:
        // counter-clockwise going on, clockwise going back (ties: A's edge
        // first going on, B's going back, so that both ways meet the same
        // sequence).
        let turn = fb.perp(&ea);
        let take_b = if forward {
            turn < T::zero()
        } else {
            turn >= T::zero()
        };
        // Along D's edge from the vertex: `t = num / ee`.
        let (num, ee) = if take_b {
            ((pa - pb).dot(&fb), fb.norm_squared())
        } else {
            ((pb - pa).dot(&ea), ea.norm_squared())
        };
        if num >= ee {
            // Its far end is nearer: on to it.
            if take_b {
                j = step_b(j);
                pb = b_in_a * b.core_vertex(j);
                fb = b_in_a.rotation * (b.core_vertex(step_b(j)) - b.core_vertex(j));
            } else {
                k = step_a(k);
                pa = a.core_vertex(k);
                ea = a.core_vertex(step_a(k)) - pa;
            }
            continue;
        }
        // `t < 1`: the vertex (`t ≤ 0`) or the foot on this edge. Going
        // back, the polygon edge runs from the far end.
        return Some(if take_b {
            let edge = if forward { j } else { step_b(j) };
            on_edge(a, b, b_in_a, (pa, pb), (pb, fb, pa), (num, ee), false, edge)
        } else {
            let edge = if forward { k } else { step_a(k) };
            on_edge(a, b, b_in_a, (pa, pb), (pa, ea, pb), (num, ee), true, edge)
        });
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sat::core_intersects;
    use nalgebra::Vector2;
    use proptest::prelude::*;
    use shape::testing::{cases, test_tolerance};
    use shape::{ConvexPolygon, Triangle};

    /// Points on an ellipse at sorted random angles, hulled (3 to 16
    /// vertices: the small polygons the descent serves; `linear.rs`'s tests
    /// build big ones with it).
    pub(crate) fn polygon<T: Real>(
        angles: &[f64],
        r: f64,
        squash: f64,
    ) -> Option<ConvexPolygon<T>> {
        let mut t = angles.to_vec();
        t.sort_by(f64::total_cmp);
        let pts: Vec<Point2<T>> = t
            .iter()
            .map(|a| Point2::new(T::lit(r * a.cos()), T::lit(r * squash * a.sin())))
            .collect();
        ConvexPolygon::from_hull(&pts).ok()
    }

    fn angles() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(0.0..core::f64::consts::TAU, 3..=16)
    }

    fn pose<T: Real>(x: f64, y: f64, turn: f64) -> Isometry2<T> {
        Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(turn))
    }

    /// The cores' distance by brute force over every (vertex, edge) pair,
    /// in f64 on the cores' own numbers (B's vertices moved by `b_in_a` in
    /// f64).
    pub(crate) fn brute<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
        a: &A,
        b: &B,
        m: &Isometry2<T>,
    ) -> f64 {
        let f = |p: Point2<T>| Point2::new(p.x.as_f64(), p.y.as_f64());
        let m = Isometry2::new(
            Vector2::new(m.translation.x.as_f64(), m.translation.y.as_f64()),
            m.rotation.im.as_f64().atan2(m.rotation.re.as_f64()),
        );
        let av: Vec<Point2<f64>> = (0..a.core_vertex_count())
            .map(|i| f(a.core_vertex(i)))
            .collect();
        let bv: Vec<Point2<f64>> = (0..b.core_vertex_count())
            .map(|j| m * f(b.core_vertex(j)))
            .collect();
        let to_edges = |p: &Point2<f64>, vs: &[Point2<f64>]| {
            (0..vs.len())
                .map(|i| {
                    let q =
                        shape::dim2::closest_point_on_segment(&vs[i], &vs[(i + 1) % vs.len()], p);
                    (q - p).norm()
                })
                .fold(f64::INFINITY, f64::min)
        };
        av.iter()
            .map(|p| to_edges(p, &bv))
            .chain(bv.iter().map(|q| to_edges(q, &av)))
            .fold(f64::INFINITY, f64::min)
    }

    /// The descent's pair for cores `separating_face` finds apart: settled
    /// without the fallback, its points on the cores, as far apart as the
    /// brute force's distance, and the edge's distance and direction agree
    /// with the points.
    fn check_apart<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
        a: &A,
        b: &B,
        m: &Isometry2<T>,
        scale: f64,
    ) -> Result<(), TestCaseError> {
        let Some((face, gap)) = separating_face(a, b, m) else {
            return Ok(());
        };
        let tol = 4.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
        let c = descent(a, b, m, face);
        prop_assert!(c.is_some(), "the descent did not settle");
        let c = c.unwrap();
        let d = (c.pb - c.pa).norm().as_f64();
        let reference = brute(a, b, m);
        prop_assert!(
            (d - reference).abs() <= tol,
            "descent {d}, brute force {reference}"
        );
        prop_assert!(
            gap.as_f64() <= reference + tol,
            "gap {gap:?} beyond {reference}"
        );
        // The points lie on the cores: their distance to the other core's
        // brute force from each point is the distance.
        if let Some((n, dist)) = c.by_edge {
            prop_assert!(
                (dist.as_f64() - d).abs() <= tol,
                "edge distance {dist:?}, points {d}"
            );
            let along = (c.pb - c.pa).dot(&n).as_f64();
            prop_assert!(
                (along - d).abs() <= tol,
                "direction off: {along} along it, {d}"
            );
            prop_assert!((n.norm().as_f64() - 1.0).abs() <= tol);
        }
        Ok(())
    }

    fn polygons<T: Real>(
        ta: &[f64],
        tb: &[f64],
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let (Some(a), Some(b)) = (polygon::<T>(ta, 1.0, 0.6), polygon::<T>(tb, 1.5, 0.4)) else {
            return Ok(());
        };
        let m = pose::<T>(x, y, turn);
        // Exactly when the separating-axis pass finds them overlapping.
        prop_assert_eq!(
            separating_face(&a, &b, &m).is_none(),
            core_intersects(&a, &b, &m)
        );
        prop_assert_eq!(
            separating_face(&b, &a, &m.inverse()).is_none(),
            core_intersects(&b, &a, &m.inverse())
        );
        check_apart(&a, &b, &m, 4.0 + x.abs() + y.abs())?;
        check_apart(&b, &a, &m.inverse(), 4.0 + x.abs() + y.abs())?;
        // Moved along the closest pair's line until they touch to rounding:
        // the decision still agrees, either way.
        if let Some((face, _)) = separating_face(&a, &b, &m) {
            let c = descent(&a, &b, &m, face).unwrap();
            let shift = c.pb - c.pa;
            let touching = Isometry2::from_parts((m.translation.vector - shift).into(), m.rotation);
            prop_assert_eq!(
                separating_face(&a, &b, &touching).is_none(),
                core_intersects(&a, &b, &touching)
            );
            check_apart(&a, &b, &touching, 4.0 + x.abs() + y.abs())?;
        }
        Ok(())
    }

    fn triangles<T: Real>(
        t: [f64; 3],
        tb: &[f64],
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let c = |u: f64| Point2::new(T::lit(u.cos()), T::lit(0.7 * u.sin()));
        let (Ok(a), Some(b)) = (
            Triangle::new(c(t[0]), c(t[0] + t[1]), c(t[0] + t[1] + t[2])),
            polygon::<T>(tb, 1.2, 0.5),
        ) else {
            return Ok(());
        };
        let m = pose::<T>(x, y, turn);
        prop_assert_eq!(
            separating_face(&a, &b, &m).is_none(),
            core_intersects(&a, &b, &m)
        );
        check_apart(&a, &b, &m, 4.0 + x.abs() + y.abs())?;
        check_apart(&b, &a, &m.inverse(), 4.0 + x.abs() + y.abs())?;
        check_apart(&a, &a, &m, 4.0 + x.abs() + y.abs())
    }

    fn offsets() -> impl Strategy<Value = (f64, f64, f64)> {
        (-5.0f64..5.0, -5.0f64..5.0, -3.2f64..3.2)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(256)))]

        /// Apart exactly when the separating-axis pass says so; apart, the
        /// descent's pair is the brute force's over all (vertex, edge)
        /// pairs, from both sides, and when moved to touch.
        #[test]
        fn descent_matches_brute_force(ta in angles(), tb in angles(), o in offsets()) {
            polygons::<f64>(&ta, &tb, o)?;
            polygons::<f32>(&ta, &tb, o)?;
        }

        /// The same for a triangle against a polygon and against itself.
        #[test]
        fn triangles_match_brute_force(t in [0.0f64..6.3, 0.3f64..2.8, 0.3f64..2.8], tb in angles(), o in offsets()) {
            prop_assume!(t[1] + t[2] < 5.9);
            triangles::<f64>(t, &tb, o)?;
            triangles::<f32>(t, &tb, o)?;
        }
    }

    /// Squares touching along an edge, at a corner, and a hair apart, at
    /// exactly representable coordinates.
    #[test]
    fn touching_squares() {
        fn check<T: Real>() {
            let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
            let s =
                ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]).unwrap();
            for (x, y, hit) in [
                (1.0, 0.5, true),
                (1.0, 1.0, true),
                (1.0 + 1.0 / 1024.0, 0.5, false),
                (-1.0, -1.0, true),
            ] {
                let m = pose::<T>(x, y, 0.0);
                assert_eq!(separating_face(&s, &s, &m).is_none(), hit, "{x} {y}");
                assert_eq!(core_intersects(&s, &s, &m), hit);
            }
            let m = pose::<T>(1.0 + 1.0 / 1024.0, 0.5, 0.0);
            let (face, gap) = separating_face(&s, &s, &m).unwrap();
            let c = descent(&s, &s, &m, face).unwrap();
            assert_eq!(gap, T::lit(1.0 / 1024.0));
            assert_eq!(c.by_edge, Some((Vector2::x(), T::lit(1.0 / 1024.0))));
            assert_eq!((c.pa.x, c.pb.x), (T::one(), T::lit(1.0 + 1.0 / 1024.0)));
        }
        check::<f32>();
        check::<f64>();
    }
}
