//! A driver for counting instructions per shape cast with callgrind:
//!
//! ```text
//! cargo build --release -p kasanari-benches --example cast_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/cast_calls PAIR PATH PREC
//! ```
//!
//! `PAIR` is one of `ball_ball`, `ball_cuboid`, `cuboid_cuboid`,
//! `polygon_polygon`, `capsule_cuboid` (the casts of `benches/casts.rs`,
//! from `kasanari_benches::cast_scene`), `PATH` is `free`
//! (`narrowphase::cast_shapes` on `&dyn Shape`), `advance` (the conservative
//! advancement on the free closest points, the method the closed forms
//! replaced, for before/after counts) or `parry` (`query::cast_shapes`),
//! `PREC` is `f32` or `f64`. The program prints the number of casts;
//! callgrind's total divided by it is the instructions per cast.

use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::cast::advance::{cast_world_2d, shape_scale};
use kasanari::narrowphase::{self, ShapeCastArgs, ShapeCastOptions};
use kasanari::prelude::*;
use kasanari_benches::cast_scene::{BATCH, CastSpec, MAX_TOI, PoseSpec, Spec, casts};

const ROUNDS: usize = 20;

fn ours<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
    let p = |[x, y]: [f64; 2]| Point2::new(T::lit(x), T::lit(y));
    match s {
        Spec::Ball(r) => Box::new(Circle::new(T::lit(*r)).unwrap()),
        Spec::Cuboid([x, y]) => Box::new(Obb::new(Vector2::new(T::lit(*x), T::lit(*y))).unwrap()),
        Spec::Polygon(vs) => {
            let vs: Vec<Point2<T>> = vs.iter().map(|q| p(*q)).collect();
            Box::new(ConvexPolygon::new(&vs).unwrap())
        }
        Spec::Capsule(h, r) => {
            Box::new(Capsule::new(p([0.0, -h]), p([0.0, *h]), T::lit(*r)).unwrap())
        }
    }
}

fn pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

#[inline(never)]
fn timed_loop<P>(items: &[P], mut f: impl FnMut(&P)) {
    for _ in 0..ROUNDS {
        for p in black_box(items) {
            f(p);
        }
    }
}

type Cast<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Vector2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Vector2<T>,
);

macro_rules! parry_run {
    ($fn:ident, $parry:ident) => {
        mod $fn {
            use super::*;
            use $parry::shape as ps;
            type R = $parry::math::Real;

            fn v([x, y]: [f64; 2]) -> $parry::math::Vector {
                $parry::math::Vector::new(x as R, y as R)
            }

            fn shape(s: &Spec) -> Box<dyn ps::Shape> {
                match s {
                    Spec::Ball(r) => Box::new(ps::Ball::new(*r as R)),
                    Spec::Cuboid(h) => Box::new(ps::Cuboid::new(v(*h))),
                    Spec::Polygon(vs) => Box::new(
                        ps::ConvexPolygon::from_convex_polyline(vs.iter().map(|q| v(*q)).collect())
                            .unwrap(),
                    ),
                    Spec::Capsule(h, r) => {
                        Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, *h]), *r as R))
                    }
                }
            }

            fn pose(p: &PoseSpec) -> $parry::math::Pose {
                $parry::math::Pose::from_parts(
                    v([p.x, p.y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(p.cos as R, p.sin as R),
                )
            }

            pub fn casts(specs: &[CastSpec]) {
                let casts: Vec<_> = specs
                    .iter()
                    .map(|s| {
                        (
                            shape(&s.a),
                            pose(&s.pose_a),
                            v(s.vel_a),
                            shape(&s.b),
                            pose(&s.pose_b),
                            v(s.vel_b),
                        )
                    })
                    .collect();
                let options =
                    $parry::query::ShapeCastOptions::with_max_time_of_impact(MAX_TOI as R);
                timed_loop(&casts, |(a, pa, va, b, pb, vb)| {
                    let _ = black_box($parry::query::cast_shapes(
                        pa, *va, &**a, pb, *vb, &**b, options,
                    ));
                });
            }
        }
    };
}

parry_run!(parry32, parry2d);
parry_run!(parry64, parry2d_f64);

fn run<T: Real>(name: &str, path: &str) {
    let f64_precision = core::mem::size_of::<T>() == 8;
    let specs = casts(name);
    let items: Vec<Cast<T>> = specs
        .iter()
        .map(|s| {
            let v = |[x, y]: [f64; 2]| Vector2::new(T::lit(x), T::lit(y));
            (
                ours::<T>(&s.a),
                pose(&s.pose_a),
                v(s.vel_a),
                ours::<T>(&s.b),
                pose(&s.pose_b),
                v(s.vel_b),
            )
        })
        .collect();
    let options = ShapeCastOptions::default();
    let max_toi = T::lit(MAX_TOI);
    let hits = items
        .iter()
        .filter(|(a, pa, va, b, pb, vb)| {
            narrowphase::cast_shapes(&**a, pa, va, &**b, pb, vb, max_toi, options)
                .unwrap()
                .is_some()
        })
        .count();
    eprintln!("{name}: {hits}/{} casts hit", items.len());
    match path {
        "free" => timed_loop(&items, |(a, pa, va, b, pb, vb)| {
            let _ = black_box(narrowphase::cast_shapes(
                &**a, pa, va, &**b, pb, vb, max_toi, options,
            ));
        }),
        "advance" => timed_loop(&items, |(a, pa, va, b, pb, vb)| {
            let args = ShapeCastArgs {
                vel_a: *va,
                vel_b: *vb,
                max_toi,
                options,
            };
            let sizes = (shape_scale(&**a), shape_scale(&**b));
            let _ = black_box(cast_world_2d(
                pb,
                &args,
                |q| narrowphase::closest_points(&**a, pa, &**b, q, T::infinity()).ok(),
                |q| narrowphase::contact(&**a, pa, &**b, q).ok(),
                sizes,
            ));
        }),
        "parry" if f64_precision => parry64::casts(&specs),
        "parry" => parry32::casts(&specs),
        _ => panic!("unknown path {path}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &'static str| args.get(i).map_or(default, String::as_str);
    let (name, path, prec) = (arg(1, "ball_ball"), arg(2, "free"), arg(3, "f32"));
    match prec {
        "f64" => run::<f64>(name, path),
        _ => run::<f32>(name, path),
    }
    println!("{}", BATCH * ROUNDS);
}
