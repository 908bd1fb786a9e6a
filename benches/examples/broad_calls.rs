//! A driver for counting instructions (callgrind) and timing (wall clock) the
//! broad phase and the World's ray casts on the scenes of `benches/broad.rs`
//! and `benches/world_queries.rs` (same generators, same seeds), kasanari
//! beside parry2d. Only `timed_loop` does the measured work.
//!
//! ```text
//! cargo build --release -p kasanari-benches --example broad_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/broad_calls build uniform 1000 grid 10
//! target/release/examples/broad_calls build uniform 100000 bvh 20   # wall clock
//! ```
//!
//! Arguments: `<what> <layout> <n> <side> [reps]`.
//! - `what`: `build` (`Grid::from_boxes` + `candidate_pairs`, against
//!   `Bvh::from_leaves` + self-traversal), `update` (every box moved a little,
//!   then all pairs), `far` (every box leaves its fat box every frame), or a
//!   ray length `short`, `medium`, `long`, `across` (a batch of 256 first-hit
//!   `World::cast_ray`s against `Bvh::cast_ray`), or `project` (256
//!   `World::project_point`s);
//! - `layout`: `uniform` or `clustered` (rays: uniform only);
//! - `side`: `grid` (kasanari) or `bvh` (parry).
//!
//! The program prints the wall-clock time per repetition and the number of
//! repetitions: callgrind's total divided by it is the instructions per
//! repetition (per batch of 256 for rays).

use std::hint::black_box;
use std::time::Instant;

use kasanari::broadphase::{Grid, QueryFilter};
use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::broad_scene::{half_sizes, unit_centres};
use kasanari_benches::world_scene::{Input, Spec, input};
use parry2d::bounding_volume::Aabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

/// Mean number of other boxes each box overlaps.
const TARGET_OVERLAPS: f64 = 2.0;
/// Jittered copies of each scene the moving modes cycle through.
const POSITION_SETS: usize = 4;
/// Jitter per copy (as `benches/broad.rs`).
const JITTER: f64 = 0.1;
/// Far moves, in grid margins.
const FAR_MARGINS: f64 = 4.0;
/// Queries per ray batch.
const RAYS: usize = 256;

#[inline(never)]
fn timed_loop(reps: usize, mut f: impl FnMut(usize)) {
    let start = Instant::now();
    let cpu = on_cpu_ns();
    for r in 0..reps {
        f(black_box(r));
    }
    let per = start.elapsed().as_secs_f64() / reps.max(1) as f64;
    let cpu_per = (on_cpu_ns() - cpu) as f64 * 1e-9 / reps.max(1) as f64;
    eprintln!(
        "wall clock: {:.3} us per repetition; on CPU: {:.3} us",
        per * 1e6,
        cpu_per * 1e6
    );
}

/// The time this thread has spent on a CPU, in nanoseconds (Linux's
/// `/proc/thread-self/schedstat`; 0 elsewhere): on a loaded machine it
/// leaves out the time other processes ran.
fn on_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn to_box(c: [f64; 2], h: [f64; 2]) -> BoundingBox2<f32> {
    BoundingBox2::new(
        Point2::new((c[0] - h[0]) as f32, (c[1] - h[1]) as f32),
        Point2::new((c[0] + h[0]) as f32, (c[1] + h[1]) as f32),
    )
}

fn to_aabb(b: &BoundingBox2<f32>) -> Aabb {
    Aabb::new(Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y))
}

fn grid_pairs(boxes: &[BoundingBox2<f32>], cell: f32) -> usize {
    let mut grid = Grid::new(cell).expect("valid cell size");
    for (i, b) in boxes.iter().enumerate() {
        grid.insert(i as u32, *b).expect("valid box");
    }
    let mut pairs = Vec::new();
    grid.candidate_pairs(&mut pairs);
    pairs.len()
}

