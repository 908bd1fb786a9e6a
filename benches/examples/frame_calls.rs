//! A driver for counting instructions (callgrind) of a whole `World` frame:
//! every object gets a new pose (one `set_poses` call), then `collisions()`. The scene
//! is `world_scene::input` (circles and boxes, one in ten five to ten times
//! larger, about two box overlaps per shape), jittered into [`POSE_SETS`]
//! pose sets the frames cycle through. Only `timed_loop` does the measured
//! work; the world is warmed up (one pass over every pose set) before it.
//!
//! ```text
//! cargo build --release -p kasanari-benches --example frame_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/frame_calls off 1000 8
//! ```
//!
//! Arguments: `<mode> <n> [reps]`.
//! - `mode`: `off` (the plain frame: contacts only), or a prediction such as
//!   `0` or `0.1` (contact manifolds on, `World::set_manifolds(Some(p))`);
//! - `n`: the number of objects.
//!
//! The program prints the wall-clock time per frame, the number of frames
//! and a checksum of the answers: callgrind's total divided by the number of
//! frames is the instructions per frame.

use std::hint::black_box;
use std::time::Instant;

use kasanari::nalgebra::{Isometry2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::world_scene::{Spec, input};

/// Jittered pose sets the frames cycle through.
const POSE_SETS: usize = 4;
/// Translation jitter per axis (objects are about one unit across).
const MOVE: f64 = 0.05;
/// Rotation jitter, radians.
const TURN: f64 = 0.05;

#[inline(never)]
fn timed_loop(reps: usize, mut f: impl FnMut(usize)) {
    let start = Instant::now();
    for r in 0..reps {
        f(black_box(r));
    }
    let per = start.elapsed().as_secs_f64() / reps.max(1) as f64;
    eprintln!("wall clock: {:.3} us per frame", per * 1e6);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("off", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(8);
    let prediction: Option<f32> = if mode == "off" {
        None
    } else {
        Some(mode.parse().expect("mode: off or a prediction"))
    };

    let scene = input(n, 0x0F2A_3E00 + n as u64);
    let mut rng = Rng::new(0x5EED_F2A3);
    let sets: Vec<Vec<Isometry2<f32>>> = (0..POSE_SETS)
        .map(|_| {
            scene
                .poses
                .iter()
                .map(|p| {
                    Isometry2::new(
                        Vector2::new(
                            (p[0] + rng.range(-MOVE, MOVE)) as f32,
                            (p[1] + rng.range(-MOVE, MOVE)) as f32,
                        ),
                        (p[2] + rng.range(-TURN, TURN)) as f32,
                    )
                })
                .collect()
        })
        .collect();
    let mut world = World::<f32>::new(1.0).expect("valid cell size");
    let handles: Vec<Handle> = scene
        .specs
        .iter()
        .zip(&sets[0])
        .map(|(s, p)| {
            let shape: Box<dyn Shape<f32>> = match s {
                Spec::Circle(r) => Box::new(Circle::new(*r as f32).expect("valid radius")),
                Spec::Box(h) => Box::new(
                    Obb::new(Vector2::new(h[0] as f32, h[1] as f32)).expect("valid extents"),
                ),
            };
            world
                .insert_boxed(shape, *p, Filter::ALL)
                .expect("valid shape")
        })
        .collect();
    world.auto_cell_size();
    set_prediction(&mut world, prediction);

    let frame = |world: &mut World<f32>, k: usize| -> usize {
        let moves = handles
            .iter()
            .copied()
            .zip(sets[k % POSE_SETS].iter().copied());
        world.set_poses(moves).expect("valid poses");
        let c = world.collisions();
        c.pairs.len() + 7 * c.started.len() + 13 * manifold_count(c)
    };
    let mut sum = 0usize;
    for k in 0..POSE_SETS {
        sum = sum.wrapping_add(frame(&mut world, k));
    }
    timed_loop(reps, |r| {
        sum = sum.wrapping_add(frame(&mut world, r));
    });
    println!("frames {reps} checksum {sum}");
}

/// Turns manifolds on with prediction `p` (`None`: left off).
fn set_prediction(world: &mut World<f32>, p: Option<f32>) {
    if let Some(p) = p {
        world.set_manifolds(Some(p)).expect("valid prediction");
    }
}

/// The number of manifold pairs of the frame.
fn manifold_count(c: &Collisions<Contact<f32>, ShapeCastHit<f32>>) -> usize {
    c.manifolds.len()
}
