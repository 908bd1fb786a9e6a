//! Shape queries over batches of prebuilt inputs (1024 per iteration), f32 and
//! f64: bounding boxes under a pose (what the broad phase asks of every shape
//! every frame), support points, and the generic SAT on rotated boxes.
//!
//! Run: `cargo bench -p kasanari-benches --bench shapes`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use std::hint::black_box;

const BATCH: usize = 1024;

fn shapes<T: Real>(rng: &mut Rng) -> Vec<(Box<dyn Shape<T>>, Isometry2<T>)> {
    let l = T::lit;
    (0..BATCH)
        .map(|i| {
            let s: Box<dyn Shape<T>> = match i % 5 {
                0 => Box::new(Circle::new(l(rng.range(0.1, 2.0))).unwrap()),
                1 => Box::new(
                    Obb::new(Vector2::new(l(rng.range(0.1, 2.0)), l(rng.range(0.1, 2.0)))).unwrap(),
                ),
                2 => Box::new(
                    Capsule::vertical(l(rng.range(0.1, 2.0)), l(rng.range(0.1, 1.0))).unwrap(),
                ),
                3 => Box::new(
                    Ellipse::new(Vector2::new(l(rng.range(0.1, 2.0)), l(rng.range(0.1, 2.0))))
                        .unwrap(),
                ),
                _ => {
                    let pts: Vec<Point2<T>> = (0..8)
                        .map(|_| Point2::new(l(rng.range(-1.0, 1.0)), l(rng.range(-1.0, 1.0))))
                        .collect();
                    Box::new(ConvexPolygon::from_hull(&pts).unwrap())
                }
            };
            let pose = Isometry2::new(
                Vector2::new(l(rng.range(-100.0, 100.0)), l(rng.range(-100.0, 100.0))),
                l(rng.range(-3.0, 3.0)),
            );
            (s, pose)
        })
        .collect()
}

fn bench_precision<T: Real>(c: &mut Criterion, name: &str) {
    let mut rng = Rng::new(2026);
    let input = shapes::<T>(&mut rng);
    let dirs: Vec<Vector2<T>> = (0..BATCH)
        .map(|_| Vector2::new(T::lit(rng.range(-1.0, 1.0)), T::lit(rng.range(-1.0, 1.0))))
        .collect();
    let mut group = c.benchmark_group("shapes");
    group.bench_function(BenchmarkId::new("bounding_box_x1024", name), |b| {
        b.iter(|| {
            for (s, pose) in &input {
                black_box(s.bounding_box(black_box(pose)));
            }
        });
    });
    group.bench_function(BenchmarkId::new("support_point_x1024", name), |b| {
        b.iter(|| {
            for ((s, pose), d) in input.iter().zip(&dirs) {
                black_box(s.as_convex().unwrap().support_point(pose, black_box(d)));
            }
        });
    });
    let boxes: Vec<(Obb<T>, Isometry2<T>, Isometry2<T>)> = (0..BATCH)
        .map(|_| {
            let b = Obb::new(Vector2::new(
                T::lit(rng.range(0.2, 2.0)),
                T::lit(rng.range(0.2, 2.0)),
            ))
            .unwrap();
            let pa = Isometry2::new(Vector2::zeros(), T::lit(rng.range(-3.0, 3.0)));
            let pb = Isometry2::new(
                Vector2::new(T::lit(rng.range(-3.0, 3.0)), T::lit(rng.range(-3.0, 3.0))),
                T::lit(rng.range(-3.0, 3.0)),
            );
            (b, pa, pb)
        })
        .collect();
    group.bench_function(BenchmarkId::new("generic_sat_obb_obb_x1024", name), |b| {
        b.iter(|| {
            for (obb, pa, pb) in &boxes {
                black_box(sat_contact(obb, pa, obb, pb));
            }
        });
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_precision::<f32>(c, "f32");
    bench_precision::<f64>(c, "f64");
}

criterion_group! {
    name = shape_benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1))
        .sample_size(20);
    targets = benches
}
criterion_main!(shape_benches);
