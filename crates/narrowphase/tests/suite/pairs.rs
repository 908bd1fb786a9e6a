//! Every pair of built-in 2D shapes through the dispatch table, f32 and f64:
//! exact symmetry, `contact.is_some() == intersects`, agreement with a
//! brute-force reference (dense boundary samples projected on thousands of
//! directions, in f64, independent of the kernels), contact validity (moving B
//! by depth ± ε separates / does not), invariance under a rigid motion of both
//! shapes, and no NaN.

use crate::common;
use crate::support;

use common::*;
use nalgebra::{Isometry2, Translation2, Vector2};
use narrowphase::{Contact, DispatchTable};
use proptest::prelude::*;
use shape::prelude::*;
use support::touching_shapes;

fn world(c: &Contact<impl Real>) -> [f64; 2] {
    [c.normal.x.as_f64(), c.normal.y.as_f64()]
}

fn no_nan<T: Real>(c: &Contact<T>) -> bool {
    [
        c.normal.x,
        c.normal.y,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_b.x,
        c.point_b.y,
    ]
    .iter()
    .all(|v| !v.is_nan())
}

fn pair_props<T: Real>(
    sa: Spec,
    pa: [f64; 3],
    sb: Spec,
    pb: [f64; 3],
) -> Result<(), TestCaseError> {
    let table = DispatchTable::<T>::shared();
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let hit_ab = table.intersects(a, &ia, b, &ib).unwrap();
    let hit_ba = table.intersects(b, &ib, a, &ia).unwrap();
    let c_ab = table.contact(a, &ia, b, &ib).unwrap();
    let c_ba = table.contact(b, &ib, a, &ia).unwrap();
    // Exact symmetry and consistency.
    prop_assert_eq!(hit_ab, hit_ba);
    prop_assert_eq!(c_ab.is_some(), hit_ab);
    prop_assert_eq!(c_ba.is_some(), hit_ba);
    if let (Some(x), Some(y)) = (c_ab, c_ba) {
        prop_assert!(no_nan(&x), "{x:?}");
        prop_assert_eq!(x.depth, y.depth);
        prop_assert_eq!(x.normal.into_inner(), -y.normal.into_inner());
        prop_assert_eq!((x.point_a, x.point_b), (y.point_b, y.point_a));
        prop_assert!(x.depth >= T::zero());
        prop_assert!((x.normal.norm() - T::one()).as_f64().abs() <= reference_tolerance::<T>(1.0));
    }
    // Agreement with the brute-force reference, away from touching.
    let extra = c_ab.as_ref().map(world);
    let reference = reference_min_overlap(&sa, pa, &sb, pb, extra);
    let slack = slack::<T>(&sa, pa, &sb, pb) + gjk_slack(&sa, &sb);
    if reference.abs() > slack {
        prop_assert_eq!(hit_ab, reference > 0.0, "reference overlap {}", reference);
    }
    if let Some(c) = c_ab {
        let depth = c.depth.as_f64();
        let along = sampled_overlap(
            &world_boundary(&sa, pa),
            &world_boundary(&sb, pb),
            world(&c),
        );
        prop_assert!(
            (along - depth).abs() <= slack,
            "overlap along the normal {along} vs depth {depth}"
        );
        prop_assert!(
            depth <= reference + slack,
            "depth {depth} above the reference minimum {reference}"
        );
        // The contact points are A's and B's deepest points along the normal.
        let gap = (c.point_a - c.point_b).dot(&c.normal).as_f64();
        prop_assert!(
            (gap - depth).abs() <= slack,
            "(point_a - point_b)·n = {gap}, depth {depth}"
        );
        for (p, s, pose, sign) in [(c.point_a, &sa, pa, 1.0), (c.point_b, &sb, pb, -1.0)] {
            let p = [p.x.as_f64(), p.y.as_f64()];
            prop_assert!(
                signed_distance(s, pose, p) <= slack,
                "contact point {p:?} off its shape"
            );
            let n = world(&c);
            let best = world_boundary(s, pose)
                .iter()
                .map(|q| sign * (q[0] * n[0] + q[1] * n[1]))
                .fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(
                sign * (p[0] * n[0] + p[1] * n[1]) >= best - slack,
                "contact point {p:?} not deepest"
            );
        }
        // Moving B by (depth + eps) along the normal separates; by (depth - eps) does not.
        let eps = 4.0 * slack + 1e-9;
        let moved = |by: f64| {
            let n = c.normal.into_inner() * T::lit(by);
            Translation2::from(n) * ib
        };
        prop_assert!(
            !table.intersects(a, &ia, b, &moved(depth + eps)).unwrap(),
            "still touching after depth + eps"
        );
        if depth > eps {
            prop_assert!(
                table.intersects(a, &ia, b, &moved(depth - eps)).unwrap(),
                "apart after depth - eps"
            );
        }
    }
    Ok(())
}

