//! Contact manifolds for every ordered pair of the nine built-in 2D kinds,
//! f32 and f64 from one generic body, through `narrowphase::contact_manifold`
//! and a `DispatchTable`.
//!
//! What is checked:
//!
//! - exact symmetry: `manifold(b, a)` is `manifold(a, b)` flipped (normal
//!   negated, points and feature ids swapped), bit for bit;
//! - existence: a manifold exactly when the shapes intersect or are at most
//!   `prediction` apart (`closest_points` decides), at least one point, each
//!   point within the prediction;
//! - the normal and the least separation are `contact`'s normal and `-depth`
//!   bit for bit when the shapes intersect, `closest_points`' normal and
//!   distance when apart;
//! - every point's `separation` is `(point_b − point_a) · normal`;
//! - every point lies on its shapes: against the independent f64 boundary
//!   reference (`common::signed_distance`), the point on the incident side
//!   within the reference slack, the projected point within the flat-contact
//!   angle (`≈ 0.014` rad) times the shapes' extent (see below);
//! - a rigid motion of both shapes moves the manifold with them (same ids,
//!   separations within the slack);
//! - known values: a box resting on a box (2 points at the ends of the
//!   overlap, equal separations, the same ids whichever box is the
//!   reference), a small tilt (the analytic separations), ids kept under small
//!   motions and changed when the touching features change, capsules lying
//!   flat, a ball, an ellipse, speculative points, far from the origin; bad
//!   input; user kinds through the fallback.
//!
//! Tolerances: `common::slack` (f32 ≈ 2.4e-4 · scale, f64 ≈ 4.5e-13 · scale,
//! plus the curve sampling of the reference) for anything compared with the
//! f64 reference; a flat contact's projected point may sit off a rounded
//! reference face by up to the flat angle times the face's length, which the
//! surface check allows for.

use crate::common;
use crate::support;

use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::{
    ClosestPoints, DispatchError, DispatchTable, Feature, FeatureId, Manifold, contact,
    contact_manifold,
};
use proptest::prelude::*;
use shape::prelude::*;
use support::every_ordered_pair;

fn manifold<T: Real>(
    a: &dyn Shape<T>,
    pa: &Isometry2<T>,
    b: &dyn Shape<T>,
    pb: &Isometry2<T>,
    prediction: f64,
) -> Option<Manifold<T>> {
    contact_manifold(a, pa, b, pb, T::lit(prediction)).expect("valid input")
}

/// The sine of the largest angle between a face and the normal of a
/// contact the builder still calls flat (`1 − cos θ ≤ 1e-4`).
const FLAT_SIN: f64 = 0.0142;

fn properties<T: Real>(
    sa: &Spec,
    sb: &Spec,
    pa: [f64; 3],
    pb: [f64; 3],
    prediction: f64,
) -> Result<(), TestCaseError> {
    let (a, b) = (build::<T>(sa), build::<T>(sb));
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let m = manifold(&*a, &ia, &*b, &ib, prediction);
    let back = manifold(&*b, &ib, &*a, &ia, prediction);
    prop_assert_eq!(back, m.map(|m| m.flipped()), "symmetry");

    let closest = narrowphase::closest_points(&*a, &ia, &*b, &ib, T::lit(prediction)).unwrap();
    let Some(m) = m else {
        prop_assert_eq!(
            closest,
            ClosestPoints::Farther,
            "no manifold but within the prediction"
        );
        return Ok(());
    };
    prop_assert!(m.len() >= 1 && m.len() <= 2);
    let n = m.normal().into_inner();
    let least = m
        .points()
        .iter()
        .map(|p| p.separation)
        .fold(T::infinity(), |x, y| if y < x { y } else { x });
    match closest {
        ClosestPoints::Intersecting => {
            let c = contact(&*a, &ia, &*b, &ib).unwrap().expect("intersecting");
            prop_assert_eq!(m.normal(), c.normal, "normal = contact's");
            prop_assert_eq!(least, -c.depth, "least separation = -depth");
        }
        ClosestPoints::WithinMargin {
            normal, distance, ..
        } => {
            prop_assert_eq!(m.normal(), normal, "normal = closest points'");
            prop_assert_eq!(least, distance, "least separation = distance");
        }
        ClosestPoints::Farther => prop_assert!(false, "a manifold beyond the prediction"),
    }
    let tol = slack::<T>(sa, pa, sb, pb);
    let flat_slack = FLAT_SIN * (extent(sa) + extent(sb)) * 2.0;
    for p in m.points() {
        prop_assert!(
            p.separation.as_f64() <= prediction,
            "a point beyond the prediction"
        );
        let along = (p.point_b - p.point_a).dot(&n).as_f64();
        prop_assert!(
            (along - p.separation.as_f64()).abs() <= tol,
            "separation {} vs (b − a)·n {along}",
            p.separation.as_f64()
        );
        let on_a = signed_distance(sa, pa, [p.point_a.x.as_f64(), p.point_a.y.as_f64()]);
        let on_b = signed_distance(sb, pb, [p.point_b.x.as_f64(), p.point_b.y.as_f64()]);
        // Never outside either shape: the reference side's point is on its
        // face (within the flat angle), the incident side's is a vertex, or
        // a rounded core's end pushed out by the radius along the normal
        // (inside the shape when that core is tilted).
        prop_assert!(
            on_a <= tol * 4.0 + flat_slack && on_b <= tol * 4.0 + flat_slack,
            "a point outside its shape: {on_a}, {on_b} (tol {tol})"
        );
        if p.separation == least {
            // The deepest point is the exact kernels' contact: on both.
            prop_assert!(
                on_a.abs() <= tol * 4.0 + flat_slack && on_b.abs() <= tol * 4.0 + flat_slack,
                "the deepest point off the shapes: {on_a}, {on_b} (tol {tol})"
            );
        }
    }
    if m.len() == 2 {
        prop_assert!(m.points()[0].id != m.points()[1].id, "two points, one id");
    }
    Ok(())
}