/// The scene of `benches/broad.rs` (same seeds): boxes in
/// [`POSITION_SETS`] jittered copies and the cell size.
fn scene(n: usize, clustered: bool) -> (Vec<Vec<BoundingBox2<f32>>>, f32) {
    let si = [1_000, 10_000, 100_000, 1_000_000]
        .iter()
        .position(|&m| m == n)
        .unwrap_or(0) as u64;
    let li = u64::from(clustered);
    let mut rng = Rng::new(0x00B2_0AD0 + 16 * li + si);
    let half = half_sizes(&mut rng, n);
    let unit = unit_centres(&mut rng, n, clustered);
    let jitter: Vec<Vec<[f64; 2]>> = (0..POSITION_SETS)
        .map(|_| {
            (0..n)
                .map(|_| [rng.range(-JITTER, JITTER), rng.range(-JITTER, JITTER)])
                .collect()
        })
        .collect();
    let (mut ew, mut eh, mut ewh) = (0.0, 0.0, 0.0);
    for h in &half {
        let (w, hh) = (2.0 * h[0], 2.0 * h[1]);
        ew += w;
        eh += hh;
        ewh += w * hh;
    }
    let nf = n as f64;
    let (ew, eh, ewh) = (ew / nf, eh / nf, ewh / nf);
    let mut side = ((nf - 1.0) * 2.0 * (ewh + ew * eh) / TARGET_OVERLAPS).sqrt();
    let place = |side: f64, set: Option<&[[f64; 2]]>| -> Vec<BoundingBox2<f32>> {
        unit.iter()
            .zip(&half)
            .enumerate()
            .map(|(i, (u, h))| {
                let d = set.map_or([0.0, 0.0], |s| s[i]);
                to_box([u[0] * side + d[0], u[1] * side + d[1]], *h)
            })
            .collect()
    };
    let cell = Grid::<f32, 2>::suggest_cell_size(&place(side, None)).expect("sized");
    for _ in 0..6 {
        let mean = 2.0 * grid_pairs(&place(side, None), cell) as f64 / nf;
        if (mean / TARGET_OVERLAPS - 1.0).abs() < 0.1 {
            break;
        }
        side *= (mean / TARGET_OVERLAPS).sqrt();
    }
    let boxes = jitter.iter().map(|j| place(side, Some(j))).collect();
    (boxes, cell)
}

/// The far copies of `benches/broad.rs`'s `far_scene`.
fn far(boxes: &[Vec<BoundingBox2<f32>>], cell: f32, n: usize) -> Vec<Vec<BoundingBox2<f32>>> {
    let si = [1_000, 10_000, 100_000, 1_000_000]
        .iter()
        .position(|&m| m == n)
        .unwrap_or(0) as u64;
    let margin = f64::from(Grid::<f32, 2>::new(cell).expect("valid").margin());
    let step = FAR_MARGINS * margin;
    let mut rng = Rng::new(0x00FA_0000 + si);
    let dirs: Vec<[f64; 2]> = (0..n)
        .map(|_| {
            let mut sign = || {
                if rng.range(0.0, 1.0) < 0.5 {
                    -step
                } else {
                    step
                }
            };
            [sign(), sign()]
        })
        .collect();
    boxes
        .iter()
        .enumerate()
        .map(|(k, set)| {
            set.iter()
                .zip(&dirs)
                .map(|(b, d)| {
                    let d = if k % 2 == 1 { *d } else { [0.0, 0.0] };
                    let (dx, dy) = (d[0] as f32, d[1] as f32);
                    BoundingBox2::new(
                        Point2::new(b.min.x + dx, b.min.y + dy),
                        Point2::new(b.max.x + dx, b.max.y + dy),
                    )
                })
                .collect()
        })
        .collect()
}