/// Pairs answered by a fallback or a numerical contact converge to a
/// tolerance rather than exactly: the ellipse pairs.
fn gjk_slack(sa: &Spec, sb: &Spec) -> f64 {
    if matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..)) {
        1e-3 * (extent(sa) + extent(sb))
    } else {
        0.0
    }
}

fn rigid_motion<T: Real>(
    sa: Spec,
    pa: [f64; 3],
    sb: Spec,
    pb: [f64; 3],
    m: [f64; 3],
) -> Result<(), TestCaseError> {
    let compose = rigid_motion_for(&sa, &sb, m);
    let table = DispatchTable::<T>::shared();
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let before = table
        .contact(a.as_ref(), &iso::<T>(pa), b.as_ref(), &iso::<T>(pb))
        .unwrap();
    let after = table
        .contact(
            a.as_ref(),
            &iso::<T>(compose(pa)),
            b.as_ref(),
            &iso::<T>(compose(pb)),
        )
        .unwrap();
    let slack = slack::<T>(&sa, compose(pa), &sb, compose(pb))
        + slack::<T>(&sa, pa, &sb, pb)
        + gjk_slack(&sa, &sb);
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
    ($name:ident, $cases:expr, ( $($arg:pat in $strat:expr),* ) => $body:ident ( $($call:expr),* )) => {
        mod $name {
            use super::*;
            proptest! {
                // Cases near touching are skipped (`prop_assume!`): allow as
                // many as there are cases, for deep runs.
                #![proptest_config(ProptestConfig {
                    cases: shape::testing::cases($cases),
                    max_global_rejects: shape::testing::cases($cases),
                    ..ProptestConfig::default()
                })]
                #[test]
                fn f32($($arg in $strat),*) { $body::<f32>($($call),*)?; }
                #[test]
                fn f64($($arg in $strat),*) { $body::<f64>($($call),*)?; }
            }
        }
    };
}

for_both!(every_pair, 512, ((sa, sb) in spec_pair(), pa in pose(4.0), pb in pose(4.0)) => pair_props(sa, pa, sb, pb));
for_both!(invariance, 256, ((sa, sb) in spec_pair(), pa in pose(4.0), pb in pose(4.0), m in pose(100.0)) => rigid_motion(sa, pa, sb, pb, m));

