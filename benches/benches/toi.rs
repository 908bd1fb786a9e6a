//! Time of impact under rotation, cuboid–cuboid, over a batch of 1024
//! prebuilt pairs, kasanari beside parry2d (f32) and parry2d-f64 (f64) in the
//! same run on the same inputs:
//!
//! - groups `toi_<prec>/cuboid_cuboid`, functions `kasanari`
//!   (`narrowphase::toi::time_of_impact` on `&dyn Shape`, default options:
//!   target separation 0.005, tolerance 0.00125, up to 64 iterations) and
//!   `parry` (`query::cast_shapes_nonlinear` with `NonlinearRigidMotion`,
//!   `stop_at_penetration = true`, over `[0, 1]`);
//! - the scene is `kasanari_benches::toi_scene::pairs` (both boxes turn by up
//!   to 2 radians over the step, B moves at A): the same motions in both
//!   libraries (rotation about the box centre, centre moving linearly).
//!
//! The set-up, never timed, prints the share of hits of each library, how
//! often they agree on hit or miss, how much earlier and later kasanari's
//! times are than parry's on the pairs both hit, and kasanari's mean number
//! of closest-point evaluations. kasanari stops at the target separation,
//! parry at touching: kasanari's times are earlier by about
//! `0.005 / closing speed`.
//!
//! Run: `cargo bench -p kasanari-benches --bench toi`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Point2, Vector2};
use kasanari::narrowphase::toi::{Sweep, ToiOptions, ToiStatus, time_of_impact};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::toi_scene::{ToiPair, pairs};

const BATCH: usize = 1024;
const SEED: u64 = 0x746f_6900;

type Ours<T> = Vec<(Box<dyn Shape<T>>, Sweep<T>, Box<dyn Shape<T>>, Sweep<T>)>;

fn sweep<T: Real>(m: &[f64; 6]) -> Sweep<T> {
    let l = T::lit;
    Sweep::new(
        Point2::origin(),
        Point2::new(l(m[0]), l(m[1])),
        Point2::new(l(m[0] + m[3]), l(m[1] + m[4])),
        l(m[2]),
        l(m[2] + m[5]),
    )
    .unwrap()
}

fn ours<T: Real>(specs: &[ToiPair]) -> Ours<T> {
    let cuboid = |h: [f64; 2]| -> Box<dyn Shape<T>> {
        Box::new(Obb::new(Vector2::new(T::lit(h[0]), T::lit(h[1]))).unwrap())
    };
    specs
        .iter()
        .map(|p| {
            (
                cuboid(p.half_a),
                sweep(&p.motion_a),
                cuboid(p.half_b),
                sweep(&p.motion_b),
            )
        })
        .collect()
}

/// kasanari's times (`None`: no hit) and mean iterations.
fn our_times<T: Real>(pairs: &Ours<T>) -> (Vec<Option<f64>>, f64) {
    let opts = ToiOptions::default();
    let mut iterations = 0;
    let times = pairs
        .iter()
        .map(|(a, sa, b, sb)| {
            let out = time_of_impact(&**a, sa, &**b, sb, &opts).unwrap();
            iterations += out.iterations;
            assert_ne!(out.status, ToiStatus::IterationLimit, "{out:?}");
            (out.status == ToiStatus::Hit).then(|| out.t.as_f64())
        })
        .collect();
    (times, f64::from(iterations) / pairs.len() as f64)
}

