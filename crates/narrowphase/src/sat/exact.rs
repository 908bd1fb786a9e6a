//! Exact touching: whether two closed convex cores (points, segments or
//! polygons without radius) share a point, decided with exact orientation
//! predicates on their coordinates.
//!
//! The separating-axis tests decide with unit normals and dot products, which
//! round: two triangles that share a vertex exactly can come out separated by
//! `1e-17`. Where a test finds the cores apart by no more than its rounding
//! ([`touch_bound`]), this module decides instead, exactly. Two closed convex
//! sets meet exactly when a vertex of one lies in the other or an edge of one
//! crosses an edge of the other (if neither holds, the boundaries do not meet
//! and neither set holds the other). Each of these is a sign of Shewchuk's
//! orientation determinant `orient2d`, evaluated exactly by adaptive-precision
//! arithmetic (the `robust` crate; Shewchuk, *Adaptive Precision
//! Floating-Point Arithmetic and Fast Robust Geometric Predicates*, 1997) on
//! the coordinates converted to `f64`, which is exact for both precisions.
//!
//! The coordinates are those of both cores in A's frame: A's as stored, B's
//! moved by `b_in_a`. When the poses are translations by representable
//! amounts and the sums are representable (integer coordinates, tile maps,
//! scene files with exact local origins), B's moved coordinates are exact too,
//! so shared vertices, shared edges and tile seams touch in both precisions.
//! Otherwise the predicate is exact on the rounded coordinates, which is as
//! good as the input allows.
//!
//! Cost: `O(n·m)` predicates, each one or two multiplications in the common
//! case (the adaptive stages run only when the sign is in doubt); called only
//! when a float test finds a gap within rounding of zero.

use nalgebra::{Isometry2, Point2};
use robust::{Coord, orient2d};
use shape::Real;
use shape::tolerance::touch_rounding;

use crate::polygonal::{Polygonal, abs_max, larger};

/// How far apart a float separating-axis test may find two cores that touch
/// exactly: [`touch_rounding`] (`64 ε`) times the largest coordinate
/// involved (A's core, B's core and the translation between them), covering
/// the unit normals' rounding and the dot products'. A gap above this is a
/// true gap.
#[inline]
pub(crate) fn touch_bound<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> T {
    let scale = larger(
        a.core_extent(),
        b.core_extent() + abs_max(&b_in_a.translation.vector),
    );
    touch_rounding::<T>() * scale
}

/// Whether the float test's `gap` (positive: the cores found apart) is within
/// rounding of zero and the cores touch exactly.
#[inline]
pub(crate) fn touching_within_rounding<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    gap: T,
) -> bool {
    gap <= touch_bound(a, b, b_in_a) && cores_meet(a, b, b_in_a)
}

fn coord<T: Real>(p: Point2<T>) -> Coord<f64> {
    Coord {
        x: p.x.as_f64(),
        y: p.y.as_f64(),
    }
}

/// Whether the closed cores of A and B (A's frame) share a point, exactly on
/// their coordinates. Cores of three or more vertices are convex and
/// counter-clockwise, as [`Polygonal`] stores them.
#[cold]
pub(crate) fn cores_meet<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> bool {
    let (n, m) = (a.core_vertex_count(), b.core_vertex_count());
    if n == 0 || m == 0 {
        return false;
    }
    let pa = |i: usize| coord(a.core_vertex(i));
    let pb = |j: usize| coord(b_in_a * b.core_vertex(j));
    (0..n).any(|i| contains(&pb, m, pa(i)))
        || (0..m).any(|j| contains(&pa, n, pb(j)))
        || edges_cross(&pa, n, &pb, m)
}

/// Whether the closed core with vertices `v(0..count)` holds `x`.
fn contains(v: &impl Fn(usize) -> Coord<f64>, count: usize, x: Coord<f64>) -> bool {
    match count {
        1 => {
            let p = v(0);
            p.x == x.x && p.y == x.y
        }
        2 => on_segment(v(0), v(1), x),
        _ => (0..count).all(|i| orient2d(v(i), v(next(i, count)), x) >= 0.0),
    }
}