fn every_pair_properties<T: Real>() {
    every_ordered_pair(
        64,
        || 0.0f64..2.0,
        |(sa, sb, pa, pb, prediction)| properties::<T>(&sa, &sb, pa, pb, prediction),
    );
}

#[test]
fn every_pair_properties_f32() {
    every_pair_properties::<f32>();
}

#[test]
fn every_pair_properties_f64() {
    every_pair_properties::<f64>();
}

/// Shapes placed to touch or nearly: B moved towards A until their closest
/// points are within `prediction`, so that most cases have a manifold (random
/// poses alone are mostly far apart).
fn close_properties<T: Real>() {
    every_ordered_pair(
        64,
        || (0.0f64..0.3, -0.2f64..0.2),
        |(sa, sb, pa, pb, (prediction, gap))| {
            let (a, b) = (build::<f64>(&sa), build::<f64>(&sb));
            let (ia, ib) = (iso::<f64>(pa), iso::<f64>(pb));
            let pb = match narrowphase::closest_points(&*a, &ia, &*b, &ib, f64::INFINITY).unwrap() {
                ClosestPoints::WithinMargin {
                    normal, distance, ..
                } => {
                    let shift = -normal.into_inner() * (distance - gap.max(0.0));
                    [pb[0] + shift.x, pb[1] + shift.y, pb[2]]
                }
                _ => pb,
            };
            properties::<T>(&sa, &sb, pa, pb, prediction)?;
            // A rigid motion of both shapes moves the manifold with them.
            let motion = rigid_motion_for(&sa, &sb, [1.7, -2.3, 0.9]);
            let (qa, qb) = (motion(pa), motion(pb));
            let (at, bt) = (build::<T>(&sa), build::<T>(&sb));
            let m0 = manifold(&*at, &iso::<T>(pa), &*bt, &iso::<T>(pb), prediction);
            let m1 = manifold(&*at, &iso::<T>(qa), &*bt, &iso::<T>(qb), prediction);
            if let (Some(m0), Some(m1)) = (m0, m1) {
                let tol = slack::<T>(&sa, qa, &sb, qb) * 8.0;
                // Points at the prediction's edge or the flat threshold may come
                // and go under rounding; the ids present in both must agree, up
                // to the flat angle times the shapes' size when both faces are
                // within it and rounding picks the other as the reference (the
                // same id then names the overlap's end measured on the other
                // face). The deepest point agrees to rounding.
                let flat_slack = FLAT_SIN * (extent(&sa) + extent(&sb)) * 2.0;
                for p0 in m0.points() {
                    if let Some(p1) = m1.point_with_id(p0.id) {
                        prop_assert!(
                            (p0.separation.as_f64() - p1.separation.as_f64()).abs()
                                <= tol + flat_slack,
                            "separation moved: {} vs {}",
                            p0.separation.as_f64(),
                            p1.separation.as_f64()
                        );
                    }
                }
                let d0 = m0.deepest().separation.as_f64();
                let d1 = m1.deepest().separation.as_f64();
                prop_assert!((d0 - d1).abs() <= tol, "deepest moved: {d0} vs {d1}");
            }
            Ok(())
        },
    );
}

