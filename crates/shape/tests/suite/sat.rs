//! The generic separating-axis test (`shape::sat`) for every pair of built-in
//! shapes that implement `SupportSeparatingAxes`, in f32 and f64: known values
//! (seed 000's rectangles, touching at exactly representable coordinates),
//! symmetry, invariance under a rigid motion of both shapes, and agreement with
//! a brute-force reference that projects dense boundary samples on thousands of
//! directions (f64, independent of the shapes' code).

use crate::common;

use std::f64::consts::PI;

use common::*;
use nalgebra::{Isometry2, Vector2};
use num_traits::Float;
use proptest::prelude::*;
use shape::prelude::*;
use shape::sat::{sat_contact, sat_intersects};
use shape::testing::test_tolerance;

fn tol<T: Real>(scale: f64) -> f64 {
    test_tolerance::<T>(T::lit(scale)).as_f64() * 8.0
}

/// A shape that offers separating axes (everything but the ellipse).
fn sat_spec() -> impl Strategy<Value = Spec> {
    spec().prop_filter("has separating axes", |s| !matches!(s, Spec::Ellipse(..)))
}

fn agrees_with_reference<T: Real>(
    sa: Spec,
    pa: [f64; 3],
    sb: Spec,
    pb: [f64; 3],
) -> Result<(), TestCaseError> {
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let got = sat_contact(
        a.as_separating_axes().unwrap(),
        &ia,
        b.as_separating_axes().unwrap(),
        &ib,
    );
    let extra = got.map(|p| [p.normal.x.as_f64(), p.normal.y.as_f64()]);
    let reference = reference_min_overlap(&sa, pa, &sb, pb, extra);
    let slack = slack::<T>(&sa, pa, &sb, pb);
    prop_assume!(reference.abs() > slack);
    match got {
        None => prop_assert!(
            reference < 0.0,
            "SAT says apart, reference overlap {reference}"
        ),
        Some(p) => {
            prop_assert!(
                reference > 0.0,
                "SAT says {p:?}, reference overlap {reference}"
            );
            let depth = p.depth.as_f64();
            // The depth is the overlap along the normal...
            let along = sampled_overlap(
                &world_boundary(&sa, pa),
                &world_boundary(&sb, pb),
                extra.unwrap(),
            );
            prop_assert!(
                (along - depth).abs() <= slack,
                "overlap along normal {along} vs depth {depth}"
            );
            // ...and no direction overlaps less (the reference includes the normal,
            // so it is at most the depth).
            prop_assert!(
                depth <= reference + slack,
                "depth {depth} > reference {reference}"
            );
            prop_assert!((p.normal.norm().as_f64() - 1.0).abs() <= tol::<T>(1.0));
        }
    }
    Ok(())
}

fn symmetric<T: Real>(sa: Spec, pa: [f64; 3], sb: Spec, pb: [f64; 3]) -> Result<(), TestCaseError> {
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let (a, b) = (
        a.as_separating_axes().unwrap(),
        b.as_separating_axes().unwrap(),
    );
    let ab = sat_contact(a, &ia, b, &ib);
    let ba = sat_contact(b, &ib, a, &ia);
    let slack = slack::<T>(&sa, pa, &sb, pb);
    match (ab, ba) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            prop_assert!(
                (x.depth - y.depth).as_f64().abs() <= slack,
                "{x:?} vs {y:?}"
            );
            // Normals are opposite unless two axes tie for the minimum.
            let tie = reference_ties(&sa, pa, &sb, pb, x.depth.as_f64(), slack);
            prop_assert!(
                tie || (x.normal.into_inner() + y.normal.into_inner())
                    .norm()
                    .as_f64()
                    <= slack.max(tol::<T>(1.0)) * 10.0,
                "{x:?} vs {y:?}"
            );
        }
        (x, y) => {
            // Only a touching case may differ by rounding.
            let reference = reference_min_overlap(&sa, pa, &sb, pb, None);
            prop_assert!(
                reference.abs() <= slack,
                "{x:?} vs {y:?}, reference {reference}"
            );
        }
    }
    Ok(())
}

/// Whether two clearly different directions both reach the minimum overlap.
fn reference_ties(
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    pb: [f64; 3],
    depth: f64,
    slack: f64,
) -> bool {
    let (a, b) = (world_boundary(sa, pa), world_boundary(sb, pb));
    let near: Vec<f64> = (0..720)
        .map(|k| 2.0 * PI * k as f64 / 720.0)
        .filter(|t| sampled_overlap(&a, &b, [t.cos(), t.sin()]) <= depth + 4.0 * slack + 1e-3)
        .collect();
    near.windows(2).any(|w| w[1] - w[0] > 0.1)
        || near
            .first()
            .zip(near.last())
            .is_some_and(|(f, l)| l - f > 0.2)
}

fn rigid_motion<T: Real>(
    sa: Spec,
    pa: [f64; 3],
    sb: Spec,
    pb: [f64; 3],
    m: [f64; 3],
) -> Result<(), TestCaseError> {
    let compose = rigid_motion_for(&sa, &sb, m);
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (a, b) = (
        a.as_separating_axes().unwrap(),
        b.as_separating_axes().unwrap(),
    );
    let before = sat_contact(a, &iso::<T>(pa), b, &iso::<T>(pb));
    let after = sat_contact(a, &iso::<T>(compose(pa)), b, &iso::<T>(compose(pb)));
    let slack = slack::<T>(&sa, compose(pa), &sb, compose(pb)) + slack::<T>(&sa, pa, &sb, pb);
    let reference = reference_min_overlap(&sa, pa, &sb, pb, None);
    prop_assume!(reference.abs() > slack);
    prop_assert_eq!(before.is_some(), after.is_some());
    if let (Some(x), Some(y)) = (before, after) {
        prop_assert!(
            (x.depth - y.depth).as_f64().abs() <= slack,
            "{x:?} vs {y:?}"
        );
    }
    Ok(())
}

