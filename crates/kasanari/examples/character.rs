//! A character walking through a small level with `World::move_and_slide`.
//!
//! The level has a floor, a wall with an inside corner, a ramp, a pillar
//! and a thin fence (a segment). A capsule character follows a list of
//! desired moves (walk right, into the ramp, up it, into the corner, back
//! through the fence, ...); each move is one `move_and_slide` call: the
//! character stops a skin short of what it hits and slides along it. The
//! example checks after every move that the character overlaps nothing and
//! has not crossed the fence, prints the hits, and writes `character.svg`
//! (the level in grey, the character's path in blue with its pose at each
//! step).
//!
//! Run: `cargo run --example character`.

use std::fmt::Write as _;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;

type R = f64;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::<R>::new(2.0)?;
    let mut boxes = Vec::new(); // (half extents, pose) for the picture
    let mut add =
        |world: &mut World<R>, hx: R, hy: R, x: R, y: R, a: R| -> Result<Handle, WorldError> {
            let pose = Isometry2::new(Vector2::new(x, y), a);
            boxes.push(([hx, hy], pose));
            world.insert(
                Obb::new(Vector2::new(hx, hy)).expect("valid box"),
                pose,
                Filter::ALL,
            )
        };
    add(&mut world, 20.0, 0.5, 0.0, -0.5, 0.0)?; // floor, top at y = 0
    add(&mut world, 0.5, 6.0, 19.5, 6.0, 0.0)?; // right wall: inside corner with the floor
    add(&mut world, 4.0, 0.25, 8.0, 1.0, 0.3)?; // ramp
    add(&mut world, 0.8, 0.8, 14.0, 0.8, 0.0)?; // pillar on the floor
    let fence = Segment::new(Point2::new(0.0, 0.0), Point2::new(0.0, 4.0))?;
    let fence_x = -6.0;
    world.insert(fence, Isometry2::translation(fence_x, 0.0), Filter::ALL)?;

    let character = Capsule::new(Point2::new(0.0, -0.4), Point2::new(0.0, 0.4), 0.4)?;
    let mut pose = Isometry2::translation(-3.0, 0.81);
    let moves = [
        [3.0, -0.5],  // walk, pressing into the floor
        [6.0, 0.0],   // into the ramp: climbs
        [4.0, -2.0],  // down the far side
        [6.0, 0.0],   // into the pillar
        [0.0, 3.0],   // jump
        [8.0, -1.0],  // into the corner
        [0.0, -10.0], // fall to the floor
        [-40.0, 0.0], // back: the pillar stops it
        [0.0, 2.5],   // jump
        [-40.0, 0.0], // over the pillar and the ramp: the fence stops it
        [0.0, -10.0], // fall
    ];
    let options = MoveOptions::new(0.01).with_max_iterations(6);
    let mut path = vec![pose];
    for (i, m) in moves.iter().enumerate() {
        let moved = world.move_and_slide(&character, &pose, &Vector2::new(m[0], m[1]), options)?;
        let hits: Vec<String> = moved
            .hits
            .iter()
            .map(|h| {
                format!(
                    "#{} (n = [{:.2}, {:.2}])",
                    h.handle.index(),
                    h.hit.normal.x,
                    h.hit.normal.y
                )
            })
            .collect();
        println!(
            "move {i}: wanted [{:.1}, {:.1}], moved [{:.3}, {:.3}], hits: {}",
            m[0],
            m[1],
            moved.translation.x,
            moved.translation.y,
            if hits.is_empty() {
                "none".to_string()
            } else {
                hits.join(", ")
            }
        );
        pose = moved.pose;
        // Checks: nothing overlapped, the fence not crossed.
        let overlapping = world.query_distance(&character, &pose, 0.0, QueryFilter::default())?;
        assert!(overlapping.is_empty(), "overlaps {overlapping:?}");
        assert!(pose.translation.x > fence_x, "crossed the fence");
        path.push(pose);
    }
    std::fs::write("character.svg", picture(&boxes, fence_x, &path))?;
    println!("wrote character.svg");
    Ok(())
}

fn picture(boxes: &[([R; 2], Isometry2<R>)], fence_x: R, path: &[Isometry2<R>]) -> String {
    let (w, h, scale) = (900.0, 420.0, 20.0);
    let x = |v: R| 150.0 + v * scale;
    let y = |v: R| h - 40.0 - v * scale;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="100%" height="100%" fill="white"/>"#
    );
    for (half, pose) in boxes {
        let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
            .map(|c| pose * Point2::new(c[0] * half[0], c[1] * half[1]));
        let pts: Vec<String> = corners
            .iter()
            .map(|p| format!("{},{}", x(p.x), y(p.y)))
            .collect();
        let _ = write!(
            s,
            r#"<polygon points="{}" fill="lightgrey" stroke="grey"/>"#,
            pts.join(" ")
        );
    }
    let _ = write!(
        s,
        r#"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="black" stroke-width="2"/>"#,
        x(fence_x),
        y(0.0),
        y(4.0)
    );
    let pts: Vec<String> = path
        .iter()
        .map(|p| format!("{},{}", x(p.translation.x), y(p.translation.y)))
        .collect();
    let _ = write!(
        s,
        r#"<polyline points="{}" fill="none" stroke="blue" stroke-width="1.5"/>"#,
        pts.join(" ")
    );
    for p in path {
        let (cx, cy) = (p.translation.x, p.translation.y);
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="none" stroke="steelblue" opacity="0.6"/>"#,
            x(cx - 0.4),
            y(cy + 0.8),
            0.8 * scale,
            1.6 * scale,
            0.4 * scale
        );
    }
    s.push_str("</svg>\n");
    s
}