/// A touching case for every pair (both orders) at exactly representable
/// coordinates: touching collides, a hair apart does not.
fn touching_every_pair<T: Real>() {
    let table = DispatchTable::<T>::new();
    let shapes = touching_shapes::<T>();
    let mut failures = Vec::new();
    for (a, ra) in &shapes {
        for (b, rb) in &shapes {
            if *ra + *rb == 0.0 {
                continue; // two points: covered below
            }
            let d = T::lit(ra + rb);
            let hair = d * T::epsilon() * T::lit(8.0);
            let pa = Isometry2::identity();
            let touch = Isometry2::translation(d, T::zero());
            let apart = Isometry2::translation(d + hair, T::zero());
            let t = table
                .intersects(a.as_ref(), &pa, b.as_ref(), &touch)
                .unwrap();
            let h = table
                .intersects(a.as_ref(), &pa, b.as_ref(), &apart)
                .unwrap();
            let c = table.contact(a.as_ref(), &pa, b.as_ref(), &touch).unwrap();
            if !t || h || c.is_none_or(|c| c.depth.as_f64() > 1e-6) {
                failures.push(format!(
                    "{} vs {}: touching {t}, apart {h}, contact {c:?}",
                    a.kind(),
                    b.kind()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let pt = Point::<T>::origin();
    let o = Isometry2::identity();
    assert!(table.intersects(&pt, &o, &pt, &o).unwrap());
    assert!(
        !table
            .intersects(
                &pt,
                &o,
                &pt,
                &Isometry2::translation(T::epsilon(), T::zero())
            )
            .unwrap()
    );
}
shape::for_each_precision!(touching, touching_every_pair);

/// Every pair of built-in kinds has a kernel for every query (no fallback),
/// the same kernel in both orders, mirrored in the second.
fn every_builtin_pair_registered<T: Real>() {
    use narrowphase::{ClosestPointsQuery, ContactQuery, IntersectsQuery, Route};
    let table = DispatchTable::<T>::new();
    let shapes = touching_shapes::<T>();
    for (a, _) in &shapes {
        for (b, _) in &shapes {
            let (a, b) = (a.as_ref(), b.as_ref());
            let routes = [
                table.route_for::<IntersectsQuery>(a, b).unwrap(),
                table.route_for::<ContactQuery>(a, b).unwrap(),
                table.route_for::<ClosestPointsQuery>(a, b).unwrap(),
            ];
            for route in routes {
                let Route::Kernel { name, mirrored } = route else {
                    panic!("{} vs {}: {route:?}", a.kind(), b.kind());
                };
                assert_eq!(mirrored, a.kind() > b.kind(), "{name}");
                let back = table.route_for::<IntersectsQuery>(b, a).unwrap();
                assert_eq!(
                    back,
                    Route::Kernel {
                        name,
                        mirrored: b.kind() > a.kind()
                    }
                );
            }
        }
    }
}
shape::for_each_precision!(registered, every_builtin_pair_registered);

/// Every pair (both orders) with both shapes at the same pose, and with the
/// second shape a hair off: contacts exist, contain no NaN, and are the same
/// when asked twice (deterministic fallback normals for coincident centres).
fn coincident_poses<T: Real>() {
    let table = DispatchTable::<T>::new();
    let shapes = touching_shapes::<T>();
    let poses = [
        Isometry2::identity(),
        Isometry2::new(Vector2::new(T::lit(1e3), T::lit(-7.0)), T::lit(0.4)),
    ];
    for pose in poses {
        let nudged = Translation2::new(T::epsilon(), T::zero()) * pose;
        for (a, _) in &shapes {
            for (b, _) in &shapes {
                for pb in [pose, nudged] {
                    let c = table.contact(a.as_ref(), &pose, b.as_ref(), &pb).unwrap();
                    let again = table.contact(a.as_ref(), &pose, b.as_ref(), &pb).unwrap();
                    assert_eq!(c, again);
                    if a.kind() == ShapeKind::POINT && b.kind() == ShapeKind::POINT && pb != pose {
                        assert!(c.is_none());
                        continue;
                    }
                    let c = c.unwrap_or_else(|| {
                        panic!("{} vs {} at the same place", a.kind(), b.kind())
                    });
                    assert!(no_nan(&c), "{} vs {}: {c:?}", a.kind(), b.kind());
                    assert!((c.normal.norm() - T::one()).as_f64().abs() < 1e-4);
                }
            }
        }
    }
}
shape::for_each_precision!(coincident, coincident_poses);
