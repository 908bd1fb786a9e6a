//! Far from the origin: translating both shapes of a pair by the same large
//! offset `O` (f32: up to 1e5, f64: up to 1e12) changes no answer beyond what
//! the float spacing at `O` forces. Every kernel works in the frame of shape A
//! (`A⁻¹·B`, which subtracts the translations before anything else), so the
//! absolute position never meets the shapes' own small numbers.
//!
//! Two properties, for every ordered pair of the nine 2D kinds and both
//! precisions (the bound is stated in `docs/conventions.md`):
//!
//! 1. **Representable poses.** When both translations and the offset lie on the
//!    float grid at `O` (so that `p + O` is exact in `T`), the relative pose is
//!    bit-identical near and far, and the answer must be the same: the same
//!    boolean, the same depth and normal (to the shape-scale tolerance), and
//!    contact points that differ from the near ones moved by `O` only by the
//!    rounding of the output at `O` (one spacing `h`).
//! 2. **Any poses.** Rounding the far poses to `T` moves each translation by at
//!    most `h/2` per coordinate, so the relative translation moves by at most
//!    `√2·h`. The depth is 1-Lipschitz in the relative translation, so it may
//!    change by at most `√2·h` (plus the usual tolerance), and the boolean must
//!    agree with the f64 reference wherever the reference's margin exceeds that.

use crate::common;
use crate::support;

use common::*;
use narrowphase::{Contact, DispatchTable};
use proptest::prelude::*;
use shape::prelude::*;

/// The offset `O` from unit parameters: a magnitude log-uniform in
/// `[1, max_offset]`, in any direction.
fn offset<T: Real>(u: f64, theta: f64) -> [f64; 2] {
    let m = max_offset::<T>().powf(u);
    [m * theta.cos(), m * theta.sin()]
}

fn shift(p: [f64; 3], o: [f64; 2]) -> [f64; 3] {
    [p[0] + o[0], p[1] + o[1], p[2]]
}

type Case = support::Case<(f64, f64)>;

/// Runs `body` on `cases` random cases of every ordered pair of kinds, with
/// the offset's unit parameters.
fn every_ordered_pair(cases: u32, body: impl Fn(Case) -> Result<(), TestCaseError>) {
    support::every_ordered_pair(
        cases,
        || (0.0f64..=1.0, -std::f64::consts::PI..std::f64::consts::PI),
        body,
    );
}

fn contact<T: Real>(a: &Spec, pa: [f64; 3], b: &Spec, pb: [f64; 3]) -> Option<Contact<T>> {
    let table = DispatchTable::<T>::shared();
    let (sa, sb) = (build::<T>(a), build::<T>(b));
    let hit = table
        .intersects(sa.as_ref(), &iso::<T>(pa), sb.as_ref(), &iso::<T>(pb))
        .unwrap();
    let c = table
        .contact(sa.as_ref(), &iso::<T>(pa), sb.as_ref(), &iso::<T>(pb))
        .unwrap();
    assert_eq!(hit, c.is_some(), "intersects and contact disagree");
    c
}

fn finite<T: Real>(c: &Contact<T>) -> bool {
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
    .all(|v| v.is_finite())
}

/// Property 1: poses on the float grid at `O` give the same answer.
fn representable<T: Real>((sa, sb, pa, pb, (u, theta)): Case) -> Result<(), TestCaseError> {
    let o = offset::<T>(u, theta);
    let m = o[0].abs().max(o[1].abs());
    // The grid of multiples of `h` holds every sum below 2·(m + 8) exactly.
    let h = spacing::<T>(2.0 * (m + 8.0));
    let snap = |x: f64| (x / h).round() * h;
    let (pa, pb) = (
        [snap(pa[0]), snap(pa[1]), pa[2]],
        [snap(pb[0]), snap(pb[1]), pb[2]],
    );
    let o = [snap(o[0]), snap(o[1])];
    let (fa, fb) = (shift(pa, o), shift(pb, o));
    for v in [fa[0], fa[1], fb[0], fb[1]] {
        prop_assert_eq!(T::lit(v).as_f64(), v, "far pose not representable");
    }
    let near = contact::<T>(&sa, pa, &sb, pb);
    let far = contact::<T>(&sa, fa, &sb, fb);
    prop_assert_eq!(
        near.is_some(),
        far.is_some(),
        "the boolean changed at {:?}",
        o
    );
    if let (Some(x), Some(y)) = (near, far) {
        prop_assert!(finite(&y), "{y:?}");
        let tol = reference_tolerance::<T>(extent(&sa) + extent(&sb) + 8.0);
        prop_assert!(
            (x.depth - y.depth).as_f64().abs() <= tol,
            "depth {:?} near, {:?} far",
            x.depth,
            y.depth
        );
        prop_assert!(
            (x.normal.into_inner() - y.normal.into_inner())
                .norm()
                .as_f64()
                <= tol,
            "normal {:?} near, {:?} far",
            x.normal,
            y.normal
        );
        for (p, q) in [(x.point_a, y.point_a), (x.point_b, y.point_b)] {
            let d = [
                q.x.as_f64() - o[0] - p.x.as_f64(),
                q.y.as_f64() - o[1] - p.y.as_f64(),
            ];
            prop_assert!(
                d[0].abs().max(d[1].abs()) <= h + tol,
                "contact point {p:?} near, {q:?} far (offset {o:?}, spacing {h})"
            );
        }
    }
    Ok(())
}

