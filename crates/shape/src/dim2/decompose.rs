//! Convex decomposition of a simple polygon: the building block of concave
//! level geometry (a cave wall, a hill, a building's outline).
//!
//! [`convex_decomposition`] splits a simple polygon (any vertex count, either
//! winding, no holes) into convex polygons whose union is the polygon and
//! whose interiors are disjoint; each part is a validated [`ConvexPolygon`]
//! whose vertices are input vertices.
//!
//! # Method
//!
//! 1. **Validation**, every error naming an input index: the count and
//!    finiteness as for any polygon, a vertex repeating the one before it, a
//!    vertex on the line through its neighbours (the tolerance of
//!    [`ConvexPolygon::new`]), and any two edges that are not neighbours
//!    touching or crossing ([`ShapeError::EdgesCross`]), decided by exact
//!    orientation predicates (Shewchuk's adaptive `orient2d` on the input
//!    numbers, exact for every finite `f32` and `f64` input), so that a
//!    polygon accepted here is simple without any tolerance.
//! 2. **Triangulation by ear clipping** (Meisters' two-ears theorem: every
//!    simple polygon with more than three vertices has two non-overlapping
//!    ears, so the clipping always finds one): a vertex is an ear when it
//!    turns left and no other remaining vertex lies in the closed triangle
//!    it spans with its neighbours (exact predicates again). `O(n²)` tests
//!    at most per ear, `O(n³)` worst case, `O(n²)` for the polygons levels
//!    are made of.
//! 3. **Merging** (Hertel and Mehlhorn, 1983): every diagonal of the
//!    triangulation whose removal leaves both of its end vertices convex is
//!    removed, merging the two parts across it. The result has at most
//!    `2r + 1` parts for `r` reflex vertices (each reflex vertex keeps at most
//!    two essential diagonals) and at most four times the optimum. A merge is
//!    accepted only when [`ConvexPolygon::new`] accepts the merged part, so
//!    every part is a valid convex polygon by the same rules as any other.
//!
//! References: G. H. Meisters, "Polygons have ears", *Amer. Math. Monthly*
//! 82 (1975); S. Hertel and K. Mehlhorn, "Fast triangulation of simple
//! polygons", FCT 1983; J. R. Shewchuk, "Adaptive precision floating-point
//! arithmetic and fast robust geometric predicates" (1997).
//!
//! ```
//! use nalgebra::Point2;
//! use shape::dim2::convex_decomposition;
//!
//! // An L: one reflex corner, two convex parts.
//! let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]
//!     .map(|(x, y)| Point2::new(x, y));
//! let parts = convex_decomposition::<f64>(&l).unwrap();
//! assert_eq!(parts.len(), 2);
//! let area: f64 = parts.iter().map(|p| p.area()).sum();
//! assert_eq!(area, 3.0);
//! ```

use alloc::vec::Vec;

use nalgebra::Point2;

use super::ConvexPolygon;
use super::polygonal::{check_vertices, is_collinear};
use crate::{Real, ShapeError};

/// The exact orientation of `a → b → c`: positive for a left turn, negative
/// for a right turn, zero when collinear.
#[inline]
pub(crate) fn orient(a: &Point2<f64>, b: &Point2<f64>, c: &Point2<f64>) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// Whether the closed segments `p1p2` and `q1q2` share a point (exact).
fn segments_meet(p1: &Point2<f64>, p2: &Point2<f64>, q1: &Point2<f64>, q2: &Point2<f64>) -> bool {
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Touching: an end on the other segment (collinear and within its box).
    let on = |a: &Point2<f64>, b: &Point2<f64>, p: &Point2<f64>, d: f64| {
        d == 0.0
            && p.x >= a.x.min(b.x)
            && p.x <= a.x.max(b.x)
            && p.y >= a.y.min(b.y)
            && p.y <= a.y.max(b.y)
    };
    on(q1, q2, p1, d1) || on(q1, q2, p2, d2) || on(p1, p2, q1, d3) || on(p1, p2, q2, d4)
}

/// Whether `p` lies in the closed triangle `a, b, c` (counter-clockwise).
fn in_triangle(a: &Point2<f64>, b: &Point2<f64>, c: &Point2<f64>, p: &Point2<f64>) -> bool {
    orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0
}

