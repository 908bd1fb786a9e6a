//! A driver for counting instructions per query of pairs served by the
//! general rounded-core kernel (`sat/core.rs`), whose separating-axis test
//! also decides exact touching (`sat/exact.rs`), with callgrind:
//!
//! ```text
//! cargo build --release -p kasanari-benches --example core_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/core_calls polygon_polygon intersects f64
//! ```
//!
//! Pairs: `polygon_polygon` (two hexagons), `segment_obb`, `capsule_obb`,
//! `triangle_triangle`; queries: `intersects`, `contact`, `distance`
//! (closest points, unbounded), all through the table's free functions. The
//! poses are random in a square where about half the pairs overlap. The
//! program prints the number of queries; callgrind's total divided by it is
//! the instructions per query.

use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::narrowphase;
use kasanari::prelude::*;
use kasanari_benches::Rng;

const BATCH: usize = 256;
const ROUNDS: usize = 40;

fn hexagon<T: Real>(r: f64) -> ConvexPolygon<T> {
    let v: Vec<Point2<T>> = (0..6)
        .map(|k| {
            let a = f64::from(k) * std::f64::consts::TAU / 6.0;
            Point2::new(T::lit(r * a.cos()), T::lit(r * a.sin()))
        })
        .collect();
    ConvexPolygon::new(&v).expect("a hexagon")
}

fn shape<T: Real>(kind: &str, first: bool, rng: &mut Rng) -> Box<dyn Shape<T>> {
    let s = rng.range(0.5, 1.0);
    let box_ = |rng: &mut Rng| -> Box<dyn Shape<T>> {
        Box::new(Obb::new(Vector2::new(T::lit(s), T::lit(rng.range(0.3, 1.0)))).expect("a box"))
    };
    match (kind, first) {
        ("polygon_polygon", _) => Box::new(hexagon::<T>(s)),
        ("segment_obb", true) => Box::new(
            Segment::new(
                Point2::new(T::lit(-s), T::zero()),
                Point2::new(T::lit(s), T::zero()),
            )
            .expect("a segment"),
        ),
        ("capsule_obb", true) => Box::new(
            Capsule::new(
                Point2::new(T::lit(-s), T::zero()),
                Point2::new(T::lit(s), T::zero()),
                T::lit(0.3),
            )
            .expect("a capsule"),
        ),
        ("triangle_triangle", _) => Box::new(
            Triangle::new(
                Point2::new(T::lit(-s), T::lit(-0.5)),
                Point2::new(T::lit(s), T::lit(-0.4)),
                Point2::new(T::zero(), T::lit(s)),
            )
            .expect("a triangle"),
        ),
        _ => box_(rng),
    }
}

type Pair<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
);

fn pose<T: Real>(rng: &mut Rng) -> Isometry2<T> {
    Isometry2::new(
        Vector2::new(T::lit(rng.range(-1.6, 1.6)), T::lit(rng.range(-1.6, 1.6))),
        T::lit(rng.range(-3.2, 3.2)),
    )
}

#[inline(never)]
fn timed_loop<T: Real>(pairs: &[Pair<T>], query: &str) -> usize {
    let mut hits = 0;
    for _ in 0..ROUNDS {
        for (a, pa, b, pb) in pairs {
            let hit = match query {
                "contact" => narrowphase::contact(&**a, pa, &**b, pb).is_ok_and(|c| c.is_some()),
                "distance" => {
                    narrowphase::distance(&**a, pa, &**b, pb).is_ok_and(|d| d == T::zero())
                }
                _ => narrowphase::intersects(&**a, pa, &**b, pb).unwrap_or(false),
            };
            hits += usize::from(black_box(hit));
        }
    }
    hits
}

fn run<T: Real>(kind: &str, query: &str) {
    let mut rng = Rng::new(11);
    let pairs: Vec<Pair<T>> = (0..BATCH)
        .map(|_| {
            let a = shape::<T>(kind, true, &mut rng);
            let b = shape::<T>(kind, false, &mut rng);
            (a, pose(&mut rng), b, pose(&mut rng))
        })
        .collect();
    let hits = timed_loop(&pairs, query);
    eprintln!("{} of {} queries hit", hits, BATCH * ROUNDS);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (kind, query, prec) = (
        args.get(1).map_or("polygon_polygon", String::as_str),
        args.get(2).map_or("intersects", String::as_str),
        args.get(3).map_or("f64", String::as_str),
    );
    match prec {
        "f32" => run::<f32>(kind, query),
        _ => run::<f64>(kind, query),
    }
    println!("{}", BATCH * ROUNDS);
}