#[test]
fn close_properties_f32() {
    close_properties::<f32>();
}

#[test]
fn close_properties_f64() {
    close_properties::<f64>();
}

// ----------------------------------------------------------- known values

fn boxes<T: Real>(hx: f64, hy: f64) -> Obb<T> {
    Obb::new(Vector2::new(T::lit(hx), T::lit(hy))).unwrap()
}

fn at<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
    iso::<T>([x, y, angle])
}

fn close<T: Real>(x: T, y: f64, tol: f64) -> bool {
    (x.as_f64() - y).abs() <= tol
}

fn tol_of<T: Real>() -> f64 {
    if T::epsilon().as_f64() > 1e-10 {
        1e-5
    } else {
        1e-12
    }
}

fn box_on_box<T: Real>() {
    let tol = tol_of::<T>();
    let floor = boxes::<T>(5.0, 0.5);
    let crate_ = boxes::<T>(1.0, 1.0);
    // Sunk 1/16 (exact in both precisions) into the floor, off centre.
    let (fp, cp) = (at::<T>(0.0, 0.0, 0.0), at::<T>(2.0, 1.4375, 0.0));
    let m = manifold(&floor, &fp, &crate_, &cp, 0.0).expect("touching");
    assert_eq!(m.normal().into_inner(), Vector2::new(T::zero(), T::one()));
    assert_eq!(m.len(), 2);
    let xs: Vec<f64> = m.points().iter().map(|p| p.point_b.x.as_f64()).collect();
    assert!(xs.contains(&1.0) && xs.contains(&3.0), "{xs:?}");
    for p in m.points() {
        assert_eq!(p.separation, T::lit(-0.0625));
        assert!(close(p.point_a.y, 0.5, tol) && close(p.point_b.y, 0.4375, tol));
        assert_eq!(p.id.a, Feature::Edge(2), "the floor's top edge");
        assert!(
            matches!(p.id.b, Feature::Vertex(0 | 1)),
            "a bottom corner of the crate"
        );
    }
    // The other order: the same points seen from the crate.
    let back = manifold(&crate_, &cp, &floor, &fp, 0.0).unwrap();
    assert_eq!(back, m.flipped());

    // A crate wider than the floor: the overlap's ends are the floor's
    // corners, named (floor vertex, crate edge) whichever is the reference.
    let wide = boxes::<T>(8.0, 1.0);
    let wp = at::<T>(1.0, 1.4375, 0.0);
    let m = manifold(&floor, &fp, &wide, &wp, 0.0).unwrap();
    assert_eq!(m.len(), 2);
    let mut ids: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
    ids.sort();
    assert_eq!(
        ids,
        vec![
            FeatureId {
                a: Feature::Vertex(2),
                b: Feature::Edge(0)
            },
            FeatureId {
                a: Feature::Vertex(3),
                b: Feature::Edge(0)
            },
        ]
    );
    for p in m.points() {
        assert_eq!(p.separation, T::lit(-0.0625));
        assert!((p.point_a.x.as_f64().abs() - 5.0).abs() <= tol);
    }
}

#[test]
fn box_on_box_f32() {
    box_on_box::<f32>();
}

#[test]
fn box_on_box_f64() {
    box_on_box::<f64>();
}

/// A unit-half-size crate turned by `angle` (small) with its lowest corner
/// `depth` into the floor: that corner's separation is `-depth`, the other
/// bottom corner's `2 sin(angle) − depth` (its height above the first).
fn tilted<T: Real>() {
    let tol = tol_of::<T>() * 10.0;
    let floor = boxes::<T>(10.0, 1.0);
    let crate_ = boxes::<T>(1.0, 1.0);
    for (angle, depth) in [(0.05f64, 0.01f64), (-0.2, 0.1), (0.3, 0.0)] {
        let (s, c) = angle.sin_cos();
        let y = 1.0 + c + s.abs() - depth;
        let pose = at::<T>(0.5, y, angle);
        let high = 2.0 * s.abs() - depth;
        // Prediction below the high corner's separation: one point.
        let m = manifold(&floor, &at::<T>(0.0, 0.0, 0.0), &crate_, &pose, high * 0.5).unwrap();
        assert_eq!(m.len(), 1, "angle {angle}");
        assert!(close(m.points()[0].separation, -depth, tol));
        // Above it: both.
        let m = manifold(&floor, &at::<T>(0.0, 0.0, 0.0), &crate_, &pose, high * 2.0).unwrap();
        assert_eq!(m.len(), 2, "angle {angle}");
        let mut seps: Vec<f64> = m.points().iter().map(|p| p.separation.as_f64()).collect();
        seps.sort_by(f64::total_cmp);
        assert!(
            (seps[0] + depth).abs() <= tol && (seps[1] - high).abs() <= tol,
            "{seps:?} vs {high}"
        );
    }
}

