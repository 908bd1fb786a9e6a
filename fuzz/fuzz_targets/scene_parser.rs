//! Scene files: arbitrary bytes through `kasanari::scene::parse_scene`. A
//! parse error must be a typed `SceneError` (never a panic). A scene that
//! parses is loaded into `World<f32>` and `World<f64>`, with the automatic
//! cell size and with given ones (zero must be a typed error): every load
//! error is typed, `validate()` holds, `collisions()` answers every pair
//! (no `Unsupported` dispatch error for built-in shapes) with finite contacts
//! (unit normal, depth ≥ 0), and the world saves back as a scene that reads
//! again.
#![no_main]

use kasanari::prelude::*;
use kasanari::scene::{Scene, SceneError, parse_scene};
use kasanari_fuzz::{allowed_for_builtins, check_contact};
use libfuzzer_sys::fuzz_target;

fn load<T: Real>(scene: &Scene, cell: Option<f64>) {
    let mut sw = match scene.world::<T>(cell.map(T::lit)) {
        Ok(sw) => sw,
        Err(e) => {
            assert!(
                matches!(e, SceneError::Shape { .. } | SceneError::World { .. }),
                "{e:?}"
            );
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(sw.handles.len(), scene.shapes.len());
    assert_eq!(sw.world.len(), scene.shapes.len());
    sw.world.validate().expect("validate after load");
    let hits = sw.world.collisions();
    // Pairs the narrow phase refuses (shapes so far apart that their relative
    // pose overflows) are reported, never silently dropped; built-in pairs
    // are never unsupported.
    for (a, b, e) in &hits.errors {
        assert!(a < b && allowed_for_builtins(e), "dispatch error {e:?}");
    }
    for p in &hits.pairs {
        assert!(p.a < p.b, "pair out of order");
        check_contact(&p.contact, &(p.a, p.b));
    }
    sw.world.validate().expect("validate after collisions");
    // The world saves as a scene of built-in shapes whose numbers are finite.
    let saved = Scene::from_world(&sw.world).expect("built-in shapes only");
    let text = kasanari::serde_json::to_string(&saved).expect("serialise");
    parse_scene(text.as_bytes()).expect("a saved scene reads again");
}

fuzz_target!(|data: &[u8]| {
    let scene = match parse_scene(data) {
        Ok(s) => s,
        Err(e) => {
            assert!(
                matches!(e, SceneError::Json(_) | SceneError::Version(_)),
                "{e:?}"
            );
            let _ = e.to_string();
            return;
        }
    };
    for cell in [None, Some(0.5), Some(1e3)] {
        load::<f32>(&scene, cell);
        load::<f64>(&scene, cell);
    }
    assert!(matches!(
        scene.world::<f32>(Some(0.0)),
        Err(SceneError::World { .. })
    ));
});
