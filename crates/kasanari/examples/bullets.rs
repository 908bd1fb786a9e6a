//! Bullets: fast objects fired through thin walls, caught by continuous
//! collision detection in a World.
//!
//! Ten thin walls (boxes 0.02 thick, at random angles) stand in a row; 200
//! bullets (circles of radius 0.05) are fired from the left at random
//! heights and angles, each moving 30 units per frame: far more than a
//! wall's thickness, so a wall is almost never overlapped at the end of a
//! frame. The bullets are marked continuous (`World::set_continuous`): each
//! frame's `collisions().swept` lists the walls their motion since the last
//! frame swept through, with the time of impact. A bullet stops at the first
//! wall it hits.
//!
//! The example counts the hits, checks them against an exact reference (the
//! first wall along each bullet's straight path, by brute force over every
//! wall with the narrow phase's shape casts: zero missed hits), and writes
//! `bullets.svg` (walls in grey, each bullet's path to its hit in red).
//!
//! Run: `cargo run --example bullets`.

use std::fmt::Write as _;

use kasanari::demo::Rng;
use kasanari::nalgebra::{Isometry2, Vector2};
use kasanari::prelude::*;

type R = f64;

const WALLS: usize = 10;
const BULLETS: usize = 200;
const SPEED: R = 30.0;

/// A bullet: its handle, start, unit direction, and the wall it hit with
/// the distance travelled.
type Bullet = (Handle, Vector2<R>, Vector2<R>, Option<(Handle, R)>);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng::new(2026);
    let mut world = World::<R>::new(1.0)?;
    let mut walls = Vec::new();
    for i in 0..WALLS {
        let pose = Isometry2::new(Vector2::new(10.0 + 8.0 * i as R, 0.0), rng.range(-0.4, 0.4));
        let shape = Obb::new(Vector2::new(0.01, 12.0))?;
        walls.push((world.insert(shape, pose, Filter::ALL)?, pose));
    }
    // Bullets: start, unit direction.
    let mut bullets: Vec<Bullet> = Vec::new();
    for _ in 0..BULLETS {
        let start = Vector2::new(0.0, rng.range(-6.0, 6.0));
        let a: R = rng.range(-0.3, 0.3);
        // Bullets ignore bullets.
        let h = world.insert(
            Circle::new(0.05)?,
            Isometry2::new(start, 0.0),
            Filter::new(2, !2),
        )?;
        world.set_continuous(h, true)?;
        bullets.push((
            h,
            start,
            Vector2::new(a.cos(), a.sin()),
            None::<(Handle, R)>,
        ));
    }
    world.collisions();
    // Fly: 5 frames of SPEED each.
    for frame in 1..=5 {
        for b in &bullets {
            if b.3.is_none() {
                let p = b.1 + b.2 * (SPEED * frame as R);
                world.set_pose(b.0, Isometry2::new(p, 0.0))?;
            }
        }
        let swept = world.collisions().swept.clone();
        for b in bullets.iter_mut().filter(|b| b.3.is_none()) {
            // The earliest wall this bullet swept through this frame.
            let first = swept
                .iter()
                .filter(|p| p.b == b.0 || p.a == b.0)
                .map(|p| (if p.a == b.0 { p.b } else { p.a }, p.contact.toi))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((wall, toi)) = first {
                b.3 = Some((wall, SPEED * (frame as R - 1.0 + toi)));
            }
        }
    }
    // The reference: the first wall along each straight path, brute force.
    let bullet_shape = Circle::new(0.05)?;
    let (mut hits, mut missed) = (0, 0);
    for b in &bullets {
        let mut want: Option<(Handle, R)> = None;
        for (w, pose) in &walls {
            let o = world.get(*w)?;
            if let Some(hit) = cast_shapes(
                &bullet_shape,
                &Isometry2::new(b.1, 0.0),
                &(b.2 * SPEED),
                o.shape(),
                pose,
                &Vector2::zeros(),
                5.0,
                ShapeCastOptions::default(),
            )? {
                if want.is_none_or(|x| hit.toi * SPEED < x.1) {
                    want = Some((*w, hit.toi * SPEED));
                }
            }
        }
        match (want, b.3) {
            (Some((w, d)), Some((g, e))) if w == g && (d - e).abs() < 1e-6 => hits += 1,
            (None, None) => {}
            _ => missed += 1,
        }
    }
    println!("{BULLETS} bullets, {WALLS} thin walls: {hits} hits, {missed} missed");
    assert_eq!(missed, 0, "every hit is reported");
    std::fs::write("bullets.svg", picture(&world, &walls, &bullets)?)?;
    println!("wrote bullets.svg");
    Ok(())
}

fn picture(
    world: &World<R>,
    walls: &[(Handle, Isometry2<R>)],
    bullets: &[Bullet],
) -> Result<String, Box<dyn std::error::Error>> {
    let (w, h, scale) = (900.0, 400.0, 10.0);
    let x = |v: R| 20.0 + v * scale;
    let y = |v: R| h / 2.0 - v * scale;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="100%" height="100%" fill="white"/>"#
    );
    for (handle, pose) in walls {
        world.get(*handle)?;
        let (c, d) = (pose.rotation.cos_angle(), pose.rotation.sin_angle());
        let t = pose.translation.vector;
        let (p, q) = (
            t + Vector2::new(-d, c) * 12.0,
            t - Vector2::new(-d, c) * 12.0,
        );
        write!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="grey" stroke-width="2"/>"#,
            x(p.x),
            y(p.y),
            x(q.x),
            y(q.y)
        )?;
    }
    for b in bullets {
        let len = b.3.map_or(5.0 * SPEED, |(_, d)| d);
        let end = b.1 + b.2 * len;
        let colour = if b.3.is_some() { "red" } else { "blue" };
        write!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="0.6" opacity="0.7"/>"#,
            x(b.1.x),
            y(b.1.y),
            x(end.x),
            y(end.y)
        )?;
        if b.3.is_some() {
            write!(
                s,
                r#"<circle cx="{}" cy="{}" r="1.5" fill="black"/>"#,
                x(end.x),
                y(end.y)
            )?;
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}