#[test]
fn tilted_f32() {
    tilted::<f32>();
}

#[test]
fn tilted_f64() {
    tilted::<f64>();
}

fn ids<T: Real>(m: &Manifold<T>) -> Vec<FeatureId> {
    let mut v: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
    v.sort();
    v
}

/// Small motions of a resting crate keep its ids; sliding it over the
/// floor's end changes the feature that bounds the overlap.
fn ids_stable<T: Real>() {
    let floor = boxes::<T>(5.0, 0.5);
    let crate_ = boxes::<T>(1.0, 1.0);
    let fp = at::<T>(0.0, 0.0, 0.0);
    let base = manifold(&floor, &fp, &crate_, &at::<T>(0.0, 1.49, 0.0), 0.05).unwrap();
    for (dx, dy, da) in [
        (1e-3, 0.0, 0.0),
        (-2e-3, 1e-3, 0.0),
        (0.0, 0.0, 1e-3),
        (1e-3, -1e-3, -2e-3),
    ] {
        let m = manifold(&floor, &fp, &crate_, &at::<T>(dx, 1.49 + dy, da), 0.05).unwrap();
        assert_eq!(ids(&m), ids(&base), "moved by ({dx}, {dy}, {da})");
    }
    // Overhanging the floor's right end: the right point is now the floor's
    // corner on the crate's bottom edge.
    let over = manifold(&floor, &fp, &crate_, &at::<T>(4.5, 1.49, 0.0), 0.05).unwrap();
    assert_eq!(over.len(), 2);
    assert_ne!(ids(&over), ids(&base));
    assert!(
        over.point_with_id(FeatureId {
            a: Feature::Vertex(2),
            b: Feature::Edge(0)
        })
        .is_some(),
        "{:?}",
        ids(&over)
    );
    // Rolled onto another face: different crate features.
    let rolled = manifold(
        &floor,
        &fp,
        &crate_,
        &at::<T>(0.0, 1.49, std::f64::consts::FRAC_PI_2),
        0.05,
    )
    .unwrap();
    assert_eq!(rolled.len(), 2);
    assert_ne!(ids(&rolled), ids(&base));
}

#[test]
fn ids_stable_f32() {
    ids_stable::<f32>();
}

#[test]
fn ids_stable_f64() {
    ids_stable::<f64>();
}

