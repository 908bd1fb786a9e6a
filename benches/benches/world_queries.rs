//! World queries, f32: kasanari's `World::cast_ray` (the grid walk, a box
//! test, the narrow phase) against parry2d's `Bvh::cast_ray` with a leaf
//! callback that casts against parry's own shapes (as a parry user writes
//! it), and `World::project_point` (beside parry's `Bvh::project_point`).
//!
//! Scenes: N shapes, half circles and half rotated boxes, sizes like the
//! broad-phase benches (sides 0.75..1.25, one in ten five to ten times
//! larger), uniform in a square sized for about two bounding-box overlaps
//! per shape; kasanari's cell size from `World::auto_cell_size`. N = 1k,
//! 10k, 100k, 1M for kasanari, 10k and 100k for parry.
//!
//! Rays (256 per batch, drawn once per scene): origins uniform in the square,
//! directions uniform on the circle, `max_toi` of 2, 20 and 200 cell sizes
//! (`short`, `medium`, `long`), and `across`: from the square's left edge to
//! the right, `max_toi = +∞`. At this density most rays stop at a hit within
//! a few cells, so the lengths differ mostly for the rays that miss.
//!
//! Groups (the report generator parses these names):
//! - `world_ray_f32/<length>`, functions `kasanari` and `parry`, parameter
//!   N: one batch of 256 first-hit ray casts (solid);
//! - `world_project_point_f32`, functions `kasanari` and `parry`, parameter
//!   N: one batch of 256 nearest-object queries (solid, `max_distance = +∞`).
//!
//! Before timing, every ray's first hit is compared between the two
//! libraries (same object, or the same time of impact within 1e-4 relative:
//! ties and near-ties may pick different objects) and every projection's
//! distance; the set-up prints the agreement and asserts it is above 99 %.
//!
//! Run: `cargo bench -p kasanari-benches --bench world_queries`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main,
    measurement::WallTime,
};
use kasanari::broadphase::QueryFilter;
use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::world_scene::{Input, Spec, input};

/// kasanari's scene sizes; parry's are [`PARRY_SIZES`].
const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// parry's scene sizes.
const PARRY_SIZES: [usize; 2] = [10_000, 100_000];
/// Queries per batch (one iteration).
const RAYS: usize = 256;
/// Ray lengths in cell sizes (`+∞`: across the world).
const LENGTHS: [(&str, f64); 4] = [
    ("short", 2.0),
    ("medium", 20.0),
    ("long", 200.0),
    ("across", f64::INFINITY),
];

/// A batch of rays `(origin, unit direction, max_toi in cells)` and points,
/// in plain numbers.
struct Queries {
    rays: Vec<([f64; 2], [f64; 2], f64)>,
    points: Vec<[f64; 2]>,
}

fn queries(input: &Input, cells: f64, seed: u64) -> Queries {
    let mut rng = Rng::new(seed);
    let l = input.side;
    let mut rays = Vec::new();
    for (_, len) in LENGTHS {
        for _ in 0..RAYS {
            if len.is_finite() {
                let a = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
                rays.push((
                    [rng.range(0.0, l), rng.range(0.0, l)],
                    [a.cos(), a.sin()],
                    len * cells,
                ));
            } else {
                let a = rng.range(-0.2, 0.2);
                rays.push((
                    [-1.0, rng.range(0.1 * l, 0.9 * l)],
                    [a.cos(), a.sin()],
                    f64::INFINITY,
                ));
            }
        }
    }
    let points = (0..RAYS)
        .map(|_| [rng.range(0.0, l), rng.range(0.0, l)])
        .collect();
    Queries { rays, points }
}

/// kasanari's side.
struct Kasanari {
    world: World<f32>,
    rays: Vec<(Ray<f32>, f32)>,
    points: Vec<Point2<f32>>,
}