/// Property 2: any poses change the answer by at most the rounding of the
/// poses at `O`.
fn rounded<T: Real>((sa, sb, pa, pb, (u, theta)): Case) -> Result<(), TestCaseError> {
    let o = offset::<T>(u, theta);
    let (fa, fb) = (shift(pa, o), shift(pb, o));
    let m = [fa[0], fa[1], fb[0], fb[1]]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let bound = std::f64::consts::SQRT_2 * spacing::<T>(m);
    let slack = slack::<T>(&sa, pa, &sb, pb) + ellipse_slack(&sa, &sb);
    let near = contact::<T>(&sa, pa, &sb, pb);
    let far = contact::<T>(&sa, fa, &sb, fb);
    let reference = reference_min_overlap(&sa, pa, &sb, pb, None);
    if reference.abs() > bound + slack {
        prop_assert_eq!(
            far.is_some(),
            reference > 0.0,
            "reference overlap {}, offset {:?}, bound {}",
            reference,
            o,
            bound
        );
    }
    if let Some(y) = far {
        prop_assert!(finite(&y), "{y:?}");
    }
    if let (Some(x), Some(y)) = (near, far) {
        prop_assert!(
            (x.depth - y.depth).as_f64().abs() <= bound + slack,
            "depth {:?} near, {:?} far (bound {bound}, offset {o:?})",
            x.depth,
            y.depth
        );
    }
    Ok(())
}

/// The ellipse contacts converge to a tolerance, not exactly (as in pairs.rs).
fn ellipse_slack(sa: &Spec, sb: &Spec) -> f64 {
    if matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..)) {
        1e-3 * (extent(sa) + extent(sb))
    } else {
        0.0
    }
}

fn representable_poses<T: Real>() {
    every_ordered_pair(24, representable::<T>);
}
shape::for_each_precision!(representable_poses_keep_the_answer, representable_poses);

fn rounded_poses<T: Real>() {
    every_ordered_pair(8, rounded::<T>);
}
shape::for_each_precision!(rounded_poses_stay_within_the_spacing, rounded_poses);

/// Known values: two unit boxes 0.5 apart in x touch-free, and 0.25 deep, at
/// the largest offsets, where the f32 spacing is 2^-7 and the f64 one 2^-13.
fn boxes_at_the_largest_offset<T: Real>() {
    let table = DispatchTable::<T>::shared();
    let b = build::<T>(&Spec::Obb(1.0, 1.0));
    let o = max_offset::<T>();
    let at = |x: f64| iso::<T>([o + x, -o, 0.0]);
    // Gap 0.5: apart. Depth 0.25 and touching (depth 0) exactly.
    assert!(
        !table
            .intersects(b.as_ref(), &at(0.0), b.as_ref(), &at(2.5))
            .unwrap()
    );
    let c = table
        .contact(b.as_ref(), &at(0.0), b.as_ref(), &at(1.75))
        .unwrap()
        .unwrap();
    assert_eq!(c.depth.as_f64(), 0.25);
    assert_eq!(c.normal.x.as_f64(), 1.0);
    let t = table
        .contact(b.as_ref(), &at(0.0), b.as_ref(), &at(2.0))
        .unwrap()
        .unwrap();
    assert_eq!(t.depth.as_f64(), 0.0, "touching counts as colliding");
}
shape::for_each_precision!(known_boxes_far_away, boxes_at_the_largest_offset);
