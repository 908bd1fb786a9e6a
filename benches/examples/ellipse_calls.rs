//! A driver for counting instructions per ellipse query with callgrind, on
//! frame-like pairs: the shapes of `benches/frame.rs` (about one unit across,
//! 5 % five to ten times larger; ellipses of aspect 1 to 3.3) against an
//! ellipse, B's centre uniform in the disk where the bounding circles
//! overlap, every angle uniform. `timed_loop` is the only function measured.
//!
//! ```text
//! cargo build --release -p kasanari-benches --example ellipse_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/ellipse_calls polygon contact f32
//! ```
//!
//! Arguments: the other shape (`point`, `segment`, `circle`, `aabb`, `obb`,
//! `triangle`, `polygon`, `capsule`, `ellipse`, or `mix`: all nine in equal
//! numbers), the query (`contact`: only intersecting pairs; `bool`: the
//! boolean on the same pairs; `near`: the contact on every drawn pair, about
//! half of them apart; `closest`: the closest points, unbounded, on the same
//! pairs as `near`), the precision (`f32`, `f64`). The program prints the
//! number of queries; callgrind's total divided by it is the instructions per
//! query. On stderr: how many drawn pairs intersect, and the sum of the
//! depths (and, for `closest`, of the distances): a check that two builds
//! answer alike.

use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{ClosestPoints, Contact, ellipse};
use kasanari::prelude::*;
use kasanari_benches::Rng;

const BATCH: usize = 512;
const ROUNDS: usize = 20;
const KINDS: [&str; 9] = [
    "point", "segment", "circle", "aabb", "obb", "triangle", "polygon", "capsule", "ellipse",
];

/// The other shape, one variant per kind, in the frame bench's sizes.
#[derive(Clone)]
enum Other<T: Real> {
    Point(Point<T>),
    Segment(Segment<T>),
    Circle(Circle<T>),
    Aabb(Aabb<T>),
    Obb(Obb<T>),
    Triangle(Triangle<T>),
    Polygon(ConvexPolygon<T>),
    Capsule(Capsule<T>),
    Ellipse(Ellipse<T>),
}

/// `n` angles around the circle, evenly spaced and jittered by up to a third
/// of the spacing (as in `frame.rs`).
fn angles(rng: &mut Rng, n: usize) -> Vec<f64> {
    let step = std::f64::consts::TAU / n as f64;
    let start = rng.range(0.0, std::f64::consts::TAU);
    (0..n)
        .map(|i| start + step * (i as f64 + rng.range(-0.33, 0.33)))
        .collect()
}

/// The size `s` of `frame.rs`: 0.4 to 0.6, 5 % of the time 5 to 10 times that.
fn size(rng: &mut Rng) -> f64 {
    rng.range(0.4, 0.6)
        * if rng.range(0.0, 1.0) < 0.05 {
            rng.range(5.0, 10.0)
        } else {
            1.0
        }
}

fn other<T: Real>(rng: &mut Rng, kind: usize) -> (Other<T>, f64) {
    let l = T::lit;
    let p = |x: f64, y: f64| Point2::new(l(x), l(y));
    let s = size(rng);
    match kind {
        0 => (Other::Point(Point::origin()), 0.0),
        1 => (
            Other::Segment(Segment::new(p(-s, 0.0), p(s, 0.0)).unwrap()),
            s,
        ),
        2 => (Other::Circle(Circle::new(l(s)).unwrap()), s),
        3 => {
            let h = Vector2::new(l(s), l(s * rng.range(0.3, 1.0)));
            (
                Other::Aabb(Aabb::from_half_extents(h).unwrap()),
                h.norm().as_f64(),
            )
        }
        4 => {
            let h = Vector2::new(l(s), l(s * rng.range(0.3, 1.0)));
            (Other::Obb(Obb::new(h).unwrap()), h.norm().as_f64())
        }
        5 => {
            let r = s * rng.range(0.7, 1.0);
            let a = angles(rng, 3);
            let v: Vec<Point2<T>> = a.iter().map(|t| p(r * t.cos(), r * t.sin())).collect();
            (Other::Triangle(Triangle::new(v[0], v[1], v[2]).unwrap()), r)
        }
        6 => {
            let count = 5 + (rng.next_u64() % 4) as usize;
            let ry = s * rng.range(0.6, 1.0);
            let v: Vec<Point2<T>> = angles(rng, count)
                .iter()
                .map(|t| p(s * t.cos(), ry * t.sin()))
                .collect();
            (Other::Polygon(ConvexPolygon::from_hull(&v).unwrap()), s)
        }
        7 => {
            let (h, r) = (s * rng.range(0.3, 0.7), s * rng.range(0.2, 0.4));
            (
                Other::Capsule(Capsule::vertical(l(h), l(r)).unwrap()),
                h + r,
            )
        }
        _ => {
            let e = ellipse_shape(rng, s);
            (Other::Ellipse(e), s)
        }
    }
}

