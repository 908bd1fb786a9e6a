//! A point in a rotated rectangle, two ways (seed 002, `002_59719986b1f531f4.txt`).
//!
//! Shows the seed's two methods side by side: `point_obb` moves the point into
//! the box's local frame and compares with the half extents; the cross-product
//! method (`point_obb_cross_product`) checks the point is on the inner side of
//! all four edges. A grid of points shows they agree, then a rough timing of
//! 1,000,000 calls of each prints their ratio (the seed measured ~6×). The
//! timing is only an illustration: the measured comparison is the Criterion
//! benchmark `cargo bench -p kasanari-benches --bench narrow -- point_obb_methods`.
//! The seed draws with y pointing down; here y points up.
//!
//! Run with `cargo run -p kasanari --example seed_002_point_in_rotated_box`
//! (add `--release` for a fairer timing).

use std::hint::black_box;
use std::time::Instant;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::narrowphase::point::{point_obb, point_obb_cross_product};
use kasanari::prelude::*;

type R = f32;

fn main() {
    // A 4 × 2 box centred at (5, 3), turned 30° counter-clockwise.
    let obb = Obb::<R>::new(Vector2::new(2.0, 1.0)).unwrap();
    let pose = Isometry2::new(Vector2::new(5.0, 3.0), R::to_radians(30.0));
    // The point shape sits at the world origin, so the box's pose is its pose in
    // the point's frame (`b_in_a`), and the point's position is its world position.
    let point = |x: R, y: R| Point::new(Point2::new(x, y)).unwrap();
    let both = |x: R, y: R| {
        let p = point(x, y);
        (
            point_obb(&p, &obb, &pose),
            point_obb_cross_product(&p, &obb, &pose),
        )
    };
    println!("4 x 2 box at (5, 3) turned 30°:");
    // In the box's frame (6, 4) is at (1.37, 0.37) and (7, 2) at (1.23, -1.87).
    for (x, y, expected) in [(6.0, 4.0, true), (7.0, 2.0, false)] {
        let (local, cross) = both(x, y);
        println!("  point ({x}, {y}): local frame says {local}, cross products say {cross}");
        assert_eq!((local, cross), (expected, expected));
    }

    // A grid of points over the box (y down the page from the top row): '#'
    // where both methods say inside, '.' where both say outside.
    let mut inside = 0;
    for row in 0..13 {
        let y = 6.5 - 0.5 * row as R;
        let line: String = (0..33)
            .map(|col| {
                let x = 1.0 + 0.25 * col as R;
                let (local, cross) = both(x, y);
                assert_eq!(local, cross, "the methods disagree at ({x}, {y})");
                inside += usize::from(local);
                if local { '#' } else { '.' }
            })
            .collect();
        println!("  {line}");
    }
    println!(
        "both methods agree on all {} grid points ({inside} inside)",
        13 * 33
    );
    assert!(inside > 0 && inside < 13 * 33);

    // Rough timing over 1,000,000 calls each (100,000 in an unoptimised build, to
    // stay under a second), on 1024 points cycled.
    let (calls, label) = match cfg!(debug_assertions) {
        true => (100_000, "100,000 calls each (debug build"),
        false => (1_000_000, "1,000,000 calls each (release build"),
    };
    let points: Vec<Point<R>> = (0..1024)
        .map(|i| point(2.0 + (i % 32) as R * 0.2, (i / 32) as R * 0.2))
        .collect();
    let time = |method: fn(&Point<R>, &Obb<R>, &Isometry2<R>) -> bool| {
        let start = Instant::now();
        let (obb, pose) = (black_box(&obb), black_box(&pose));
        let hits = (0..calls).filter(|i| method(black_box(&points[i % 1024]), obb, pose));
        let hits = hits.count();
        (start.elapsed().as_secs_f64(), hits)
    };
    let (t_local, hits_local) = time(point_obb);
    let (t_cross, hits_cross) = time(point_obb_cross_product);
    assert_eq!(hits_local, hits_cross);
    println!("rough timing of {label}; an illustration, not a measurement):");
    println!("  local frame    {:>7.2} ms", t_local * 1e3);
    println!("  cross products {:>7.2} ms", t_cross * 1e3);
    println!(
        "  ratio {:.1}x (seed 002 measured about 6x)",
        t_cross / t_local
    );
    println!(
        "the measured comparison lives in benches/: \
         cargo bench -p kasanari-benches --bench narrow -- point_obb_methods"
    );
}
