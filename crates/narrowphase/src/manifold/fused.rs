//! The 2D manifold of two shapes with cores in one pass over what the
//! contact kernel already knows: the kernel served by the table for every
//! pair of polygonal cores (boxes, triangles, polygons, segments, capsules).
//!
//! What it computes: the manifold of the module notes ([`super`]), the
//! same as `polygonal::polygonal_manifold` (the general builder, kept as
//! the slower reference it is tested against), without the work that
//! builder repeats.
//!
//! The method, in steps:
//!
//! 1. The pair's exact contact kernel, asked also for the face its normal
//!    came from (`sat::ContactFace`): two polygons' separating-axis test
//!    (`sat/core.rs`, `polygon_sat`) knows which face of A or B had the
//!    greatest separation, and the contact normal *is* that face's
//!    normal. Apart, the exact closest points within the prediction, as
//!    the general builder.
//! 2. The reference and incident faces, chosen by the general builder's
//!    rule (the face best aligned with the normal, A on a tie; the
//!    incident face is the other shape's best aligned against it), with
//!    the searches the contact already did left out: with a known face,
//!    only the other shape's faces are searched (one scan, which is also
//!    the incident edge's); boxes and segments find their best face in
//!    closed form (`Polygonal::core_best_face`), so a box pair searches
//!    nothing.
//! 3. Clipping (`clip`): the incident edge cut to the reference face's
//!    extent, each end's separation the exact one plus its height above the
//!    deepest end, ends beyond the prediction dropped, the same feature
//!    ids; in straight-line code on the two ends, the manifold built once.
//!    Every arithmetic step is the general builder's, in the same order,
//!    so for the same faces the two give the same manifold bit for bit.
//! 4. Whatever is not a clean flat contact (a point core, a face off by
//!    more than the flat angle, an incident edge whose lowest end is not at
//!    the exact witness, a deepest end clipped away) goes to the general
//!    builder's `complete`, which answers the exact single point there.
//!
//! Why it is correct: the normal and the deepest separation are the exact
//! kernel's (step 1, the same call the contact query makes), and steps 2
//! and 3 are the general builder's on the same faces. The faces can differ
//! only where the builder would compare a face's alignment that the known
//! face bounds: a known face of A has alignment `nᵢ · n` with `n = nᵢ`
//! (one up to rounding), and another face of A could only beat it by being
//! parallel to it within `√ε`, which a valid polygon's neighbouring edges
//! are not (and then either face is a reference the contract allows).
//!
//! Reference: Box2D v3's `b2CollidePolygons` (Catto) does the same fusion,
//! its reference face taken from the separating-axis test; the clipping is
//! Catto, "Contact manifolds", GDC 2007.

use nalgebra::{Isometry2, Point2, Vector2};
use num_traits::Float;
use shape::Real;

use super::polygonal::{
    Exact, Reference, complete, exact, face_ends, flat_tolerance, height_tolerance, index,
};
use super::{Feature, FeatureId, Manifold, ManifoldPoint};
use crate::polygonal::Polygonal;
use crate::sat::ContactFace;
use crate::{ClosestPoints, Contact};

/// The manifold of two shapes with cores, `b` placed in `a`'s frame by
/// `b_in_a`, from the pair's exact contact kernel with the face of its
/// normal (`contact`) and its closest-points kernel (`closest`). In A's
/// frame; `None` when the shapes are farther apart than `prediction`.
#[inline]
pub(crate) fn fused_manifold<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    prediction: T,
    contact: impl FnOnce(&A, &B, &Isometry2<T>) -> Option<(Contact<T>, ContactFace)>,
    closest: impl FnOnce(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
) -> Option<Manifold<T>> {
    let (c, face) = match contact(a, b, b_in_a) {
        Some((c, face)) => (Some(c), face),
        None => (None, ContactFace::Unknown),
    };
    // Apart with no prediction: no manifold, and no closest points to find.
    if c.is_none() && prediction <= T::zero() {
        return None;
    }
    let e = exact(c, || closest(a, b, b_in_a, prediction))?;
    if let Some(f) = faces(a, b, b_in_a, &e, face) {
        if let Some(m) = clip(a, b, b_in_a, prediction, &e, f) {
            return Some(m);
        }
    }
    Some(complete(a, b, b_in_a, prediction, &e))
}