/// Whether `x` lies on the closed segment `pq`.
fn on_segment(p: Coord<f64>, q: Coord<f64>, x: Coord<f64>) -> bool {
    orient2d(p, q, x) == 0.0
        && x.x >= p.x.min(q.x)
        && x.x <= p.x.max(q.x)
        && x.y >= p.y.min(q.y)
        && x.y <= p.y.max(q.y)
}

/// Whether an edge of one core crosses an edge of the other at a point
/// interior to both (the touching cases, an end point on the other edge,
/// are the containment tests').
fn edges_cross(
    pa: &impl Fn(usize) -> Coord<f64>,
    n: usize,
    pb: &impl Fn(usize) -> Coord<f64>,
    m: usize,
) -> bool {
    let edges = |count: usize| match count {
        0 | 1 => 0,
        2 => 1,
        c => c,
    };
    (0..edges(n)).any(|i| {
        let (p, q) = (pa(i), pa(next(i, n)));
        (0..edges(m)).any(|j| {
            let (r, s) = (pb(j), pb(next(j, m)));
            opposite(orient2d(p, q, r), orient2d(p, q, s))
                && opposite(orient2d(r, s, p), orient2d(r, s, q))
        })
    })
}

fn opposite(x: f64, y: f64) -> bool {
    (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0)
}

fn next(i: usize, count: usize) -> usize {
    if i + 1 == count { 0 } else { i + 1 }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry2, Point2, Vector2};
    use shape::{Aabb, Point, Segment, Triangle};

    use super::cores_meet;

    fn p(x: f64, y: f64) -> Point2<f64> {
        Point2::new(x, y)
    }

    #[test]
    fn shared_vertices_edges_and_crossings() {
        let id = Isometry2::identity();
        let t1 = Triangle::new(p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)).unwrap();
        // Sharing only the vertex (1, 0).
        let t2 = Triangle::new(p(1.0, 0.0), p(2.0, 0.0), p(2.0, 1.0)).unwrap();
        assert!(cores_meet(&t1, &t2, &id));
        // Sharing the edge from (1, 0) to (0, 1).
        let t3 = Triangle::new(p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)).unwrap();
        assert!(cores_meet(&t1, &t3, &id));
        // The same triangle moved right by 2^-52: apart.
        let nudge = Isometry2::translation(f64::EPSILON, 0.0);
        assert!(!cores_meet(&t1, &t2, &nudge));
        // Segments crossing at an interior point, and end to end.
        let s1 = Segment::new(p(0.0, 0.0), p(2.0, 2.0)).unwrap();
        let s2 = Segment::new(p(0.0, 2.0), p(2.0, 0.0)).unwrap();
        assert!(cores_meet(&s1, &s2, &id));
        let s3 = Segment::new(p(2.0, 2.0), p(3.0, 7.0)).unwrap();
        assert!(cores_meet(&s1, &s3, &id));
        assert!(!cores_meet(
            &s1,
            &s3,
            &Isometry2::translation(0.0, f64::EPSILON * 2.0)
        ));
        // Collinear segments touching end to end, and a gap.
        let s4 = Segment::new(p(3.0, 3.0), p(5.0, 5.0)).unwrap();
        assert!(cores_meet(&s1, &s4, &Isometry2::translation(-1.0, -1.0)));
        assert!(!cores_meet(&s1, &s4, &id));
        // A box corner on a triangle's vertex, and a point on a box edge.
        let b = Aabb::new(p(-1.0, -1.0), p(0.0, 0.0)).unwrap();
        assert!(cores_meet(&b, &t1, &id));
        let pt = Point::new(p(0.0, 0.0)).unwrap();
        assert!(cores_meet(
            &b,
            &pt,
            &Isometry2::new(Vector2::new(-0.5, 0.0), 0.0)
        ));
        assert!(!cores_meet(
            &b,
            &pt,
            &Isometry2::new(Vector2::new(-0.5, 1e-300), 0.0)
        ));
    }
}
