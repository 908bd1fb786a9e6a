//! Rotated rectangle against rotated rectangle by the separating axis theorem
//! (seed 000, `000_80ff85aeaf8747bd.txt`).
//!
//! Shows the seed's demo: two 6 × 2 rectangles (half extents 3 and 1), one at
//! (0, 5) spinning through a full turn in 24 steps, the other fixed at (6, 5).
//! Each step is answered by the dispatch table (`obb_obb`) and checked against the
//! generic SAT. Then the seed's worked projection: a rectangle with corners
//! P0 = (7.9, 8.5) and P2 = (2.1, 7.5) projected on u = (0.97, 0.24) is ≈ [3.9, 9.7].
//!
//! Run with `cargo run -p kasanari --example seed_000_rotated_rectangles`.

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::narrowphase::Route;
use kasanari::prelude::*;

type R = f64;

fn main() {
    let rect = Obb::<R>::new(Vector2::new(3.0, 1.0)).unwrap();
    let fixed = Isometry2::translation(6.0, 5.0);
    let route = DispatchTable::<R>::shared().route(&rect, &rect);
    let Ok(Route::Kernel { name, .. }) = route else {
        panic!("no kernel: {route:?}")
    };
    println!("6 x 2 rectangle spinning at (0, 5), another fixed at (6, 5) (kernel {name}):");
    assert_eq!(name, "obb_obb");

    let mut line = String::new();
    let mut hits = Vec::new();
    for step in 0..24 {
        let degrees = step * 15;
        let spinning = Isometry2::new(Vector2::new(0.0, 5.0), R::from(degrees).to_radians());
        let hit = intersects(&rect, &spinning, &rect, &fixed).unwrap();
        // The 4-axis test of the seed, through the generic SAT, must agree.
        assert_eq!(hit, sat_intersects(&rect, &spinning, &rect, &fixed));
        line += &format!("{degrees:>4}° {}", if hit { "hit" } else { "-- " });
        if step % 8 == 7 {
            println!("{line}");
            line.clear();
        }
        if hit {
            hits.push(degrees);
        }
    }
    println!("{} of 24 orientations collide", hits.len());
    // Parallel at 0° and 180°: the faces touch at x = 3, and touching counts.
    // The far corner reaches x = 3 cos θ + sin θ, at least 3 only up to ~36.9°.
    assert_eq!(hits, [0, 15, 30, 150, 165, 180, 195, 210, 330, 345]);

    // Seed 000's projection. P1 and P3 lie on the circle with diameter P2P0
    // (a rectangle's diagonals are equal and bisect each other), at x = 6.8, 3.2.
    let (p0, p2) = (Point2::<R>::new(7.9, 8.5), Point2::<R>::new(2.1, 7.5));
    let centre = Point2::from((p0.coords + p2.coords) / 2.0);
    let radius_squared = (p0 - p2).norm_squared() / 4.0;
    let dy = (radius_squared - 1.8 * 1.8).sqrt();
    let p1 = Point2::new(6.8, centre.y - dy);
    let p3 = Point2::new(3.2, centre.y + dy);
    let quad = ConvexPolygon::<R>::new(&[p0, p1, p2, p3]).unwrap();
    let u = Vector2::new(0.97, 0.24);
    let i = quad.project(&Isometry2::identity(), &u);
    let show = |p: Point2<R>| format!("({:.2}, {:.2})", p.x, p.y);
    println!(
        "rectangle P0 {}, P1 {}, P2 {}, P3 {} projected on u = (0.97, 0.24):",
        show(p0),
        show(p1),
        show(p2),
        show(p3)
    );
    println!(
        "  interval [{:.3}, {:.3}]; the seed writes ≈ [3.9, 9.7]",
        i.min, i.max
    );
    // The interval ends are P2·u and P0·u exactly: 3.837 and 9.703.
    assert!((i.min - p2.coords.dot(&u)).abs() < 1e-12 && (i.min - 3.837).abs() < 1e-9);
    assert!((i.max - p0.coords.dot(&u)).abs() < 1e-12 && (i.max - 9.703).abs() < 1e-9);
    assert!((i.min - 3.9).abs() < 0.1 && (i.max - 9.7).abs() < 0.1);
}