impl Kasanari {
    fn new(input: &Input, seed: u64) -> (Self, Queries) {
        let mut world = World::<f32>::new(1.0).expect("valid cell size");
        for (s, p) in input.specs.iter().zip(&input.poses) {
            let pose = Isometry2::new(Vector2::new(p[0] as f32, p[1] as f32), p[2] as f32);
            let shape: Box<dyn Shape<f32>> = match s {
                Spec::Circle(r) => Box::new(Circle::new(*r as f32).expect("valid radius")),
                Spec::Box(h) => Box::new(
                    Obb::new(Vector2::new(h[0] as f32, h[1] as f32)).expect("valid extents"),
                ),
            };
            world
                .insert_boxed(shape, pose, Filter::ALL)
                .expect("valid shape");
        }
        world.auto_cell_size();
        let q = queries(input, f64::from(world.grid().cell_size()), seed);
        let rays = q
            .rays
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
        let points = q
            .points
            .iter()
            .map(|p| Point2::new(p[0] as f32, p[1] as f32))
            .collect();
        (
            Self {
                world,
                rays,
                points,
            },
            q,
        )
    }

    /// The first hits of batch `b` (`(object, toi)`); the sum of times.
    fn cast(&self, b: usize, out: &mut Vec<Option<(u32, f32)>>) -> f32 {
        out.clear();
        let mut sum = 0.0;
        for (ray, max_toi) in &self.rays[b * RAYS..(b + 1) * RAYS] {
            let hit = self
                .world
                .cast_ray(ray, *max_toi, QueryFilter::default())
                .expect("valid ray");
            if let Some((_, h)) = &hit {
                sum += h.toi;
            }
            out.push(hit.map(|(h, x)| (h.index(), x.toi)));
        }
        sum
    }

    fn project(&self, out: &mut Vec<Option<(u32, f32)>>) -> usize {
        out.clear();
        for p in &self.points {
            let near = self
                .world
                .project_point(p, f32::INFINITY, QueryFilter::default())
                .expect("valid point");
            out.push(near.map(|(h, x)| {
                let d = if x.is_inside {
                    0.0
                } else {
                    (x.point - p).norm()
                };
                (h.index(), d)
            }));
        }
        out.len()
    }
}

/// parry's side: the same shapes, a BVH over their boxes.
mod parry {
    use parry2d::math::{Pose, Vector};
    use parry2d::partitioning::{Bvh, BvhBuildStrategy};
    use parry2d::query::Ray;
    use parry2d::shape::{Ball, Cuboid, Shape};

    use super::{Input, Queries, RAYS, Spec};

    pub struct Parry {
        shapes: Vec<Box<dyn Shape>>,
        poses: Vec<Pose>,
        bvh: Bvh,
        rays: Vec<(Ray, f32)>,
        points: Vec<Vector>,
    }

