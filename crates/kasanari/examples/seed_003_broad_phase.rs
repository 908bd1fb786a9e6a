//! Why a broad phase is needed, and what it saves (seed 003, `003_80163a64c95982de.txt`).
//!
//! Shows the seed's table of all-pairs counts nC2, then its grouping argument in a
//! `World`: 500 circles in 10 clusters of 50, each cluster in one grid cell (the
//! seed's "group"), leave at most 10 × 1225 = 12,250 pairs to look at instead of
//! 124,750, and the grid passes on only those whose boxes overlap. Then the seed's
//! 3D game: unit cubes rotating about three axes among spheres on a grid, in a
//! `World3`, with the colliding pairs per step checked against brute force.
//!
//! Run with `cargo run -p kasanari --example seed_003_broad_phase`.

use kasanari::nalgebra::{Isometry2, Isometry3, UnitQuaternion, Vector3};
use kasanari::narrowphase::dim3::intersects3;
use kasanari::prelude::*;

type R = f64;

fn main() {
    let n_choose_2 = |n: u64| n * (n - 1) / 2;
    let table: Vec<String> = [2, 4, 10, 50, 100, 500, 1000, 4500]
        .map(|n| format!("{n}→{}", thousands(n_choose_2(n))))
        .into();
    println!("all pairs nC2: {}", table.join(", "));
    assert_eq!(n_choose_2(500), 124_750);
    assert_eq!(n_choose_2(4500), 10_122_750);

    // 10 clusters of 50 circles (radius 0.5), cluster k in [32k + 3, 32k + 13] × [3, 13]:
    // with 16-wide cells each cluster sits in one cell, the seed's "group".
    let mut world = World::<R>::new(16.0).unwrap();
    let mut seed = 12_345_u64;
    for k in 0..500 {
        let x = 32.0 * R::from(k / 50) + 3.0 + 10.0 * random(&mut seed);
        let at = Isometry2::translation(x, 3.0 + 10.0 * random(&mut seed));
        world
            .insert(Circle::new(0.5).unwrap(), at, Filter::ALL)
            .unwrap();
    }
    let stats = world.collisions().stats;
    let grid = world.grid().stats();
    println!("500 circles in 10 clusters of 50, in a World with 16-wide grid cells:");
    println!(
        "  {} occupied cells of at most {} objects: at most 10 x 1225 = 12,250 pairs to look at",
        grid.cells, grid.max_per_cell
    );
    println!(
        "  objects {}, all pairs nC2 {}, candidate pairs (boxes overlap) {}, colliding pairs {}",
        stats.objects,
        thousands(stats.all_pairs),
        stats.candidate_pairs,
        stats.colliding_pairs
    );
    assert_eq!((grid.cells, grid.max_per_cell), (10, 50)); // one cell per cluster
    assert_eq!((stats.objects, stats.all_pairs), (500, 124_750));
    assert!(stats.candidate_pairs <= 10 * 1225); // the seed's 12,250, about 1/10
    assert!(stats.colliding_pairs > 0 && stats.colliding_pairs <= stats.candidate_pairs);

    // The seed's 3D game: a 4 × 4 checkerboard of unit cubes and spheres (radius 0.5)
    // 1.2 apart; the cubes turn about all three axes. Upright, nothing touches.
    let mut world3 = World3::<R>::new(2.0).unwrap();
    let cube = Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
    let ball = Sphere::new(0.5).unwrap();
    let mut cubes = Vec::new();
    for (i, j) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
        let at = Isometry3::translation(1.2 * R::from(i), 1.2 * R::from(j), 0.0);
        if (i + j) % 2 == 0 {
            cubes.push((world3.insert(cube, at, Filter::ALL).unwrap(), at));
        } else {
            world3.insert(ball, at, Filter::ALL).unwrap();
        }
    }
    println!("4 x 4 grid of 8 unit cubes and 8 spheres; the cubes turn about x, y and z at once:");
    let mut per_step = Vec::new();
    for step in 0..9 {
        // Roll, pitch and yaw advance by 10°, 20° and 30° per step.
        let turn = R::from(step) * 10.0_f64.to_radians();
        let rotation = UnitQuaternion::from_euler_angles(turn, 2.0 * turn, 3.0 * turn);
        for &(h, at) in &cubes {
            let pose = Isometry3::from_parts(at.translation, rotation);
            world3.set_pose(h, pose).unwrap();
        }
        let hits = world3.collisions();
        let (pairs, candidates) = (hits.stats.colliding_pairs, hits.stats.candidate_pairs);
        // Brute force over all 120 pairs agrees with the grid.
        let handles: Vec<_> = world3.handles().collect();
        let mut brute = 0;
        for (x, &a) in handles.iter().enumerate() {
            for &b in &handles[x + 1..] {
                let (a, b) = (world3.get(a).unwrap(), world3.get(b).unwrap());
                let hit = intersects3(a.shape(), a.pose(), b.shape(), b.pose()).unwrap();
                brute += usize::from(hit);
            }
        }
        assert_eq!(pairs, brute);
        let angles = format!("({}°, {}°, {}°)", step * 10, step * 20, step * 30);
        println!(
            "  step {step} {angles:<17} {pairs:>2} colliding of {candidates:>2} candidate pairs"
        );
        per_step.push(pairs);
    }
    assert_eq!(per_step[0], 0); // faces 0.2 apart when upright
    assert!(per_step.iter().any(|&p| p > 0)); // turned corners reach the neighbours
}

/// A uniform number in [0, 1) from a small linear congruential generator.
fn random(state: &mut u64) -> R {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*state >> 11) as R / (1_u64 << 53) as R
}

/// `124750` as `124,750`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}