fn rounded_and_smooth<T: Real>() {
    let tol = tol_of::<T>() * 10.0;
    let floor = boxes::<T>(5.0, 0.5);
    let fp = at::<T>(0.0, 0.0, 0.0);
    let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
    // A capsule lying flat: two points, under its core's ends.
    let pill = Capsule::new(p(-1.0, 0.0), p(1.0, 0.0), T::lit(0.25)).unwrap();
    let m = manifold(&floor, &fp, &pill, &at::<T>(0.0, 0.7, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    for q in m.points() {
        assert!(close(q.separation, -0.05, tol));
        assert!((q.point_b.x.as_f64().abs() - 1.0).abs() <= tol && close(q.point_b.y, 0.45, tol));
    }
    // Two parallel capsules, offset: the overlap of their cores.
    let m = manifold(&pill, &fp, &pill, &at::<T>(1.5, 0.4, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    let mut xs: Vec<f64> = m.points().iter().map(|q| q.point_a.x.as_f64()).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] - 0.5).abs() <= tol && (xs[1] - 1.0).abs() <= tol,
        "{xs:?}"
    );
    for q in m.points() {
        assert!(close(q.separation, -0.1, tol));
    }
    // A ball: one point.
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let m = manifold(&floor, &fp, &ball, &at::<T>(1.0, 0.9, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!(close(m.points()[0].separation, -0.1, tol));
    assert_eq!(
        m.points()[0].id,
        FeatureId {
            a: Feature::Edge(2),
            b: Feature::Vertex(0)
        }
    );
    // An ellipse: one point, on its smooth surface.
    let egg = Ellipse::new(Vector2::new(T::lit(1.0), T::lit(0.5))).unwrap();
    let m = manifold(&floor, &fp, &egg, &at::<T>(0.0, 0.9, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!(close(m.points()[0].separation, -0.1, tol));
    assert_eq!(
        m.points()[0].id,
        FeatureId {
            a: Feature::Edge(2),
            b: Feature::Surface
        }
    );
}

#[test]
fn rounded_and_smooth_f32() {
    rounded_and_smooth::<f32>();
}

#[test]
fn rounded_and_smooth_f64() {
    rounded_and_smooth::<f64>();
}

fn speculative<T: Real>() {
    let tol = tol_of::<T>() * 10.0;
    let floor = boxes::<T>(5.0, 0.5);
    let crate_ = boxes::<T>(1.0, 1.0);
    let (fp, cp) = (at::<T>(0.0, 0.0, 0.0), at::<T>(0.0, 1.6, 0.0));
    let m = manifold(&floor, &fp, &crate_, &cp, 0.2).expect("within the prediction");
    assert_eq!(m.len(), 2);
    for q in m.points() {
        assert!(close(q.separation, 0.1, tol));
    }
    assert_eq!(manifold(&floor, &fp, &crate_, &cp, 0.05), None);
    assert!(manifold(&floor, &fp, &crate_, &cp, f64::INFINITY).is_some());
}

#[test]
fn speculative_f32() {
    speculative::<f32>();
}

#[test]
fn speculative_f64() {
    speculative::<f64>();
}

/// A resting crate far from the origin keeps both points and their
/// separations to the precision the far tests promise.
fn far<T: Real>() {
    let off = max_offset::<T>() * 0.01;
    let tol = spacing::<T>(off) * 8.0;
    let floor = boxes::<T>(5.0, 0.5);
    let crate_ = boxes::<T>(1.0, 1.0);
    let m = manifold(
        &floor,
        &at::<T>(off, off, 0.0),
        &crate_,
        &at::<T>(off + 1.0, off + 1.4375, 0.0),
        0.0,
    )
    .unwrap();
    assert_eq!(m.len(), 2);
    for q in m.points() {
        assert!(
            (q.separation.as_f64() + 0.0625).abs() <= tol,
            "{}",
            q.separation.as_f64()
        );
    }
}

#[test]
fn far_f32() {
    far::<f32>();
}

#[test]
fn far_f64() {
    far::<f64>();
}

fn bad_input<T: Real>() {
    let c = Circle::new(T::one()).unwrap();
    let o = at::<T>(0.0, 0.0, 0.0);
    for bad in [f64::NAN, -1.0, -f64::INFINITY] {
        assert_eq!(
            contact_manifold(&c, &o, &c, &o, T::lit(bad)),
            Err(DispatchError::InvalidPrediction)
        );
    }
    let nan = Isometry2::translation(T::nan(), T::zero());
    assert_eq!(
        contact_manifold(&c, &o, &c, &nan, T::zero()),
        Err(DispatchError::NonFinitePose)
    );
    let table = DispatchTable::<T>::new();
    assert_eq!(
        table.contact_manifold(&c, &o, &c, &o, T::lit(-0.5)),
        Err(DispatchError::InvalidPrediction)
    );
    assert!(
        table
            .contact_manifold(&c, &o, &c, &o, T::zero())
            .unwrap()
            .is_some()
    );
}

#[test]
fn bad_input_f32() {
    bad_input::<f32>();
}

#[test]
fn bad_input_f64() {
    bad_input::<f64>();
}

/// A pair of user kinds with no manifold kernel: one point from the
/// fallback contact, features unknown.
#[test]
fn user_kinds_fall_back_to_one_point() {
    use std::any::Any;
    #[derive(Debug)]
    struct Blob(Circle<f64>);
    impl Shape<f64> for Blob {
        fn kind(&self) -> ShapeKind {
            ShapeKind::custom(41)
        }
        fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
            self.0.bounding_box(pose)
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn as_convex(&self) -> Option<&dyn Convex<f64>> {
            Some(&self.0)
        }
    }
    let (a, b) = (
        Blob(Circle::new(1.0).unwrap()),
        Blob(Circle::new(1.0).unwrap()),
    );
    let m = contact_manifold(
        &a,
        &Isometry2::identity(),
        &b,
        &Isometry2::translation(1.5, 0.0),
        0.0,
    )
    .unwrap()
    .expect("overlapping");
    assert_eq!(m.len(), 1);
    assert!((m.points()[0].separation + 0.5).abs() < 1e-9);
    assert_eq!(
        m.points()[0].id,
        FeatureId {
            a: Feature::Surface,
            b: Feature::Surface
        }
    );
    let apart = contact_manifold(
        &a,
        &Isometry2::identity(),
        &b,
        &Isometry2::translation(2.5, 0.0),
        1.0,
    )
    .unwrap()
    .unwrap();
    assert!((apart.points()[0].separation - 0.5).abs() < 1e-6);
}