    impl Parry {
        pub fn new(input: &Input, q: &Queries) -> Self {
            let shapes: Vec<Box<dyn Shape>> = input
                .specs
                .iter()
                .map(|s| -> Box<dyn Shape> {
                    match s {
                        Spec::Circle(r) => Box::new(Ball::new(*r as f32)),
                        Spec::Box(h) => {
                            Box::new(Cuboid::new(Vector::new(h[0] as f32, h[1] as f32)))
                        }
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
            let rays = q
                .rays
                .iter()
                .map(|(o, d, t)| {
                    (
                        Ray::new(
                            Vector::new(o[0] as f32, o[1] as f32),
                            Vector::new(d[0] as f32, d[1] as f32),
                        ),
                        // parry's traversal takes a finite bound.
                        if t.is_finite() { *t as f32 } else { f32::MAX },
                    )
                })
                .collect();
            let points = q
                .points
                .iter()
                .map(|p| Vector::new(p[0] as f32, p[1] as f32))
                .collect();
            Self {
                shapes,
                poses,
                bvh,
                rays,
                points,
            }
        }

        pub fn cast(&self, b: usize, out: &mut Vec<Option<(u32, f32)>>) -> f32 {
            out.clear();
            let mut sum = 0.0;
            for (ray, max_toi) in &self.rays[b * RAYS..(b + 1) * RAYS] {
                let hit = self.bvh.cast_ray(ray, *max_toi, |leaf, best| {
                    let i = leaf as usize;
                    self.shapes[i].cast_ray(&self.poses[i], ray, best, true)
                });
                if let Some((_, t)) = hit {
                    sum += t;
                }
                out.push(hit);
            }
            sum
        }

        pub fn project(&self, out: &mut Vec<Option<(u32, f32)>>) -> usize {
            out.clear();
            for p in &self.points {
                let near = self.bvh.project_point(*p, f32::MAX, |leaf, _| {
                    let i = leaf as usize;
                    Some(self.shapes[i].project_point(&self.poses[i], *p, true))
                });
                out.push(near.map(|(i, (d, _))| (i, d)));
            }
            out.len()
        }
    }
}

/// The share of answers on which both sides agree: the same object, or the
/// same number (toi or distance) within 1e-4 relative.
fn agreement(a: &[Option<(u32, f32)>], b: &[Option<(u32, f32)>]) -> f64 {
    let same = a
        .iter()
        .zip(b)
        .filter(|(x, y)| match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => {
                x.0 == y.0 || (x.1 - y.1).abs() <= 1e-4 * (1.0 + x.1.abs().max(y.1.abs()))
            }
            _ => false,
        })
        .count();
    same as f64 / a.len() as f64
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    group.sampling_mode(if n >= 100_000 {
        SamplingMode::Flat
    } else {
        SamplingMode::Auto
    });
}

struct Scene {
    n: usize,
    kasanari: Kasanari,
    parry: Option<parry::Parry>,
}

fn scenes() -> Vec<Scene> {
    SIZES
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let input = input(n, 0x00B0_0A7E + i as u64);
            let (kasanari, q) = Kasanari::new(&input, 0x0A75_0000 + i as u64);
            let parry = PARRY_SIZES
                .contains(&n)
                .then(|| parry::Parry::new(&input, &q));
            let stats = kasanari.world.grid().stats();
            let (mut hits, mut a, mut b) = (0, Vec::new(), Vec::new());
            for (li, (name, _)) in LENGTHS.iter().enumerate() {
                kasanari.cast(li, &mut a);
                hits += a.iter().flatten().count();
                if let Some(p) = &parry {
                    p.cast(li, &mut b);
                    let agree = agreement(&a, &b);
                    eprintln!(
                        "n={n} {name}: kasanari and parry agree on {:.1}% of first hits",
                        100.0 * agree
                    );
                    assert!(agree > 0.99, "n={n} {name}: agreement {agree}");
                }
            }
            kasanari.project(&mut a);
            if let Some(p) = &parry {
                p.project(&mut b);
                let agree = agreement(&a, &b);
                eprintln!("n={n}: nearest objects agree on {:.1}%", 100.0 * agree);
                assert!(agree > 0.99, "n={n} projections: agreement {agree}");
            }
            eprintln!(
                "scene n={n}: side {:.0}, cell {:.2}, {} cells, {} oversize, {:.0}% of {} rays hit",
                input.side,
                kasanari.world.grid().cell_size(),
                stats.cells,
                stats.oversize,
                100.0 * hits as f64 / (LENGTHS.len() * RAYS) as f64,
                LENGTHS.len() * RAYS
            );
            Scene { n, kasanari, parry }
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let scenes = scenes();
    let mut out = Vec::with_capacity(RAYS);
    for (li, (name, _)) in LENGTHS.iter().enumerate() {
        let mut group = c.benchmark_group(format!("world_ray_f32/{name}"));
        for s in &scenes {
            configure(&mut group, s.n);
            group.bench_function(BenchmarkId::new("kasanari", s.n), |b| {
                b.iter(|| black_box(s.kasanari.cast(li, &mut out)));
            });
            if let Some(p) = &s.parry {
                group.bench_function(BenchmarkId::new("parry", s.n), |b| {
                    b.iter(|| black_box(p.cast(li, &mut out)));
                });
            }
        }
        group.finish();
    }
    let mut group = c.benchmark_group("world_project_point_f32");
    for s in &scenes {
        configure(&mut group, s.n);
        group.bench_function(BenchmarkId::new("kasanari", s.n), |b| {
            b.iter(|| black_box(s.kasanari.project(&mut out)));
        });
        if let Some(p) = &s.parry {
            group.bench_function(BenchmarkId::new("parry", s.n), |b| {
                b.iter(|| black_box(p.project(&mut out)));
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = world_query_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10);
    targets = benches
}
criterion_main!(world_query_benches);