trait Parry {
    fn new(specs: &[ToiPair]) -> Self;
    fn times(&self) -> Vec<Option<f64>>;
    fn bench(&self, b: &mut criterion::Bencher<'_>);
}

macro_rules! parry_pairs {
    ($name:ident, $parry:ident) => {
        struct $name(
            Vec<(
                $parry::shape::Cuboid,
                $parry::query::NonlinearRigidMotion,
                $parry::shape::Cuboid,
                $parry::query::NonlinearRigidMotion,
            )>,
        );

        impl $name {
            fn motion(m: &[f64; 6]) -> $parry::query::NonlinearRigidMotion {
                let l = <$parry::math::Real as Real>::lit;
                let v = |x: f64, y: f64| $parry::math::Vector::new(l(x), l(y));
                $parry::query::NonlinearRigidMotion::new(
                    $parry::math::Pose::new(v(m[0], m[1]), l(m[2])),
                    v(0.0, 0.0),
                    v(m[3], m[4]),
                    l(m[5]),
                )
            }
        }

        impl Parry for $name {
            fn new(specs: &[ToiPair]) -> Self {
                let l = <$parry::math::Real as Real>::lit;
                let cuboid = |h: [f64; 2]| {
                    $parry::shape::Cuboid::new($parry::math::Vector::new(l(h[0]), l(h[1])))
                };
                Self(
                    specs
                        .iter()
                        .map(|p| {
                            (
                                cuboid(p.half_a),
                                Self::motion(&p.motion_a),
                                cuboid(p.half_b),
                                Self::motion(&p.motion_b),
                            )
                        })
                        .collect(),
                )
            }

            fn times(&self) -> Vec<Option<f64>> {
                let (zero, one) = (
                    <$parry::math::Real as Real>::lit(0.0),
                    <$parry::math::Real as Real>::lit(1.0),
                );
                self.0
                    .iter()
                    .map(|(a, ma, b, mb)| {
                        $parry::query::cast_shapes_nonlinear(ma, a, mb, b, zero, one, true)
                            .unwrap()
                            .map(|h| h.time_of_impact.as_f64())
                    })
                    .collect()
            }

            fn bench(&self, bencher: &mut criterion::Bencher<'_>) {
                let (zero, one) = (
                    <$parry::math::Real as Real>::lit(0.0),
                    <$parry::math::Real as Real>::lit(1.0),
                );
                bencher.iter(|| {
                    for (a, ma, b, mb) in black_box(&self.0) {
                        let _ = black_box($parry::query::cast_shapes_nonlinear(
                            ma, a, mb, b, zero, one, true,
                        ));
                    }
                });
            }
        }
    };
}

parry_pairs!(Parry32, parry2d);
parry_pairs!(Parry64, parry2d_f64);

fn toi<T: Real, P: Parry>(c: &mut Criterion, prec: &str) {
    let specs = pairs(&mut Rng::new(SEED), BATCH);
    let kasanari = ours::<T>(&specs);
    let parry = P::new(&specs);

    // Set-up checks, never timed.
    let (mine, iterations) = our_times(&kasanari);
    let theirs = parry.times();
    let hits = |v: &[Option<f64>]| v.iter().filter(|t| t.is_some()).count();
    let agree = mine
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| a.is_some() == b.is_some())
        .count();
    // Signed differences of the times of the pairs both hit: kasanari stops
    // at the target separation, so earlier; a later time would be a miss of
    // the first contact by one of the two.
    let (earlier, later) = mine
        .iter()
        .zip(&theirs)
        .filter_map(|(a, b)| Some(b.as_ref()? - a.as_ref()?))
        .fold((0.0f64, 0.0f64), |(e, l), d| (e.max(d), l.max(-d)));
    eprintln!(
        "toi {prec} cuboid_cuboid: hits kasanari {}/{BATCH}, parry {}/{BATCH}; hit or miss agree \
         on {agree}; kasanari earlier than parry by up to {earlier:.1e}, later by up to \
         {later:.1e}; kasanari {iterations:.2} closest-point evaluations per query",
        hits(&mine),
        hits(&theirs),
    );

    let mut group = c.benchmark_group(format!("toi_{prec}/cuboid_cuboid"));
    let opts = ToiOptions::default();
    group.bench_function("kasanari", |b| {
        b.iter(|| {
            for (a, sa, bb, sb) in black_box(&kasanari) {
                let _ = black_box(time_of_impact(&**a, sa, &**bb, sb, &opts));
            }
        });
    });
    group.bench_function("parry", |b| parry.bench(b));
    group.finish();
}

fn benches(c: &mut Criterion) {
    toi::<f32, Parry32>(c, "f32");
    toi::<f64, Parry64>(c, "f64");
}

criterion_group! {
    name = group;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = benches
}
criterion_main!(group);
