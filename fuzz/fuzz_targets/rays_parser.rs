//! Rays files: arbitrary bytes through `kasanari::scene::parse_rays`, then
//! what `kasanari rays` does (`RaysFile::world` in f32 and f64, then every
//! ray's first hit through the World): errors are typed (never a panic), and
//! each first hit agrees with brute force, the exact ray cast of every shape
//! of the file (`narrowphase::cast_ray`): the same smallest time of impact
//! (ties to the smaller index), a finite hit point and a unit normal.
#![no_main]

use kasanari::prelude::*;
use kasanari::scene::{RaysFile, SceneError, parse_rays};
use libfuzzer_sys::fuzz_target;

fn answer<T: Real>(file: &RaysFile) {
    let Ok(rays) = file.world::<T>() else {
        // A typed SceneError (a bad shape, a shape or ray out of T's range).
        return;
    };
    for (i, q) in rays.rays.iter().enumerate() {
        let found = match rays.first_hit(q) {
            Ok(found) => found,
            Err(e) => {
                assert!(matches!(e, SceneError::Query { .. }), "rays[{i}]: {e:?}");
                let _ = e.to_string();
                continue;
            }
        };
        // Brute force over the file's shapes, in file order.
        let mut best: Option<(usize, T)> = None;
        let mut refused = false;
        for (k, h) in rays.shapes.handles.iter().enumerate() {
            let o = rays.shapes.world.get(*h).expect("a live handle");
            // The world's rule: a shape in no group, or seeing none, is skipped.
            if !QueryFilter::default().accepts(*h, &o.filter()) {
                continue;
            }
            match cast_ray(o.shape(), o.pose(), &q.ray, q.max_toi, q.solid) {
                Ok(Some(hit)) if best.is_none_or(|(_, t)| hit.toi < t) => {
                    best = Some((k, hit.toi));
                }
                Ok(_) => {}
                Err(_) => refused = true,
            }
        }
        if refused {
            // The world may have answered before reaching the refusing shape.
            continue;
        }
        assert_eq!(
            found.map(|(k, hit)| (k, hit.toi)),
            best,
            "rays[{i}]: world and brute force disagree"
        );
        if let Some((_, hit)) = found {
            assert!(hit.toi >= T::zero() && hit.toi <= q.max_toi, "rays[{i}]: toi");
            assert!(
                hit.point.x.is_finite() && hit.point.y.is_finite(),
                "rays[{i}]: point"
            );
            let n = hit.normal.into_inner();
            assert!(
                num_traits::Float::abs(n.norm() - T::one()) <= T::lit(1e-3),
                "rays[{i}]: normal {n:?}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    match parse_rays(data) {
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
