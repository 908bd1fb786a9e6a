//! A circle against a convex polygon (seed 001, `001_b353ce1a65dc1484.txt`).
//!
//! Shows the four cases of the seed's test on a pentagon and a unit circle: the
//! circle crossing an edge, touching only a vertex, missing, and lying wholly
//! inside (no edge touched: the seed's second step, the centre on the inner side
//! of every edge). Each is printed with its contact: the depth and the normal
//! from the polygon to the circle (moving the circle by depth · normal separates
//! them). Then the seed's warning: a concave polygon is refused at construction.
//!
//! Run with `cargo run -p kasanari --example seed_001_circle_polygon`.

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::narrowphase::circle::circle_polygon;
use kasanari::prelude::*;

type R = f64;

/// A case's name, the circle's centre, and the expected depth and normal (`None`: a miss).
type Case = (&'static str, [R; 2], Option<(R, [R; 2])>);

fn main() {
    let corners = [(0.0, 0.0), (4.0, 0.0), (5.0, 3.0), (2.0, 5.0), (-1.0, 3.0)];
    let pentagon = ConvexPolygon::<R>::new(&corners.map(|(x, y)| Point2::new(x, y))).unwrap();
    let circle = Circle::<R>::new(1.0).unwrap();
    let here = Isometry2::identity();
    println!("unit circle against the pentagon (0,0) (4,0) (5,3) (2,5) (-1,3):");

    // Expected depth and normal, worked by hand.
    let (s2, s13) = (0.5_f64.sqrt(), 13.0_f64.sqrt());
    let cases: [Case; 4] = [
        ("edge", [2.0, -0.5], Some((0.5, [0.0, -1.0]))),
        // Beyond both edges at (4, 0): the nearest feature is the vertex.
        ("vertex", [4.6, -0.6], Some((1.0 - 0.6 / s2, [s2, -s2]))),
        ("miss", [6.0, -1.0], None),
        // 7.1 / √13 from the nearest edge, (5,3)-(2,5): pushed out through it.
        (
            "inside",
            [2.2, 2.5],
            Some((1.0 + 7.1 / s13, [2.0 / s13, 3.0 / s13])),
        ),
    ];
    for (name, [x, y], expected) in cases {
        let at = Isometry2::translation(x, y);
        let c = contact(&pentagon, &here, &circle, &at).unwrap();
        // The seed's boolean test, as the typed kernel (the polygon in the circle's frame).
        assert_eq!(
            circle_polygon(&circle, &pentagon, &at.inv_mul(&here)),
            c.is_some()
        );
        let Some(c) = c else {
            println!("  {name:<7} centre ({x:>4}, {y:>4}): no contact");
            assert!(expected.is_none(), "{name}: missed");
            continue;
        };
        let (n, depth) = (c.normal.into_inner() + Vector2::zeros(), c.depth); // no "-0.000"
        println!(
            "  {name:<7} centre ({x:>4}, {y:>4}): depth {depth:.3}, normal ({:+.3}, {:+.3})",
            n.x, n.y
        );
        let (want_depth, [nx, ny]) = expected.expect("a contact where none is expected");
        assert!((depth - want_depth).abs() < 1e-9, "{name}: depth {depth}");
        assert!(
            (n - Vector2::new(nx, ny)).norm() < 1e-9,
            "{name}: normal {n:?}"
        );
    }
    // The inside case touches no edge: every edge is farther than the radius.
    let centre = Point2::new(2.2, 2.5);
    let vertices = pentagon.vertices().iter().zip(pentagon.normals());
    let nearest_edge = vertices
        .map(|(v, n)| (v - centre).dot(n))
        .fold(R::INFINITY, R::min);
    println!(
        "  (inside: the nearest edge is {nearest_edge:.3} from the centre, beyond the radius 1)"
    );
    assert!(nearest_edge > circle.radius());

    // An arrow head: seed 001 warns the test breaks on concave polygons, so
    // kasanari refuses them and names the reflex vertex.
    let arrow = [(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (1.0, 2.0)].map(|(x, y)| Point2::new(x, y));
    let refused = ConvexPolygon::<R>::new(&arrow);
    println!("concave polygon refused: {refused:?}");
    assert_eq!(refused.unwrap_err(), ShapeError::NotConvex { index: 2 });
}
