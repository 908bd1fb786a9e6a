//! The `platformer` example's level and controller
//! (`examples/platformer/game.rs`): the run never catches on a seam of the
//! tile map or the chain (the horizontal speed on flat ground is the
//! running speed at every step), crosses the gaps and the step, and ends
//! past the end of the level, and so does a box of the same size; and the
//! check does fail on a run that slows
//! down at a seam.

#[path = "../../examples/platformer/game.rs"]
mod game;

use game::{Level, RUN_SPEED};
use kasanari::nalgebra::Vector2;
use kasanari::prelude::*;

#[test]
fn the_character_never_catches_on_a_seam_and_reaches_the_end() {
    let level = Level::new().unwrap();
    let run = game::run(&level, 15.0).unwrap();
    let failures = game::check(&level, &run);
    assert!(failures.is_empty(), "{failures:#?}");
    let picture = game::svg(&level, &run);
    assert!(picture.starts_with("<svg") && picture.matches("<polyline").count() == 2);
    // A jump at each gap (x 9 and 27), at the step up (x 18) and off the
    // level's end, each within 1.5 m before it, and no other (a jump on
    // flat ground would mean the controller saw a wall or a hole at a seam).
    let jumps = run.jumps();
    assert_eq!(jumps.len(), 4, "jumps at {jumps:?}");
    for (x, edge) in jumps.iter().zip([9.0, 18.0, 27.0, level.end]) {
        assert!(edge - 1.5 < *x && *x < edge, "jumps at {jumps:?}");
    }
    let (lo, hi) = run.flat_speeds();
    assert!(
        (lo - RUN_SPEED).abs() <= 1e-9 * RUN_SPEED && (hi - RUN_SPEED).abs() <= 1e-9 * RUN_SPEED,
        "flat-ground speeds {lo}..{hi}"
    );
    // Most of the level is flat ground: the check covered it.
    let checked = run.steps.iter().filter(|s| s.on_flat).count();
    assert!(checked > 350, "only {checked} flat steps checked");
    // Both kinds of seam were crossed on flat ground: tile seams (x < 30)
    // and chain vertices (x > 30).
    let seam = |inside: fn(f64) -> bool| {
        run.steps
            .iter()
            .filter(|s| s.on_flat && s.at_seam && inside(s.x))
            .count()
    };
    assert!(seam(|x| x < 29.0) > 50 && seam(|x| x > 31.0) > 100);
    // The character rests on the ground: never below the floor's top by
    // more than rounding on the flat stretches.
    for s in run.steps.iter().filter(|s| s.on_flat) {
        let feet = s.y - game::HALF - game::RADIUS;
        assert!(feet >= -1e-9, "feet at {feet} (t = {})", s.t);
    }
}

/// A box of the capsule's extents, whose flat bottom would catch on a seam
/// if a tile or a chain segment pushed it back through its neighbour's
/// face: the same level, the same checks.
#[test]
fn a_box_character_never_catches_on_a_seam_either() {
    let level = Level::new().unwrap();
    let half = Vector2::new(game::RADIUS, game::HALF + game::RADIUS);
    let boxy = Obb::new(half).unwrap();
    let run = game::run_with(&level, &boxy, 15.0).unwrap();
    let failures = game::check(&level, &run);
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(run.jumps().len(), 4, "jumps at {:?}", run.jumps());
}

#[test]
fn the_check_fails_on_a_run_slowed_at_a_seam_or_short_of_the_end() {
    let level = Level::new().unwrap();
    let run = game::run(&level, 15.0).unwrap();
    let mut slowed = run.clone();
    let k = slowed
        .steps
        .iter()
        .position(|s| s.on_flat && s.at_seam)
        .unwrap();
    slowed.steps[k].vx *= 1.0 - 1e-6;
    let failures = game::check(&level, &slowed);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("at a seam"));
    let mut short = run;
    short.steps.truncate(short.steps.len() / 2);
    let failures = game::check(&level, &short);
    assert!(
        failures
            .iter()
            .any(|f| f.contains("short of the level's end")),
        "{failures:?}"
    );
}