/// The faces a flat contact is clipped on.
#[derive(Clone, Copy)]
struct Faces {
    reference: Reference,
    /// The reference face (of the reference shape).
    ref_face: usize,
    /// The incident face (of the other shape).
    inc_face: usize,
}

/// The reference and incident faces by the general builder's rule (step 2
/// of the module notes), with the contact's known face not searched for
/// again; `None` when the contact is not flat on a face or a core is a
/// point (the general builder then answers one point).
#[inline]
fn faces<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    e: &Exact<T>,
    known: ContactFace,
) -> Option<Faces> {
    let n = e.normal.into_inner();
    // The directions each shape faces at the contact, in its own frame.
    let out_b = b_in_a.rotation.inverse_transform_vector(&-n);
    let (reference, ref_face, align, inc_face) = match known {
        ContactFace::OfA(i) => {
            let sa = a.core_face_normal(i).dot(&n);
            let (fb, sb) = b.core_best_face(&out_b)?;
            if sa >= sb {
                (Reference::A, i, sa, fb)
            } else {
                (Reference::B, fb, sb, a.core_best_face(&n)?.0)
            }
        }
        ContactFace::OfB(j) => {
            let sb = b.core_face_normal(j).dot(&out_b);
            let (fa, sa) = a.core_best_face(&n)?;
            if sa >= sb {
                (Reference::A, fa, sa, b.core_best_face(&out_b)?.0)
            } else {
                (Reference::B, j, sb, fa)
            }
        }
        ContactFace::Unknown => {
            let (fa, sa) = a.core_best_face(&n)?;
            let (fb, sb) = b.core_best_face(&out_b)?;
            if sa >= sb {
                (Reference::A, fa, sa, fb)
            } else {
                (Reference::B, fb, sb, fa)
            }
        }
    };
    (align >= T::one() - flat_tolerance()).then_some(Faces {
        reference,
        ref_face,
        inc_face,
    })
}

