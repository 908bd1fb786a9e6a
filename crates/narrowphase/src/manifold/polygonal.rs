//! The 2D manifold of two shapes with cores ([`Polygonal`]): the exact
//! normal and deepest separation of the pair's own kernels, completed by
//! reference/incident clipping (see the [module documentation](super)).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::Real;

use super::{Feature, FeatureId, Manifold, ManifoldPoint};
use crate::polygonal::Polygonal;
use crate::{ClosestPoints, Contact};

/// The exact start of every manifold: the unit normal from A to B, the
/// separation (`−depth`, or the distance when apart) and the pair's two
/// witness points, in A's frame; `None` when the shapes are farther apart
/// than `prediction`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exact<T: Real> {
    pub normal: Unit<Vector2<T>>,
    pub separation: T,
    pub point_a: Point2<T>,
    pub point_b: Point2<T>,
}

/// The exact contact when the shapes intersect, else their exact closest
/// points within `prediction`.
#[inline]
pub(crate) fn exact<T: Real>(
    contact: Option<Contact<T>>,
    closest: impl FnOnce() -> ClosestPoints<T>,
) -> Option<Exact<T>> {
    if let Some(c) = contact {
        return Some(Exact {
            normal: c.normal,
            separation: -c.depth,
            point_a: c.point_a,
            point_b: c.point_b,
        });
    }
    match closest() {
        ClosestPoints::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } => Some(Exact {
            normal,
            separation: distance,
            point_a,
            point_b,
        }),
        // `Intersecting` cannot follow a `None` contact (both kernels decide
        // intersection exactly); no manifold rather than a made-up one.
        ClosestPoints::Intersecting | ClosestPoints::Farther => None,
    }
}

/// The one-point manifold of the exact answer with the given features.
#[inline]
pub(crate) fn single_point<T: Real>(e: &Exact<T>, id: FeatureId) -> Manifold<T> {
    Manifold::new(
        e.normal,
        ManifoldPoint {
            point_a: e.point_a,
            point_b: e.point_b,
            separation: e.separation,
            id,
        },
    )
}

/// A contact is flat (two points) when a face's outward normal is within
/// about 0.8° of the contact normal: `n_face · n ≥ 1 − FLAT` (one minus the
/// cosine of the angle, `≈ θ²/2`). Exact face contacts (the normal of a
/// separating-axis contact *is* a face normal) pass with room to spare in
/// either precision; a rounded shape whose contact normal comes off a vertex
/// region passes only when it is nearly a face contact anyway, where the
/// second point is what a solver wants.
pub(crate) fn flat_tolerance<T: Real>() -> T {
    T::from(1e-4).unwrap_or_else(T::epsilon)
}

/// The ends of face `f` (local frame): vertices `f` and `f + 1`; a segment's
/// both sides run between its two ends.
#[inline]
pub(crate) fn face_ends<T: Real, S: Polygonal<T> + ?Sized>(s: &S, f: usize) -> (usize, usize) {
    let n = s.core_vertex_count();
    if n == 2 {
        if f == 0 { (0, 1) } else { (1, 0) }
    } else {
        (f, if f + 1 == n { 0 } else { f + 1 })
    }
}

/// The face whose outward normal is best aligned with `dir` (shape frame,
/// unit) and that alignment; `None` for a point core.
#[inline]
fn best_face<T: Real, S: Polygonal<T> + ?Sized>(s: &S, dir: &Vector2<T>) -> Option<(usize, T)> {
    s.core_best_face(dir)
}

/// The core vertex farthest along `dir` (shape frame), the first of equals.
fn support_vertex<T: Real, S: Polygonal<T> + ?Sized>(s: &S, dir: &Vector2<T>) -> usize {
    let mut best = 0;
    let mut best_d = s.core_vertex(0).coords.dot(dir);
    for i in 1..s.core_vertex_count() {
        let d = s.core_vertex(i).coords.dot(dir);
        if d > best_d {
            best = i;
            best_d = d;
        }
    }
    best
}

/// The feature of a core that touches along `dir` (the outward direction at
/// the contact, shape frame): the face facing `dir` when the contact is flat
/// on it, else the vertex farthest along `dir`.
pub(crate) fn touching_feature<T: Real, S: Polygonal<T> + ?Sized>(
    s: &S,
    dir: &Vector2<T>,
) -> Feature {
    if let Some((f, align)) = best_face(s, dir) {
        if align >= T::one() - flat_tolerance() {
            return Feature::Edge(index(f));
        }
    }
    Feature::Vertex(index(support_vertex(s, dir)))
}