fn broad(what: &str, clustered: bool, n: usize, side: &str, reps: usize) -> usize {
    let (mut boxes, cell) = scene(n, clustered);
    if what == "far" {
        boxes = far(&boxes, cell, n);
    }
    let aabbs: Vec<Vec<Aabb>> = boxes
        .iter()
        .map(|s| s.iter().map(to_aabb).collect())
        .collect();
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(4 * n);
    let mut total = 0usize;
    if side == "stats" {
        let grid = Grid::from_boxes(
            cell,
            boxes[0].iter().enumerate().map(|(i, b)| (i as u32, *b)),
        )
        .expect("valid boxes");
        grid.candidate_pairs(&mut pairs);
        let st = grid.stats();
        let tight = Grid::with_margin(cell, 0.0).expect("valid");
        let mut tight = tight;
        for (i, b) in boxes[0].iter().enumerate() {
            tight.insert(i as u32, *b).expect("valid");
        }
        let ts = tight.stats();
        let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
        for (_, b) in grid.iter() {
            let (a, c) = (grid.cell_of(&b.min), grid.cell_of(&b.max));
            for k in 0..2 {
                lo[k] = lo[k].min(a[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        let boxcells = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
        println!(
            "n {n}: cell {cell}, pairs {}, fat memberships {}, cells {}, oversize {}, max/cell {}, tight memberships {}, tight cells {}, box cells {boxcells}",
            pairs.len(),
            st.memberships,
            st.cells,
            st.oversize,
            st.max_per_cell,
            ts.memberships,
            ts.cells
        );
        return 0;
    }
    match (what, side) {
        ("build", "grid") => timed_loop(reps, |_| {
            let grid = Grid::from_boxes(
                cell,
                boxes[0].iter().enumerate().map(|(i, b)| (i as u32, *b)),
            )
            .expect("valid boxes");
            grid.candidate_pairs(&mut pairs);
            total += black_box(pairs.len());
        }),
        ("build", "bvh") => {
            let mut ws = BvhWorkspace::default();
            timed_loop(reps, |_| {
                let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs[0]);
                pairs.clear();
                bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| pairs.push((a, b)));
                total += black_box(pairs.len());
            });
        }
        ("update" | "far", "grid") => {
            let mut grid = Grid::new(cell).expect("valid cell size");
            for (i, b) in boxes[0].iter().enumerate() {
                grid.insert(i as u32, *b).expect("valid box");
            }
            grid.candidate_pairs(&mut pairs);
            // Warm up as criterion does (a frame through every position set).
            for k in 1..=POSITION_SETS {
                for (i, b) in boxes[k % POSITION_SETS].iter().enumerate() {
                    grid.update(i as u32, *b).expect("valid box");
                }
                grid.candidate_pairs(&mut pairs);
            }
            timed_loop(reps, |r| {
                let k = (r + 1) % POSITION_SETS;
                for (i, b) in boxes[k].iter().enumerate() {
                    grid.update(i as u32, *b).expect("valid box");
                }
                grid.candidate_pairs(&mut pairs);
                total += black_box(pairs.len());
            });
        }
        ("update" | "far", "bvh") => {
            let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs[0]);
            let mut ws = BvhWorkspace::default();
            timed_loop(reps, |r| {
                let k = (r + 1) % POSITION_SETS;
                for (i, a) in aabbs[k].iter().enumerate() {
                    bvh.insert_or_update_partially(*a, i as u32, 0.0);
                }
                bvh.refit(&mut ws);
                pairs.clear();
                bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| pairs.push((a, b)));
                total += black_box(pairs.len());
            });
        }
        _ => panic!("unknown broad-phase mode {what} {side}"),
    }
    total
}

/// `(origin, direction, max_toi)` of one batch, as `benches/world_queries.rs`.
fn rays(input: &Input, cells: f64, seed: u64, length: &str) -> Vec<([f64; 2], [f64; 2], f64)> {
    let lengths = [
        ("short", 2.0),
        ("medium", 20.0),
        ("long", 200.0),
        ("across", f64::INFINITY),
    ];
    let mut rng = Rng::new(seed);
    let l = input.side;
    let mut out = Vec::new();
    for (name, len) in lengths {
        for _ in 0..RAYS {
            let r = if len.is_finite() {
                let a = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
                (
                    [rng.range(0.0, l), rng.range(0.0, l)],
                    [a.cos(), a.sin()],
                    len * cells,
                )
            } else {
                let a = rng.range(-0.2, 0.2);
                (
                    [-1.0, rng.range(0.1 * l, 0.9 * l)],
                    [a.cos(), a.sin()],
                    f64::INFINITY,
                )
            };
            if name == length {
                out.push(r);
            }
        }
    }
    let points: Vec<([f64; 2], [f64; 2], f64)> = (0..RAYS)
        .map(|_| ([rng.range(0.0, l), rng.range(0.0, l)], [1.0, 0.0], 0.0))
        .collect();
    if length == "project" { points } else { out }
}

