//! Pairs files: arbitrary bytes through `kasanari::scene::parse_pairs`, then
//! what `kasanari pairs` does with each pair (`ShapeSpec::to_shape` in f32 and
//! f64, then the dispatch table's `contact`): errors are typed (never a
//! panic), a built-in pair is never `Unsupported` (a pose out of range for the
//! precision may be refused, in both orders alike), `contact` is `Some`
//! exactly when `intersects` is true, both orders agree (same depth, negated
//! normal, swapped points), and contacts are finite with no NaN, a unit
//! normal and depth ≥ 0.
#![no_main]

use kasanari::prelude::*;
use kasanari::scene::{PairsFile, SceneError, parse_pairs};
use kasanari_fuzz::{allowed_for_builtins, check_contact};
use libfuzzer_sys::fuzz_target;

fn answer<T: Real>(file: &PairsFile) {
    let table = DispatchTable::<T>::shared();
    for (i, p) in file.pairs.iter().enumerate() {
        let (Ok((a, pa)), Ok((b, pb))) = (p.a.to_shape::<T>(), p.b.to_shape::<T>()) else {
            // A typed ShapeError, as the command reports it.
            continue;
        };
        let (a, b) = (a.as_ref(), b.as_ref());
        let results = (
            table.contact(a, &pa, b, &pb),
            table.contact(b, &pb, a, &pa),
            table.intersects(a, &pa, b, &pb),
            table.intersects(b, &pb, a, &pa),
        );
        let (c_ab, c_ba, hit, hit_ba) = match results {
            (Ok(x), Ok(y), Ok(h), Ok(g)) => (x, y, h, g),
            (Err(x), Err(y), Err(h), Err(g)) => {
                // A typed refusal (a pose out of range for the precision),
                // the same whichever the order and the query.
                assert!(allowed_for_builtins(&x), "pairs[{i}]: {x:?}");
                assert!(
                    x == y && y == h && h == g,
                    "pairs[{i}]: {x:?} {y:?} {h:?} {g:?}"
                );
                let _ = x.to_string();
                continue;
            }
            r => panic!("pairs[{i}]: some queries fail, some answer: {r:?}"),
        };
        assert_eq!(hit, hit_ba, "pairs[{i}] asymmetric");
        assert_eq!(c_ab.is_some(), hit, "pairs[{i}]: contact vs intersects");
        assert_eq!(
            c_ba.is_some(),
            hit,
            "pairs[{i}]: contact vs intersects (b, a)"
        );
        if let (Some(x), Some(y)) = (c_ab, c_ba) {
            check_contact(&x, &(i, &p.a, &p.b));
            assert_eq!(x.depth, y.depth, "pairs[{i}]: depth differs by order");
            assert_eq!(
                x.normal.into_inner(),
                -y.normal.into_inner(),
                "pairs[{i}]: normals"
            );
            assert_eq!(
                (x.point_a, x.point_b),
                (y.point_b, y.point_a),
                "pairs[{i}]: points"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    match parse_pairs(data) {
        Ok(file) => {
            answer::<f32>(&file);
            answer::<f64>(&file);
        }
        Err(e) => {
            assert!(
                matches!(e, SceneError::Json(_) | SceneError::Version(_)),
                "{e:?}"
            );
            let _ = e.to_string();
        }
    }
});