#[inline]
pub(crate) fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The manifold of two shapes with cores, `b` placed in `a`'s frame by
/// `b_in_a`, given the pair's exact contact and closest-points kernels (the
/// table's own kernels, so the manifold agrees with them bit for bit on the
/// normal and deepest separation). In A's frame; `None` when the shapes are
/// farther apart than `prediction`.
///
/// The table serves these pairs with [`fused_manifold`](super::fused::fused_manifold),
/// which does the same without searching again for what the contact found;
/// this general builder stays as its slower, independent reference (the
/// unit tests of `fused.rs` and `point_core.rs` compare the two).
#[cfg_attr(not(test), allow(dead_code))]
#[inline]
pub(crate) fn polygonal_manifold<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    prediction: T,
    contact: impl FnOnce(&A, &B, &Isometry2<T>) -> Option<Contact<T>>,
    closest: impl FnOnce(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
) -> Option<Manifold<T>> {
    let c = contact(a, b, b_in_a);
    // Shapes that do not intersect are at a positive distance: with no
    // prediction, no manifold (and no closest points to compute).
    if c.is_none() && prediction <= T::zero() {
        return None;
    }
    let e = exact(c, || closest(a, b, b_in_a, prediction))?;
    Some(complete(a, b, b_in_a, prediction, &e))
}

/// Which shape holds the reference face.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reference {
    A,
    B,
}

