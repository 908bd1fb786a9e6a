//! The exact ellipse–ellipse test against the seed's published approximation
//! (seed 004, `004_4b0b85218f90667f.txt`, after Hwang & Tsai 1999).
//!
//! The seed maps ellipse 2 to the unit circle, then grows ellipse 1's two radii by
//! one. That grown ellipse lies inside the true "ellipse 1 grown by the unit disk",
//! so the published test misses collisions near contact, worst for elongated
//! ellipses. Shows the pinned miss (a unit circle and a 10 × 1 ellipse centred at
//! (10.1, 0.8) overlap by about 0.33, yet the approximation says no), then a sweep
//! over random elongated pairs near contact counting the collisions it misses.
//!
//! Run with `cargo run -p kasanari --example seed_004_ellipses`.

use kasanari::nalgebra::{Isometry2, Vector2};
use kasanari::narrowphase::ellipse::{
    ellipse_ellipse, ellipse_ellipse_approx_hwang_tsai, ellipse_ellipse_contact,
};
use kasanari::prelude::*;

type R = f64;

fn main() {
    let disk = Ellipse::<R>::new(Vector2::new(1.0, 1.0)).unwrap();
    let long = Ellipse::<R>::new(Vector2::new(10.0, 1.0)).unwrap();
    let pose = Isometry2::translation(10.1, 0.8); // the long one, in the disk's frame
    let exact = ellipse_ellipse(&disk, &long, &pose);
    let approx = ellipse_ellipse_approx_hwang_tsai(&disk, &long, &pose);
    let depth = ellipse_ellipse_contact(&disk, &long, &pose).map_or(0.0, |c| c.depth);
    println!("unit circle at (0, 0) and ellipse radii (10, 1), angle 0, centre (10.1, 0.8):");
    println!("  exact: {exact} (overlap depth {depth:.3}); seed's approximation: {approx}");
    assert!(exact && !approx);
    assert!((depth - 0.33).abs() < 0.01);

    // Random elongated pairs near contact. Each radius pair has an aspect ratio
    // from 2 to 10; B is turned at random and placed in a random direction n at
    // s × (the sum of both extents along n), s in [0.8, 1]: at s = 1 the
    // shapes' projections on n just touch, so every pair is near contact.
    let mut seed = 2024_u64;
    let mut random = move |lo: R, hi: R| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((seed >> 11) as R / (1_u64 << 53) as R)
    };
    const PAIRS: usize = 4000;
    let (mut collisions, mut missed, mut false_alarms) = (0, 0, 0);
    for _ in 0..PAIRS {
        let (a, b) = (elongated(&mut random), elongated(&mut random));
        let (turn, direction) = (
            random(0.0, std::f64::consts::TAU),
            random(0.0, std::f64::consts::TAU),
        );
        let n = Vector2::new(direction.cos(), direction.sin());
        let extent = |e: &Ellipse<R>, m: Vector2<R>| e.radii().component_mul(&m).norm();
        let b_local_n = Isometry2::rotation(turn).inverse_transform_vector(&n);
        let reach = extent(&a, n) + extent(&b, b_local_n);
        let b_in_a = Isometry2::new(n * reach * random(0.8, 1.0), turn);
        let (exact, approx) = (
            ellipse_ellipse(&a, &b, &b_in_a),
            ellipse_ellipse_approx_hwang_tsai(&a, &b, &b_in_a),
        );
        collisions += usize::from(exact);
        missed += usize::from(exact && !approx);
        false_alarms += usize::from(approx && !exact);
    }
    let percent = 100.0 * missed as R / collisions as R;
    println!("{PAIRS} random elongated pairs (aspect 2-10) near contact:");
    println!(
        "  {collisions} truly collide; the approximation misses {missed} of them ({percent:.1}%)"
    );
    println!("  and reports {false_alarms} collisions that are not there");
    assert!(collisions > PAIRS / 4 && missed > 0 && percent > 1.0);
    assert_eq!(false_alarms, 0); // it errs one way only: the grown ellipse is too small
}

/// An ellipse with a random minor radius in [0.5, 1.5] and aspect ratio in [2, 10].
fn elongated(random: &mut impl FnMut(R, R) -> R) -> Ellipse<R> {
    let minor = random(0.5, 1.5);
    Ellipse::new(Vector2::new(minor * random(2.0, 10.0), minor)).unwrap()
}
