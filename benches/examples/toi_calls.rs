//! A driver for counting instructions per time-of-impact query with
//! callgrind: the rotating cuboid–cuboid scene of `benches/toi.rs`
//! (`kasanari_benches::toi_scene`), one library, one precision, the batch
//! queried `ROUNDS` times inside `timed_loop` (the only function measured).
//!
//! ```text
//! cargo build --release -p kasanari-benches --example toi_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/toi_calls kasanari f32
//! ```
//!
//! Libraries: `kasanari` (`narrowphase::toi::time_of_impact`, default
//! options), `parry` (`query::cast_shapes_nonlinear`). The program prints
//! the number of queries; callgrind's total divided by it is the
//! instructions per query. With `TOI_STATS=1` it prints, instead, kasanari's
//! statuses and the distribution of its closest-point evaluations;
//! `TOI_BATCH=<n>` sets the batch size (default 256), `TOI_TIGHT=1` runs
//! kasanari with a zero target and a tolerance of `2e-5` (close to parry's
//! own convergence tolerance) instead of the defaults.

use std::hint::black_box;

use kasanari::nalgebra::{Point2, Vector2};
use kasanari::narrowphase::toi::{Sweep, ToiOptions, time_of_impact};
use kasanari::prelude::*;
use kasanari_benches::Rng;
use kasanari_benches::toi_scene::{ToiPair, pairs};

const BATCH: usize = 256;
const ROUNDS: usize = 8;
const SEED: u64 = 0x746f_6900;

#[inline(never)]
fn timed_loop<P>(pairs: &[P], mut f: impl FnMut(&P)) {
    for _ in 0..ROUNDS {
        for p in black_box(pairs) {
            f(p);
        }
    }
}

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

fn kasanari<T: Real>(specs: &[ToiPair]) {
    let cuboid = |h: [f64; 2]| Obb::new(Vector2::new(T::lit(h[0]), T::lit(h[1]))).unwrap();
    let pairs: Vec<_> = specs
        .iter()
        .map(|p| {
            (
                cuboid(p.half_a),
                sweep::<T>(&p.motion_a),
                cuboid(p.half_b),
                sweep::<T>(&p.motion_b),
            )
        })
        .collect();
    let opts = if std::env::var_os("TOI_TIGHT").is_some() {
        ToiOptions::new(T::one(), T::zero(), T::lit(2e-5), 64).unwrap()
    } else {
        ToiOptions::default()
    };
    if std::env::var_os("TOI_STATS").is_some() {
        let mut histogram = std::collections::BTreeMap::new();
        let mut statuses = std::collections::BTreeMap::new();
        for (a, sa, b, sb) in &pairs {
            let out = time_of_impact(a, sa, b, sb, &opts).unwrap();
            *histogram.entry(out.iterations).or_insert(0) += 1;
            *statuses.entry(format!("{:?}", out.status)).or_insert(0) += 1;
        }
        println!("statuses {statuses:?}");
        println!("iterations {histogram:?}");
        return;
    }
    timed_loop(&pairs, |(a, sa, b, sb)| {
        let _ = black_box(time_of_impact(a, sa, b, sb, &opts));
    });
}

macro_rules! parry {
    ($name:ident, $parry:ident) => {
        fn $name(specs: &[ToiPair]) {
            use $parry::math::{Pose, Real as R, Vector};
            use $parry::query::{NonlinearRigidMotion, cast_shapes_nonlinear};
            use $parry::shape::Cuboid;
            let l = <R as Real>::lit;
            let v = |x: f64, y: f64| Vector::new(l(x), l(y));
            let motion = |m: &[f64; 6]| {
                NonlinearRigidMotion::new(
                    Pose::new(v(m[0], m[1]), l(m[2])),
                    v(0.0, 0.0),
                    v(m[3], m[4]),
                    l(m[5]),
                )
            };
            let pairs: Vec<_> = specs
                .iter()
                .map(|p| {
                    (
                        Cuboid::new(v(p.half_a[0], p.half_a[1])),
                        motion(&p.motion_a),
                        Cuboid::new(v(p.half_b[0], p.half_b[1])),
                        motion(&p.motion_b),
                    )
                })
                .collect();
            timed_loop(&pairs, |(a, ma, b, mb)| {
                let _ = black_box(cast_shapes_nonlinear(ma, a, mb, b, l(0.0), l(1.0), true));
            });
        }
    };
}

parry!(parry32, parry2d);
parry!(parry64, parry2d_f64);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (lib, prec) = (
        args.get(1).map_or("kasanari", String::as_str),
        args.get(2).map_or("f32", String::as_str),
    );
    let batch = std::env::var("TOI_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BATCH);
    let specs = pairs(&mut Rng::new(SEED), batch);
    match (lib, prec) {
        ("kasanari", "f32") => kasanari::<f32>(&specs),
        ("kasanari", "f64") => kasanari::<f64>(&specs),
        ("parry", "f32") => parry32(&specs),
        ("parry", "f64") => parry64(&specs),
        _ => {
            eprintln!("usage: toi_calls kasanari|parry f32|f64");
            std::process::exit(2);
        }
    }
    println!("{} queries", batch * ROUNDS);
}