/// The manifold built on the exact answer `e` (see the module notes).
pub(crate) fn complete<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    prediction: T,
    e: &Exact<T>,
) -> Manifold<T> {
    let n = e.normal.into_inner();
    let rot = b_in_a.rotation;
    // The directions each shape faces at the contact, in its own frame.
    let out_a = n;
    let out_b = rot.inverse_transform_vector(&-n);
    let face_a = best_face(a, &out_a);
    let face_b = best_face(b, &out_b);
    let flat = T::one() - flat_tolerance();

    let single = || {
        single_point(
            e,
            FeatureId {
                a: touching_feature(a, &out_a),
                b: touching_feature(b, &out_b),
            },
        )
    };

    // The reference face: the better aligned of the two, A on a tie; none
    // aligned within the flat tolerance means a corner contact.
    let (reference, ref_face) = match (face_a, face_b) {
        (Some((fa, sa)), Some((fb, sb))) => {
            if sa >= sb {
                (Reference::A, fa)
            } else {
                (Reference::B, fb)
            }
        }
        (Some((fa, _)), None) => (Reference::A, fa),
        (None, Some((fb, _))) => (Reference::B, fb),
        (None, None) => return single(),
    };
    let align = match reference {
        Reference::A => face_a.map_or(T::zero(), |f| f.1),
        Reference::B => face_b.map_or(T::zero(), |f| f.1),
    };
    if align < flat {
        return single();
    }

    // The incident edge: the other shape's face turned most towards the
    // reference shape (it holds that shape's deepest core vertex); a point
    // core has none, and the contact one point.
    let incident = match reference {
        Reference::A => face_b.map(|f| f.0),
        Reference::B => face_a.map(|f| f.0),
    };
    let Some(inc_face) = incident else {
        return single();
    };

    // Everything in A's frame: the reference face's ends, the incident
    // edge's ends, with their vertex indices.
    let (ri, rj, qi, qj) = match reference {
        Reference::A => {
            let (i, j) = face_ends(a, ref_face);
            let (k, l) = face_ends(b, inc_face);
            (i, j, k, l)
        }
        Reference::B => {
            let (i, j) = face_ends(b, ref_face);
            let (k, l) = face_ends(a, inc_face);
            (i, j, k, l)
        }
    };
    let (r1, r2, q1, q2) = match reference {
        Reference::A => (
            a.core_vertex(ri),
            a.core_vertex(rj),
            b_in_a * b.core_vertex(qi),
            b_in_a * b.core_vertex(qj),
        ),
        Reference::B => (
            b_in_a * b.core_vertex(ri),
            b_in_a * b.core_vertex(rj),
            a.core_vertex(qi),
            a.core_vertex(qj),
        ),
    };

    // Heights along n, oriented so that the incident shape's deepest vertex
    // is the lowest: for an incident B, `q · n` (B's deepest is its least);
    // for an incident A, `−q · n`.
    let sign = match reference {
        Reference::A => T::one(),
        Reference::B => -T::one(),
    };
    let h1 = sign * q1.coords.dot(&n);
    let h2 = sign * q2.coords.dot(&n);
    let h_min = if h1 <= h2 { h1 } else { h2 };
    // The incident edge's lowest end must be where the exact answer touches:
    // the incident core's point there (the witness point moved in by the
    // radius) at the same height. A normal the exact kernel could only take
    // from rounding noise (shapes touching up to rounding) may point
    // anywhere; then the exact single point is all there is to trust.
    let witness = match reference {
        Reference::A => e.point_b + n * b.radius(),
        Reference::B => e.point_a - n * a.radius(),
    };
    let h_tol = height_tolerance(&[r1, r2, q1, q2, witness], e.separation);
    if num_traits::Float::abs(sign * witness.coords.dot(&n) - h_min) > h_tol {
        return single();
    }

    // Clip the incident edge to the reference face's extent across n.
    let t = Vector2::new(-n.y, n.x);
    let (tr1, tr2) = (r1.coords.dot(&t), r2.coords.dot(&t));
    let ((lo, lo_vertex), (hi, hi_vertex)) = if tr1 <= tr2 {
        ((tr1, ri), (tr2, rj))
    } else {
        ((tr2, rj), (tr1, ri))
    };
    let (t1, t2) = (q1.coords.dot(&t), q2.coords.dot(&t));

    let (ra, rb) = (a.radius(), b.radius());
    let ref_feature = |f: usize| Feature::Edge(index(f));
    let mut out: Option<Manifold<T>> = None;
    let mut deepest_kept = false;
    for (q, tq, vertex) in [(q1, t1, qi), (q2, t2, qj)] {
        // Clip this end towards the other one when it lies outside.
        let (other, t_other) = if vertex == qi { (q2, t2) } else { (q1, t1) };
        let (p, id_ref, id_inc) = if tq < lo || tq > hi {
            let bound = if tq < lo { lo } else { hi };
            let bound_vertex = if tq < lo { lo_vertex } else { hi_vertex };
            // The other end must lie on the bound's inner side for the edge
            // to cross it.
            let inside = if tq < lo {
                t_other >= lo
            } else {
                t_other <= hi
            };
            if !inside || t_other == tq {
                continue;
            }
            let s = (bound - tq) / (t_other - tq);
            let p = q + (other - q) * s;
            (
                p,
                Feature::Vertex(index(bound_vertex)),
                Feature::Edge(index(inc_face)),
            )
        } else {
            (q, ref_feature(ref_face), Feature::Vertex(index(vertex)))
        };
        let h = sign * p.coords.dot(&n);
        // An end level with the deepest vertex up to rounding (the deepest
        // itself, or a flat edge's end cut at the reference face's end)
        // carries the exact separation.
        let level = h - h_min <= h_tol;
        let separation = if level {
            e.separation
        } else {
            e.separation + (h - h_min)
        };
        if separation > prediction {
            continue;
        }
        deepest_kept |= level;
        let (point_a, point_b, id) = match reference {
            Reference::A => {
                let point_b = p - n * rb;
                (
                    point_b - n * separation,
                    point_b,
                    FeatureId {
                        a: id_ref,
                        b: id_inc,
                    },
                )
            }
            Reference::B => {
                let point_a = p + n * ra;
                (
                    point_a,
                    point_a + n * separation,
                    FeatureId {
                        a: id_inc,
                        b: id_ref,
                    },
                )
            }
        };
        let mp = ManifoldPoint {
            point_a,
            point_b,
            separation,
            id,
        };
        match &mut out {
            None => out = Some(Manifold::new(e.normal, mp)),
            Some(m) => {
                // A zero-length clipped edge gives one point, not two.
                if m.points()[0].point_b != mp.point_b || m.points()[0].point_a != mp.point_a {
                    m.push(mp);
                }
            }
        }
    }
    match out {
        // The deepest vertex was kept: the manifold carries the exact
        // separation. Otherwise the contact is at the reference face's end
        // (a corner after all): the exact single point.
        Some(m) if deepest_kept => m,
        _ => single(),
    }
}

/// How far above the deepest vertex an end may be and still count as it:
/// rounding of heights of points of these magnitudes.
///
/// The numbers are finite (the table checks the poses, the kernels answer
/// finite points), so plain comparisons pick the same largest magnitude as
/// `max` would, without its NaN handling.
#[inline]
pub(crate) fn height_tolerance<T: Real>(points: &[Point2<T>; 5], separation: T) -> T {
    let mut scale = num_traits::Float::abs(separation);
    for p in points {
        for c in [p.x, p.y] {
            let m = num_traits::Float::abs(c);
            if m > scale {
                scale = m;
            }
        }
    }
    T::epsilon() * T::from(64.0).unwrap_or_else(T::one) * scale
}