/// The clipped manifold on the faces `f` (step 3 of the module notes): the
/// general builder's clipping, step for step; `None` where that builder
/// falls back to the exact single point.
#[inline]
fn clip<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    prediction: T,
    e: &Exact<T>,
    f: Faces,
) -> Option<Manifold<T>> {
    let n = e.normal.into_inner();
    let of_a = f.reference == Reference::A;
    // The reference face's ends and the incident edge's, in A's frame, with
    // their vertex indices.
    let (ri, rj, qi, qj, r1, r2, q1, q2) = if of_a {
        let (i, j) = face_ends(a, f.ref_face);
        let (k, l) = face_ends(b, f.inc_face);
        (
            i,
            j,
            k,
            l,
            a.core_vertex(i),
            a.core_vertex(j),
            b_in_a * b.core_vertex(k),
            b_in_a * b.core_vertex(l),
        )
    } else {
        let (i, j) = face_ends(b, f.ref_face);
        let (k, l) = face_ends(a, f.inc_face);
        (
            i,
            j,
            k,
            l,
            b_in_a * b.core_vertex(i),
            b_in_a * b.core_vertex(j),
            a.core_vertex(k),
            a.core_vertex(l),
        )
    };
    // Heights along n, oriented so that the incident shape's deepest vertex
    // is the lowest (negating is the general builder's `−1 ·`, exactly).
    let height = |p: &Point2<T>| {
        let h = p.coords.dot(&n);
        if of_a { h } else { -h }
    };
    let (h1, h2) = (height(&q1), height(&q2));
    let h_min = if h1 <= h2 { h1 } else { h2 };
    // The incident edge's lowest end must be at the exact witness's height.
    let witness = if of_a {
        e.point_b + n * b.radius()
    } else {
        e.point_a - n * a.radius()
    };
    let h_tol = height_tolerance(&[r1, r2, q1, q2, witness], e.separation);
    if Float::abs(height(&witness) - h_min) > h_tol {
        return None;
    }

    // The reference face's extent across n.
    let t = Vector2::new(-n.y, n.x);
    let (tr1, tr2) = (r1.coords.dot(&t), r2.coords.dot(&t));
    let ((lo, lo_vertex), (hi, hi_vertex)) = if tr1 <= tr2 {
        ((tr1, ri), (tr2, rj))
    } else {
        ((tr2, rj), (tr1, ri))
    };
    let (t1, t2) = (q1.coords.dot(&t), q2.coords.dot(&t));

    // One end of the incident edge, clipped towards the other when outside
    // the extent: the point on the incident core, its separation, its
    // features (reference's, incident's) and whether it is level with the
    // deepest end; `None` when clipped away or beyond the prediction.
    let end = |q: Point2<T>, tq: T, vertex: usize, other: Point2<T>, t_other: T| {
        let (p, id_ref, id_inc) = if tq < lo || tq > hi {
            let below = tq < lo;
            let (bound, bound_vertex) = if below {
                (lo, lo_vertex)
            } else {
                (hi, hi_vertex)
            };
            // The other end must lie on the bound's inner side for the edge
            // to cross it.
            let inside = if below { t_other >= lo } else { t_other <= hi };
            if !inside || t_other == tq {
                return None;
            }
            let s = (bound - tq) / (t_other - tq);
            (
                q + (other - q) * s,
                Feature::Vertex(index(bound_vertex)),
                Feature::Edge(index(f.inc_face)),
            )
        } else {
            (
                q,
                Feature::Edge(index(f.ref_face)),
                Feature::Vertex(index(vertex)),
            )
        };
        let h = height(&p);
        let level = h - h_min <= h_tol;
        let separation = if level {
            e.separation
        } else {
            e.separation + (h - h_min)
        };
        (separation <= prediction).then_some((p, separation, id_ref, id_inc, level))
    };
    let first = end(q1, t1, qi, q2, t2);
    let second = end(q2, t2, qj, q1, t1);
    // The deepest end must be kept, else it is a corner contact after all.
    let deepest_kept = matches!(first, Some((.., true))) || matches!(second, Some((.., true)));
    if !deepest_kept {
        return None;
    }
    let (ra, rb) = (a.radius(), b.radius());
    let point = |(p, separation, id_ref, id_inc, _): (Point2<T>, T, Feature, Feature, bool)| {
        if of_a {
            let point_b = p - n * rb;
            ManifoldPoint {
                point_a: point_b - n * separation,
                point_b,
                separation,
                id: FeatureId {
                    a: id_ref,
                    b: id_inc,
                },
            }
        } else {
            let point_a = p + n * ra;
            ManifoldPoint {
                point_a,
                point_b: point_a + n * separation,
                separation,
                id: FeatureId {
                    a: id_inc,
                    b: id_ref,
                },
            }
        }
    };
    Some(match (first, second) {
        (Some(x), Some(y)) => {
            let (p, q) = (point(x), point(y));
            let mut m = Manifold::new(e.normal, p);
            // A zero-length clipped edge gives one point, not two.
            if p.point_b != q.point_b || p.point_a != q.point_a {
                m.push(q);
            }
            m
        }
        (Some(x), None) | (None, Some(x)) => Manifold::new(e.normal, point(x)),
        (None, None) => return None,
    })
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point2, UnitComplex, Vector2};
    use proptest::prelude::*;
    use shape::{Aabb, Capsule, ConvexPolygon, Obb, Segment, Triangle};

    use super::*;
    use crate::manifold::pairs::*;
    use crate::manifold::polygonal::polygonal_manifold;
    use crate::sat::*;

    fn pose<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
        Isometry2::from_parts(
            nalgebra::Translation2::new(T::lit(x), T::lit(y)),
            UnitComplex::from_cos_sin_unchecked(T::lit(angle.cos()), T::lit(angle.sin())),
        )
    }

    /// The fused kernel of each pair of polygonal cores (what the table
    /// serves) and the general builder on the pair's own exact kernels (its
    /// slower, independent reference: every face searched again, the
    /// clipping in its loop) give the same manifold, bit for bit: the same
    /// faces chosen, the same numbers, the same ids, in both precisions.
    /// `s` scales B (a wide floor under a small crate, and the reverse).
    fn agrees<T: Real>(s: f64, (x, y, angle): (f64, f64, f64), prediction: f64) {
        let m = pose::<T>(x, y, angle);
        let p = T::lit(prediction);
        let pt = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let obb = Obb::new(Vector2::new(T::lit(0.8), T::lit(0.3))).unwrap();
        let big = Obb::new(Vector2::new(T::lit(0.8 * s), T::lit(0.5 * s))).unwrap();
        let aabb = Aabb::new(pt(-0.5, -0.2), pt(0.7, 0.4)).unwrap();
        let triangle = Triangle::new(pt(-0.7, -0.4), pt(0.9, -0.2), pt(0.1, 0.8)).unwrap();
        let hexagon = ConvexPolygon::new(&[
            pt(0.6 * s, 0.0),
            pt(0.3 * s, 0.5 * s),
            pt(-0.3 * s, 0.5 * s),
            pt(-0.6 * s, 0.0),
            pt(-0.3 * s, -0.5 * s),
            pt(0.3 * s, -0.5 * s),
        ])
        .unwrap();
        let capsule = Capsule::new(pt(0.0, -0.6 * s), pt(0.0, 0.6 * s), T::lit(0.25)).unwrap();
        let segment = Segment::new(pt(-0.9, 0.1), pt(0.8, -0.2)).unwrap();
        macro_rules! check {
            ($a:expr, $b:expr, $fused:ident, $contact:ident, $closest:ident) => {
                assert_eq!(
                    $fused($a, $b, &m, p),
                    polygonal_manifold($a, $b, &m, p, $contact, $closest),
                    "{} at {:?}, scale {s}, prediction {prediction}",
                    stringify!($fused),
                    (x, y, angle),
                );
            };
        }
        check!(
            &obb,
            &big,
            obb_obb_manifold,
            obb_obb_contact,
            obb_obb_closest_points
        );
        check!(
            &aabb,
            &big,
            aabb_obb_manifold,
            aabb_obb_contact,
            aabb_obb_closest_points
        );
        check!(
            &obb,
            &capsule,
            obb_capsule_manifold,
            obb_capsule_contact,
            obb_capsule_closest_points
        );
        check!(
            &capsule,
            &capsule,
            capsule_capsule_manifold,
            capsule_capsule_contact,
            capsule_capsule_closest_points
        );
        check!(
            &segment,
            &big,
            segment_obb_manifold,
            segment_obb_contact,
            segment_obb_closest_points
        );
        check!(
            &obb,
            &hexagon,
            obb_polygon_manifold,
            obb_polygon_contact,
            obb_polygon_closest_points
        );
        check!(
            &triangle,
            &triangle,
            triangle_triangle_manifold,
            triangle_triangle_contact,
            triangle_triangle_closest_points
        );
        check!(
            &triangle,
            &hexagon,
            triangle_polygon_manifold,
            triangle_polygon_contact,
            triangle_polygon_closest_points
        );
        check!(
            &hexagon,
            &hexagon,
            polygon_polygon_manifold,
            polygon_polygon_contact,
            polygon_polygon_closest_points
        );
        check!(
            &hexagon,
            &capsule,
            polygon_capsule_manifold,
            polygon_capsule_contact,
            polygon_capsule_closest_points
        );
    }

    /// Turns near the faces' directions, where contacts are flat and the
    /// clipping has two ends to cut: multiples of a sixth of a turn (the
    /// hexagon's and the boxes' faces) with a jitter from none to a few
    /// times the flat angle.
    fn near_flat() -> impl Strategy<Value = f64> {
        (-6i32..6, prop_oneof![Just(0.0), -0.02f64..0.02])
            .prop_map(|(k, jitter)| f64::from(k) * core::f64::consts::FRAC_PI_6 + jitter)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

        #[test]
        fn agrees_with_the_general_builder(
            s in prop_oneof![Just(1.0), 0.3f64..4.0],
            x in -2.5f64..2.5,
            y in -2.5f64..2.5,
            angle in prop_oneof![-3.2f64..3.2, near_flat()],
            prediction in prop_oneof![Just(0.0), 0.0f64..1.0],
        ) {
            agrees::<f32>(s, (x, y, angle), prediction);
            agrees::<f64>(s, (x, y, angle), prediction);
        }
    }

    /// Resting and sliding contacts the random poses rarely hit exactly:
    /// B on A's faces at exact heights, overhanging A's corners, touching
    /// and a hair apart.
    #[test]
    fn flat_contacts_agree() {
        for s in [1.0, 3.0, 0.25] {
            for (x, y) in [
                (0.0, 0.7),
                (0.5, 0.75),
                (1.2, 0.8),
                (-1.5, 0.6),
                (1.3, 0.0),
                (0.0, -0.55),
                (0.8, 0.8),
            ] {
                for angle in [0.0, core::f64::consts::FRAC_PI_2, 1e-3, -0.01] {
                    for prediction in [0.0, 0.1] {
                        agrees::<f32>(s, (x, y * s.max(1.0), angle), prediction);
                        agrees::<f64>(s, (x, y * s.max(1.0), angle), prediction);
                    }
                }
            }
        }
    }
}