fn queries(what: &str, n: usize, side: &str, reps: usize) -> usize {
    let si = [1_000, 10_000, 100_000, 1_000_000]
        .iter()
        .position(|&m| m == n)
        .unwrap_or(0) as u64;
    let input = input(n, 0x00B0_0A7E + si);
    let mut world = World::<f32>::new(1.0).expect("valid cell size");
    for (s, p) in input.specs.iter().zip(&input.poses) {
        let pose = Isometry2::new(Vector2::new(p[0] as f32, p[1] as f32), p[2] as f32);
        let shape: Box<dyn Shape<f32>> = match s {
            Spec::Circle(r) => Box::new(Circle::new(*r as f32).expect("valid radius")),
            Spec::Box(h) => {
                Box::new(Obb::new(Vector2::new(h[0] as f32, h[1] as f32)).expect("valid extents"))
            }
        };
        world
            .insert_boxed(shape, pose, Filter::ALL)
            .expect("valid shape");
    }
    world.auto_cell_size();
    world.collisions();
    let batch = rays(
        &input,
        f64::from(world.grid().cell_size()),
        0x0A75_0000 + si,
        what,
    );
    let mut total = 0usize;
    if side == "grid" {
        let rays: Vec<(Ray<f32>, f32)> = batch
            .iter()
            .map(|(o, d, t)| {
                (
                    Ray::new(
                        Point2::new(o[0] as f32, o[1] as f32),
                        Vector2::new(d[0] as f32, d[1] as f32),
                    ),
                    *t as f32,
                )
            })
            .collect();
        timed_loop(reps, |_| {
            for (ray, max_toi) in &rays {
                let hit = if what == "project" {
                    world
                        .project_point(&ray.origin, f32::INFINITY, QueryFilter::default())
                        .expect("valid point")
                        .map(|(h, _)| h)
                } else {
                    world
                        .cast_ray(ray, *max_toi, QueryFilter::default())
                        .expect("valid ray")
                        .map(|(h, _)| h)
                };
                total += usize::from(black_box(hit).is_some());
            }
        });
    } else {
        use parry2d::math::Pose;
        use parry2d::query::Ray as PRay;
        use parry2d::shape::{Ball, Cuboid, Shape as PShape};
        let shapes: Vec<Box<dyn PShape>> = input
            .specs
            .iter()
            .map(|s| -> Box<dyn PShape> {
                match s {
                    Spec::Circle(r) => Box::new(Ball::new(*r as f32)),
                    Spec::Box(h) => Box::new(Cuboid::new(Vector::new(h[0] as f32, h[1] as f32))),
                }
            })
            .collect();
        let poses: Vec<Pose> = input
            .poses
            .iter()
            .map(|p| Pose::new(Vector::new(p[0] as f32, p[1] as f32), p[2] as f32))
            .collect();
        let aabbs: Vec<_> = shapes
            .iter()
            .zip(&poses)
            .map(|(s, p)| s.compute_aabb(p))
            .collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs);
        let rays: Vec<(PRay, f32)> = batch
            .iter()
            .map(|(o, d, t)| {
                (
                    PRay::new(
                        Vector::new(o[0] as f32, o[1] as f32),
                        Vector::new(d[0] as f32, d[1] as f32),
                    ),
                    if t.is_finite() { *t as f32 } else { f32::MAX },
                )
            })
            .collect();
        timed_loop(reps, |_| {
            for (ray, max_toi) in &rays {
                let hit = if what == "project" {
                    bvh.project_point(ray.origin, f32::MAX, |leaf, _| {
                        let i = leaf as usize;
                        Some(shapes[i].project_point(&poses[i], ray.origin, true))
                    })
                    .map(|(i, _)| i)
                } else {
                    bvh.cast_ray(ray, *max_toi, |leaf, best| {
                        let i = leaf as usize;
                        shapes[i].cast_ray(&poses[i], ray, best, true)
                    })
                    .map(|(i, _)| i)
                };
                total += usize::from(black_box(hit).is_some());
            }
        });
    }
    total
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: broad_calls <what> <uniform|clustered> <n> <grid|bvh> [reps]");
        std::process::exit(2);
    }
    let (what, layout, side) = (args[1].as_str(), args[2].as_str(), args[4].as_str());
    let n: usize = args[3].parse().expect("n");
    let reps: usize = args.get(5).map_or(1, |r| r.parse().expect("reps"));
    let total = match what {
        "build" | "update" | "far" => broad(what, layout == "clustered", n, side, reps),
        _ => queries(what, n, side, reps),
    };
    println!("{what} {layout} n={n} {side}: {reps} repetitions, checksum {total}");
}