/// Splits a simple polygon into convex parts (see the [module
/// documentation](self) for the method and its guarantees).
///
/// The vertices may wind either way; each part is counter-clockwise, made of
/// input vertices, and the parts' union is the polygon.
///
/// # Errors
/// [`ShapeError::TooFewVertices`], [`ShapeError::NonFiniteVertex`] and
/// [`ShapeError::TooLarge`] as for [`ConvexPolygon::new`];
/// [`ShapeError::DuplicateVertex`] for a vertex equal to the one before it;
/// [`ShapeError::CollinearVertices`] for a vertex on the line through its
/// neighbours; [`ShapeError::EdgesCross`] when two edges that are not
/// neighbours touch or cross (the polygon is not simple);
/// [`ShapeError::DegeneratePart`] in the rare case where a part of the
/// triangulation is too thin to be a valid convex polygon and no merge
/// absorbs it.
pub fn convex_decomposition<T: Real>(
    vertices: &[Point2<T>],
) -> Result<Vec<ConvexPolygon<T>>, ShapeError> {
    check_vertices(vertices, 3)?;
    let n = vertices.len();
    for i in 0..n {
        if vertices[i] == vertices[(i + n - 1) % n] {
            return Err(ShapeError::DuplicateVertex { index: i });
        }
    }
    for i in 0..n {
        if is_collinear(
            &vertices[(i + n - 1) % n],
            &vertices[i],
            &vertices[(i + 1) % n],
        ) {
            return Err(ShapeError::CollinearVertices { index: i });
        }
    }
    // Every predicate below on the exact input numbers (f32 widens exactly).
    let p: Vec<Point2<f64>> = vertices
        .iter()
        .map(|v| Point2::new(v.x.as_f64(), v.y.as_f64()))
        .collect();
    check_simple(&p)?;

    // Counter-clockwise order of input indices. The lowest (then leftmost)
    // vertex is convex, so the turn there gives the winding exactly.
    let low = (0..n)
        .min_by(|&i, &j| {
            (p[i].y, p[i].x)
                .partial_cmp(&(p[j].y, p[j].x))
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let ccw = orient(&p[(low + n - 1) % n], &p[low], &p[(low + 1) % n]) > 0.0;
    let order: Vec<usize> = if ccw {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };

    // An ear whose triangle `ConvexPolygon::new` would refuse in `T` (three
    // nearly aligned vertices) is clipped only when no other ear is left.
    let fine = |a: usize, b: usize, c: usize| {
        let (a, b, c) = (&vertices[a], &vertices[b], &vertices[c]);
        !(is_collinear(a, b, c) || is_collinear(b, c, a) || is_collinear(c, a, b))
    };
    merge(&p, ear_clip(&p, order, fine), vertices)
}

/// [`ShapeError::EdgesCross`] for the first two non-neighbouring edges that
/// share a point. `O(n²)`.
fn check_simple(p: &[Point2<f64>]) -> Result<(), ShapeError> {
    let n = p.len();
    for i in 0..n {
        let (a1, a2) = (&p[i], &p[(i + 1) % n]);
        for j in i + 1..n {
            // Neighbours share an end by construction; their other contact
            // (folding back over each other) is a collinear vertex, refused
            // above. A triangle's edges are all neighbours.
            if j == i + 1 || (i == 0 && j == n - 1) {
                continue;
            }
            if segments_meet(a1, a2, &p[j], &p[(j + 1) % n]) {
                return Err(ShapeError::EdgesCross { edge: i, other: j });
            }
        }
    }
    Ok(())
}

/// Ear clipping of a simple counter-clockwise polygon given by `order`
/// (indices into `p`): the triangles, each counter-clockwise. The first ear
/// from where the last was clipped whose triangle is `fine` (a valid convex
/// polygon in the caller's precision) is clipped, else the first ear: a
/// sliver ear left for later is usually absorbed, while one clipped early
/// can leave a part that no merge makes valid.
fn ear_clip(
    p: &[Point2<f64>],
    mut order: Vec<usize>,
    fine: impl Fn(usize, usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut parts = Vec::with_capacity(order.len().saturating_sub(2));
    let mut start = 0;
    while order.len() > 3 {
        let m = order.len();
        let corners = |k: usize| (order[(k + m - 1) % m], order[k], order[(k + 1) % m]);
        let is_ear = |k: usize| {
            let (a, b, c) = corners(k);
            orient(&p[a], &p[b], &p[c]) > 0.0
                && !order
                    .iter()
                    .any(|&v| v != a && v != b && v != c && in_triangle(&p[a], &p[b], &p[c], &p[v]))
        };
        let mut first = None;
        let ear = (0..m)
            .map(|step| (start + step) % m)
            .filter(|&k| is_ear(k))
            .find(|&k| {
                first.get_or_insert(k);
                let (a, b, c) = corners(k);
                fine(a, b, c)
            })
            .or(first);
        let Some(k) = ear else {
            // Unreachable for a simple polygon (two-ears theorem); rather than
            // loop, the rest goes on as one part, which the merge step
            // validates (a typed error if it is not convex).
            break;
        };
        parts.push(alloc::vec![
            order[(k + m - 1) % m],
            order[k],
            order[(k + 1) % m]
        ]);
        order.remove(k);
        // Resume near the clipped ear: its neighbours changed.
        start = k.saturating_sub(1);
    }
    parts.push(order);
    parts
}

/// Hertel–Mehlhorn merging of the triangles across the diagonals whose
/// removal keeps both ends convex, each merge validated as a convex polygon.
fn merge<T: Real>(
    p: &[Point2<f64>],
    mut parts: Vec<Vec<usize>>,
    vertices: &[Point2<T>],
) -> Result<Vec<ConvexPolygon<T>>, ShapeError> {
    let mut alive: Vec<bool> = alloc::vec![true; parts.len()];
    // Repeat over every pair of live parts sharing an edge until no merge
    // applies (each merge removes a part, so at most `parts` rounds).
    loop {
        let mut merged_any = false;
        for i in 0..parts.len() {
            if !alive[i] {
                continue;
            }
            for j in i + 1..parts.len() {
                if !alive[j] {
                    continue;
                }
                let Some(union) = union_across_diagonal(&parts[i], &parts[j]) else {
                    continue;
                };
                if !convex_at_all(p, &union) {
                    continue;
                }
                let points: Vec<Point2<T>> = union.iter().map(|&v| vertices[v]).collect();
                if ConvexPolygon::new(&points).is_err() {
                    continue;
                }
                parts[i] = union;
                alive[j] = false;
                merged_any = true;
            }
        }
        if !merged_any {
            break;
        }
    }
    parts
        .iter()
        .zip(&alive)
        .filter(|(_, a)| **a)
        .map(|(part, _)| {
            let points: Vec<Point2<T>> = part.iter().map(|&v| vertices[v]).collect();
            ConvexPolygon::new(&points).map_err(|_| ShapeError::DegeneratePart {
                vertex: part.iter().copied().min().unwrap_or(0),
            })
        })
        .collect()
}

/// Whether every vertex of the counter-clockwise polygon turns left (exact).
fn convex_at_all(p: &[Point2<f64>], poly: &[usize]) -> bool {
    let m = poly.len();
    (0..m).all(|k| {
        orient(
            &p[poly[(k + m - 1) % m]],
            &p[poly[k]],
            &p[poly[(k + 1) % m]],
        ) > 0.0
    })
}

/// The union of two counter-clockwise parts that share an edge (`u → v` in
/// one, `v → u` in the other), as one counter-clockwise cycle; `None` when
/// they share no edge.
fn union_across_diagonal(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let (na, nb) = (a.len(), b.len());
    for i in 0..na {
        let (u, v) = (a[i], a[(i + 1) % na]);
        for j in 0..nb {
            if b[j] == v && b[(j + 1) % nb] == u {
                // a from v round to u (dropping the edge u → v), then b from
                // u round to v, without repeating u and v.
                let mut out = Vec::with_capacity(na + nb - 2);
                for k in 0..na {
                    out.push(a[(i + 1 + k) % na]);
                }
                for k in 2..nb {
                    out.push(b[(j + k) % nb]);
                }
                return Some(out);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    fn pts<T: Real>(xy: &[(f64, f64)]) -> Vec<Point2<T>> {
        xy.iter()
            .map(|&(x, y)| Point2::new(T::lit(x), T::lit(y)))
            .collect()
    }

    fn total_area<T: Real>(parts: &[ConvexPolygon<T>]) -> f64 {
        parts.iter().map(|p| p.area().as_f64()).sum()
    }

    fn known_shapes<T: Real>() {
        // A square stays one part, either winding.
        let square = pts::<T>(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        assert_eq!(convex_decomposition(&square).unwrap().len(), 1);
        let mut cw = square.clone();
        cw.reverse();
        assert_eq!(convex_decomposition(&cw).unwrap().len(), 1);

        // A U (two reflex corners): two or three parts, area 9 − 2.
        let u = pts::<T>(&[
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 3.0),
            (2.0, 3.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 3.0),
            (0.0, 3.0),
        ]);
        let parts = convex_decomposition(&u).unwrap();
        assert!(parts.len() <= 3 && parts.len() >= 2, "{}", parts.len());
        assert_eq!(total_area(&parts), 7.0);

        // A comb with 10 teeth: 2 reflex corners per gap.
        let mut comb = vec![(0.0, 0.0), (19.0, 0.0)];
        for t in (0..10).rev() {
            let x = f64::from(t) * 2.0;
            comb.push((x + 1.0, 3.0));
            comb.push((x, 3.0));
            if t > 0 {
                comb.push((x, 1.0));
                comb.push((x - 1.0, 1.0));
            }
        }
        let comb = pts::<T>(&comb);
        let parts = convex_decomposition(&comb).unwrap();
        assert_eq!(total_area(&parts), 19.0 + 10.0 * 2.0);
        assert!(parts.len() <= 2 * 18 + 1);
    }
    for_each_precision!(known_shapes_cases, known_shapes);

    /// A 400-vertex star, every other vertex reflex: the area is the sum of
    /// its 400 triangles about the centre, and the parts obey `2r + 1`.
    fn many_vertices<T: Real>() {
        let n = 400;
        let v: Vec<Point2<T>> = (0..n)
            .map(|i| {
                let (c, s) =
                    crate::math::cos_sin(f64::from(i) * core::f64::consts::TAU / f64::from(n));
                let r = if i % 2 == 0 { 10.0 } else { 6.0 };
                Point2::new(T::lit(r * c), T::lit(r * s))
            })
            .collect();
        let parts = convex_decomposition(&v).unwrap();
        let exact: f64 = (0..v.len())
            .map(|i| {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                (a.x.as_f64() * b.y.as_f64() - a.y.as_f64() * b.x.as_f64()) / 2.0
            })
            .sum();
        let tol = if T::epsilon().as_f64() > 1e-10 {
            1e-2
        } else {
            1e-9
        };
        assert!(
            (total_area(&parts) - exact).abs() <= tol,
            "{} {exact}",
            total_area(&parts)
        );
        assert!(parts.len() <= 2 * 200 + 1, "{}", parts.len());
    }
    for_each_precision!(many_vertices_cases, many_vertices);

    fn bad_input<T: Real>() {
        let bowtie = pts::<T>(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(
            convex_decomposition(&bowtie).unwrap_err(),
            ShapeError::EdgesCross { edge: 0, other: 2 }
        );
        // A vertex touching a non-neighbouring edge.
        let touch = pts::<T>(&[(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 0.0), (0.0, 2.0)]);
        assert!(matches!(
            convex_decomposition(&touch).unwrap_err(),
            ShapeError::EdgesCross { .. }
        ));
        let straight = pts::<T>(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 1.0)]);
        assert_eq!(
            convex_decomposition(&straight).unwrap_err(),
            ShapeError::CollinearVertices { index: 1 }
        );
        let repeated = pts::<T>(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
        assert_eq!(
            convex_decomposition(&repeated).unwrap_err(),
            ShapeError::DuplicateVertex { index: 2 }
        );
        let mut nan = pts::<T>(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
        nan[1].y = T::nan();
        assert_eq!(
            convex_decomposition(&nan).unwrap_err(),
            ShapeError::NonFiniteVertex { index: 1 }
        );
        assert_eq!(
            convex_decomposition(&pts::<T>(&[(0.0, 0.0), (1.0, 0.0)])).unwrap_err(),
            ShapeError::TooFewVertices { count: 2, min: 3 }
        );
    }
    for_each_precision!(bad_input_cases, bad_input);
}