fn ellipse_shape<T: Real>(rng: &mut Rng, s: f64) -> Ellipse<T> {
    Ellipse::new(Vector2::new(T::lit(s), T::lit(s * rng.range(0.3, 1.0)))).unwrap()
}

impl<T: Real> Other<T> {
    fn intersects(&self, e: &Ellipse<T>, m: &Isometry2<T>) -> bool {
        match self {
            Self::Point(a) => ellipse::point_ellipse(a, e, m),
            Self::Segment(a) => ellipse::segment_ellipse(a, e, m),
            Self::Circle(a) => ellipse::circle_ellipse(a, e, m),
            Self::Aabb(a) => ellipse::aabb_ellipse(a, e, m),
            Self::Obb(a) => ellipse::obb_ellipse(a, e, m),
            Self::Triangle(a) => ellipse::triangle_ellipse(a, e, m),
            Self::Polygon(a) => ellipse::polygon_ellipse(a, e, m),
            Self::Capsule(a) => ellipse::capsule_ellipse(a, e, m),
            Self::Ellipse(a) => ellipse::ellipse_ellipse(a, e, m),
        }
    }

    fn contact(&self, e: &Ellipse<T>, m: &Isometry2<T>) -> Option<Contact<T>> {
        match self {
            Self::Point(a) => ellipse::point_ellipse_contact(a, e, m),
            Self::Segment(a) => ellipse::segment_ellipse_contact(a, e, m),
            Self::Circle(a) => ellipse::circle_ellipse_contact(a, e, m),
            Self::Aabb(a) => ellipse::aabb_ellipse_contact(a, e, m),
            Self::Obb(a) => ellipse::obb_ellipse_contact(a, e, m),
            Self::Triangle(a) => ellipse::triangle_ellipse_contact(a, e, m),
            Self::Polygon(a) => ellipse::polygon_ellipse_contact(a, e, m),
            Self::Capsule(a) => ellipse::capsule_ellipse_contact(a, e, m),
            Self::Ellipse(a) => ellipse::ellipse_ellipse_contact(a, e, m),
        }
    }

    fn closest(&self, e: &Ellipse<T>, m: &Isometry2<T>) -> ClosestPoints<T> {
        let far = T::infinity();
        match self {
            Self::Point(a) => ellipse::point_ellipse_closest_points(a, e, m, far),
            Self::Segment(a) => ellipse::segment_ellipse_closest_points(a, e, m, far),
            Self::Circle(a) => ellipse::circle_ellipse_closest_points(a, e, m, far),
            Self::Aabb(a) => ellipse::aabb_ellipse_closest_points(a, e, m, far),
            Self::Obb(a) => ellipse::obb_ellipse_closest_points(a, e, m, far),
            Self::Triangle(a) => ellipse::triangle_ellipse_closest_points(a, e, m, far),
            Self::Polygon(a) => ellipse::polygon_ellipse_closest_points(a, e, m, far),
            Self::Capsule(a) => ellipse::capsule_ellipse_closest_points(a, e, m, far),
            Self::Ellipse(a) => ellipse::ellipse_ellipse_closest_points(a, e, m, far),
        }
    }
}

/// One pair: the other shape, the ellipse, and the poses (A's, the
/// ellipse's, in the world).
type Pair<T> = (Other<T>, Isometry2<T>, Ellipse<T>, Isometry2<T>);

fn pose<T: Real>(x: f64, y: f64, a: f64) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(x), T::lit(y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(a.cos()), T::lit(a.sin())),
    )
}