macro_rules! for_both {
    ($name:ident ( $($arg:ident in $strat:expr),* ) => $body:ident) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig { cases: shape::testing::cases(128), max_global_rejects: shape::testing::cases(128), ..ProptestConfig::default() })]
                #[test]
                fn f32($($arg in $strat),*) { $body::<f32>($($arg),*)?; }
                #[test]
                fn f64($($arg in $strat),*) { $body::<f64>($($arg),*)?; }
            }
        }
    };
}

for_both!(reference(sa in sat_spec(), pa in pose(4.0), sb in sat_spec(), pb in pose(4.0)) => agrees_with_reference);
for_both!(symmetry(sa in sat_spec(), pa in pose(4.0), sb in sat_spec(), pb in pose(4.0)) => symmetric);
for_both!(invariance(sa in sat_spec(), pa in pose(4.0), sb in sat_spec(), pb in pose(4.0), m in pose(100.0)) => rigid_motion);

/// Seed 000: two 6 × 2 rectangles, one at (0, 5). Touching at exactly
/// representable coordinates collides; a hair apart does not.
fn seed_000_rectangles<T: Real>() {
    let rect = Obb::new(Vector2::new(T::lit(3.0), T::one())).unwrap();
    let a = Isometry2::translation(T::zero(), T::lit(5.0));
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    assert!(sat_intersects(&rect, &a, &rect, &at(6.0, 5.0)));
    assert!(sat_intersects(&rect, &a, &rect, &at(6.0, 7.0))); // corner to corner
    assert!(sat_intersects(&rect, &a, &rect, &at(0.0, 3.0)));
    let hair = T::lit(6.0) + T::lit(6.0) * T::epsilon() * T::two();
    assert!(!sat_intersects(
        &rect,
        &a,
        &rect,
        &Isometry2::translation(hair, T::lit(5.0))
    ));
    // Touching: depth exactly zero, normal along +x.
    let c = sat_contact(&rect, &a, &rect, &at(6.0, 5.0)).unwrap();
    assert_eq!(c.depth, T::zero());
    assert_eq!(c.normal.into_inner(), Vector2::x());
    // The spinning one: at 45° its corner (3, -1) sits at (4/√2, 5 + 2/√2) ≈
    // (2.83, 6.41), so a box level with that corner is hit when its left face is
    // at x = 2.8 and missed when it is at x = 2.9.
    let spin = Isometry2::new(Vector2::new(T::zero(), T::lit(5.0)), T::frac_pi_4());
    let y = 5.0 + 2.0 / 2f64.sqrt();
    assert!(sat_intersects(&rect, &spin, &rect, &at(5.8, y)));
    assert!(!sat_intersects(&rect, &spin, &rect, &at(5.9, y)));
    // Parallel rectangles, overlapping by 0.5 along y: depth 0.5, normal -y.
    let c = sat_contact(&rect, &a, &rect, &at(1.0, 3.5)).unwrap();
    let tol = T::lit(tol::<T>(10.0));
    assert!(Float::abs(c.depth - T::half()) < tol);
    assert!((c.normal.into_inner() + Vector2::y()).norm() < tol);
}
shape::for_each_precision!(seed_000, seed_000_rectangles);

/// A touching case for each kind of axis: edge normal, rounded axis, segment
/// direction.
fn touching_cases<T: Real>() {
    let p = |x: f64, y: f64| nalgebra::Point2::new(T::lit(x), T::lit(y));
    let id = Isometry2::identity();
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    let circle = Circle::new(T::one()).unwrap();
    let square = Aabb::new(p(-1.0, -1.0), p(1.0, 1.0)).unwrap();
    // Circle against a box face, and against a corner at distance 1 (3-4-5).
    assert!(sat_intersects(&square, &id, &circle, &at(2.0, 0.0)));
    assert!(!sat_intersects(&square, &id, &circle, &at(2.0 + 1e-3, 0.0)));
    let corner = Circle::new(T::lit(5.0)).unwrap();
    assert!(sat_intersects(&square, &id, &corner, &at(4.0, 5.0)));
    assert!(!sat_intersects(&square, &id, &corner, &at(4.0, 5.0 + 1e-3)));
    // Collinear segments: end to end touches, a gap does not.
    let s = Segment::new(p(0.0, 0.0), p(1.0, 0.0)).unwrap();
    assert!(sat_intersects(&s, &id, &s, &at(1.0, 0.0)));
    assert!(!sat_intersects(&s, &id, &s, &at(1.5, 0.0)));
    // Points.
    let pt = Point::origin();
    assert!(sat_intersects(&pt, &at(1.0, 2.0), &pt, &at(1.0, 2.0)));
    assert!(!sat_intersects(&pt, &at(1.0, 2.0), &pt, &at(1.0, 2.5)));
    assert!(sat_intersects(&pt, &at(0.0, 1.0), &circle, &id));
    // Coincident circles: the depth is the sum of radii along the fallback x axis.
    let c = sat_contact(&circle, &id, &circle, &id).unwrap();
    assert_eq!(c.depth, T::two());
    assert_eq!(c.normal.into_inner(), Vector2::x());
    // Capsules side by side touch at distance 2r.
    let cap = Capsule::vertical(T::one(), T::half()).unwrap();
    assert!(sat_intersects(&cap, &id, &cap, &at(1.0, 0.5)));
    assert!(!sat_intersects(&cap, &id, &cap, &at(1.0 + 1e-3, 0.5)));
}
shape::for_each_precision!(touching, touching_cases);
