//! World shape casts, f32: kasanari's `World::cast_shape` (the swept box's
//! cells in time order, each candidate cast once, stopping at the first
//! hit) in the world-query scene of `world_queries.rs` (N circles and boxes,
//! about two bounding-box overlaps per shape, `auto_cell_size`), at 10k and
//! 100k objects. parry has no direct equivalent (its `Bvh` with a
//! `cast_shapes` leaf callback would be the comparison); ours alone.
//!
//! Casts (256 per batch, drawn once per scene): a circle of radius 0.25
//! from a uniform point of the square, a uniform direction, speed 1,
//! `max_toi` of 2 and 20 cell sizes (`short`, `medium`).
//!
//! Group: `world_cast_shape_f32/<length>`, function `kasanari`, parameter N:
//! one batch of 256 first-hit shape casts. A short cast's cost should not
//! grow with N.
//!
//! Run: `cargo bench -p kasanari-benches --bench world_casts`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use kasanari::broadphase::QueryFilter;
use kasanari::nalgebra::{Isometry2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::world_scene::{Spec, input};

const SIZES: [usize; 2] = [10_000, 100_000];
const CASTS: usize = 256;
const LENGTHS: [(&str, f32); 2] = [("short", 2.0), ("medium", 20.0)];

fn world(n: usize) -> (World<f32>, f64) {
    let inp = input(n, 7);
    let mut world = World::<f32>::new(1.0).expect("valid cell size");
    for (s, p) in inp.specs.iter().zip(&inp.poses) {
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
    (world, inp.side)
}

fn bench(c: &mut Criterion) {
    let probe = Circle::new(0.25f32).expect("valid radius");
    for (name, cells) in LENGTHS {
        let mut group = c.benchmark_group(format!("world_cast_shape_f32/{name}"));
        group.sampling_mode(SamplingMode::Flat);
        group.measurement_time(Duration::from_secs(3));
        group.sample_size(20);
        for n in SIZES {
            let (world, side) = world(n);
            let cell = world.grid().cell_size();
            let mut rng = Rng::new(11);
            let casts: Vec<(Isometry2<f32>, Vector2<f32>)> = (0..CASTS)
                .map(|_| {
                    let x = rng.range(0.0, side) as f32;
                    let y = rng.range(0.0, side) as f32;
                    let a = rng.range(0.0, std::f64::consts::TAU) as f32;
                    (Isometry2::translation(x, y), Vector2::new(a.cos(), a.sin()))
                })
                .collect();
            let max_toi = cells * cell;
            group.bench_with_input(BenchmarkId::new("kasanari", n), &n, |b, _| {
                b.iter(|| {
                    let mut hits = 0usize;
                    for (pose, vel) in &casts {
                        let hit = world
                            .cast_shape(&probe, pose, vel, max_toi, QueryFilter::default())
                            .expect("valid cast");
                        hits += usize::from(hit.is_some());
                    }
                    black_box(hits)
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
