//! End to end, far from the origin: shapes written in world coordinates in a
//! scene or pairs file, then loaded in f32 (or f64), answer as they do near the
//! origin up to what the spacing of the loading precision at the offset forces.
//!
//! - Shapes given by vertices (segment, aabb, triangle, polygon, capsule) are
//!   placed at their centroid rounded to `T`, with local vertices computed in
//!   f64 against it: their world vertices are exact up to rounding at the
//!   shape's own size. Two such shapes answer as near the origin, to the
//!   shape-scale tolerance and the rounding of the file's own f64 numbers at
//!   the offset (`√2·h` of f64: 1.7e-4 at 1e12, 2e-11 at 1e5).
//! - Shapes given by a centre (point, circle, obb, ellipse) can only be placed
//!   at the centre rounded to `T`: up to half a spacing `h` per coordinate, so
//!   a pair with one moves by at most `√2·h` relative to each other.
//!
//! The reference is the f64 brute force of `common` on the shapes near the
//! origin.

use crate::common;
use crate::support;

use common::*;
use kasanari::prelude::*;
use kasanari::scene::{Entry, PairsFile, Scene, parse_pairs, parse_scene};
use proptest::prelude::*;
use support::world_spec;

fn by_vertices(s: &Spec) -> bool {
    matches!(
        s,
        Spec::Segment(..)
            | Spec::Aabb(..)
            | Spec::Triangle(..)
            | Spec::Polygon(..)
            | Spec::Capsule(..)
    )
}

fn ellipse_slack(sa: &Spec, sb: &Spec) -> f64 {
    if matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..)) {
        1e-3 * (extent(sa) + extent(sb))
    } else {
        0.0
    }
}

fn far_pair<T: Real>(
    sa: Spec,
    pa: [f64; 3],
    sb: Spec,
    pb: [f64; 3],
    (u, theta): (f64, f64),
) -> Result<(), TestCaseError> {
    let m = max_offset::<T>().powf(u);
    let o = [m * theta.cos(), m * theta.sin()];
    let (a, b) = (world_spec(&sa, pa, o), world_spec(&sb, pb, o));
    // The file's own numbers are f64 rounded at the offset (half an f64
    // spacing per coordinate). Loading adds nothing for vertex shapes, and
    // half a spacing of `T` per coordinate of a centre otherwise.
    let scale = m + 16.0 + extent(&sa) + extent(&sb);
    let file = std::f64::consts::SQRT_2 * spacing::<f64>(scale);
    let bound = if by_vertices(&sa) && by_vertices(&sb) {
        file
    } else {
        file + std::f64::consts::SQRT_2 * spacing::<T>(scale)
    };
    let slack = slack::<T>(&sa, pa, &sb, pb) + ellipse_slack(&sa, &sb);
    let reference = reference_min_overlap(&sa, pa, &sb, pb, None);

    // The pairs file path: the same specs read back from JSON.
    let text = serde_json::to_string(&PairsFile {
        version: 1,
        pairs: vec![kasanari::scene::PairSpec {
            a: a.clone(),
            b: b.clone(),
            prediction: None,
        }],
    })
    .unwrap();
    let file = parse_pairs(text.as_bytes()).unwrap();
    let pair = &file.pairs[0];
    let (ka, ia) = pair.a.to_shape::<T>().unwrap();
    let (kb, ib) = pair.b.to_shape::<T>().unwrap();
    let far = narrowphase::contact(ka.as_ref(), &ia, kb.as_ref(), &ib).unwrap();
    if reference.abs() > bound + slack {
        prop_assert_eq!(
            far.is_some(),
            reference > 0.0,
            "reference overlap {}, bound {}, offset {:?}",
            reference,
            bound,
            o
        );
    }
    if let Some(c) = far {
        prop_assert!(
            c.depth.is_finite() && c.normal.x.is_finite() && c.normal.y.is_finite(),
            "{c:?}"
        );
        // Against the same specs at the origin, in f64.
        let (na, nia) = world_spec(&sa, pa, [0.0; 2]).to_shape::<f64>().unwrap();
        let (nb, nib) = world_spec(&sb, pb, [0.0; 2]).to_shape::<f64>().unwrap();
        if let Some(near) = narrowphase::contact(na.as_ref(), &nia, nb.as_ref(), &nib).unwrap() {
            prop_assert!(
                (c.depth.as_f64() - near.depth).abs() <= bound + slack,
                "depth {:?} far, {} near in f64, bound {bound}",
                c.depth,
                near.depth
            );
        }
    }

    // The scene path: both shapes in a world; one pair exactly when the
    // narrow phase says so.
    let scene = Scene {
        version: 1,
        shapes: [a, b]
            .into_iter()
            .map(|shape| Entry {
                id: None,
                membership: None,
                mask: None,
                shape,
            })
            .collect(),
    };
    let text = serde_json::to_string(&scene).unwrap();
    let mut loaded = parse_scene(text.as_bytes())
        .unwrap()
        .world::<T>(None)
        .unwrap();
    loaded.world.validate().unwrap();
    let pairs = loaded.world.collisions().pairs.len();
    prop_assert_eq!(pairs, usize::from(far.is_some()));
    Ok(())
}

macro_rules! for_both {
    ($name:ident, $cases:expr) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig {
                    cases: shape::testing::cases($cases),
                    ..ProptestConfig::default()
                })]
                #[test]
                fn f32((sa, sb) in spec_pair(), pa in pose(4.0), pb in pose(4.0),
                       o in (0.0f64..=1.0, -std::f64::consts::PI..std::f64::consts::PI)) {
                    far_pair::<f32>(sa, pa, sb, pb, o)?;
                }
                #[test]
                fn f64((sa, sb) in spec_pair(), pa in pose(4.0), pb in pose(4.0),
                       o in (0.0f64..=1.0, -std::f64::consts::PI..std::f64::consts::PI)) {
                    far_pair::<f64>(sa, pa, sb, pb, o)?;
                }
            }
        }
    };
}

// 256 cases: each builds both files and a world, unoptimised in the test
// profile (512 took about 33 s per precision in CI); deep runs set
// PROPTEST_CASES.
for_both!(files_far_from_the_origin, 256);