/// `BATCH` pairs of `kind` (or of every kind in turn for `None`); with
/// `hits_only`, only intersecting ones are kept. Returns the pairs and how
/// many of the drawn ones intersect.
fn pairs<T: Real>(kind: Option<usize>, hits_only: bool) -> (Vec<Pair<T>>, usize, usize) {
    let mut rng = Rng::new(0xE111_95E5);
    let (mut out, mut drawn, mut hits) = (Vec::new(), 0, 0);
    while out.len() < BATCH {
        let k = kind.unwrap_or(out.len() % KINDS.len());
        let (a, reach_a) = other::<T>(&mut rng, k);
        let s = size(&mut rng);
        let e = ellipse_shape::<T>(&mut rng, s);
        let (x, y) = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        // The AABB never turns.
        let angle = if k == 3 { 0.0 } else { rng.range(-3.2, 3.2) };
        let pa = pose::<T>(x, y, angle);
        let d = rng.range(0.0, 1.0).sqrt() * (reach_a + s);
        let dir = rng.range(-3.2, 3.2);
        let pb = pose::<T>(x + d * dir.cos(), y + d * dir.sin(), rng.range(-3.2, 3.2));
        let hit = a.intersects(&e, &pa.inv_mul(&pb));
        drawn += 1;
        hits += usize::from(hit);
        if hit || !hits_only {
            out.push((a, pa, e, pb));
        }
    }
    (out, drawn, hits)
}

#[inline(never)]
fn timed_loop<P>(pairs: &[P], mut f: impl FnMut(&P)) {
    for _ in 0..ROUNDS {
        for p in black_box(pairs) {
            f(p);
        }
    }
}

fn run<T: Real>(kind: Option<usize>, query: &str) {
    let (pairs, drawn, hits) = pairs::<T>(kind, query != "near" && query != "closest");
    let depth_sum: f64 = pairs
        .iter()
        .filter_map(|(a, pa, e, pb)| a.contact(e, &pa.inv_mul(pb)))
        .map(|c| c.depth.as_f64())
        .sum();
    eprintln!("{hits}/{drawn} drawn pairs intersect; depth sum {depth_sum:.9e}");
    if query == "closest" {
        let distance_sum: f64 = pairs
            .iter()
            .filter_map(|(a, pa, e, pb)| a.closest(e, &pa.inv_mul(pb)).distance())
            .map(|d| d.as_f64())
            .sum();
        eprintln!("distance sum {distance_sum:.9e}");
    }
    if std::env::var("ELLIPSE_CALLS_TIME").is_ok() {
        // Wall-clock nanoseconds per query, the least of 30 runs (a rough
        // check on a loaded machine; callgrind's counts are the measure).
        let mut least = f64::INFINITY;
        for _ in 0..30 {
            let start = std::time::Instant::now();
            timed_loop(&pairs, |(a, pa, e, pb)| {
                if query == "bool" {
                    black_box(a.intersects(e, &pa.inv_mul(pb)));
                } else if query == "closest" {
                    black_box(a.closest(e, &pa.inv_mul(pb)));
                } else {
                    black_box(a.contact(e, &pa.inv_mul(pb)));
                }
            });
            least = least.min(start.elapsed().as_secs_f64());
        }
        eprintln!("{:.1} ns per query", least * 1e9 / (BATCH * ROUNDS) as f64);
    }
    match query {
        "bool" => timed_loop(&pairs, |(a, pa, e, pb)| {
            black_box(a.intersects(e, &pa.inv_mul(pb)));
        }),
        "contact" | "near" => timed_loop(&pairs, |(a, pa, e, pb)| {
            black_box(a.contact(e, &pa.inv_mul(pb)));
        }),
        "closest" => timed_loop(&pairs, |(a, pa, e, pb)| {
            black_box(a.closest(e, &pa.inv_mul(pb)));
        }),
        _ => panic!("unknown query {query}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (name, query, prec) = (
        args.get(1).map_or("mix", String::as_str),
        args.get(2).map_or("contact", String::as_str),
        args.get(3).map_or("f32", String::as_str),
    );
    let kind = match name {
        "mix" => None,
        _ => Some(
            KINDS
                .iter()
                .position(|k| *k == name)
                .unwrap_or_else(|| panic!("unknown shape {name}")),
        ),
    };
    match prec {
        "f64" => run::<f64>(kind, query),
        _ => run::<f32>(kind, query),
    }
    println!("{}", BATCH * ROUNDS);
}
