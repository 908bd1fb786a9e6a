//! Line of sight: who can see whom, with ray casts in a World.
//!
//! Six characters stand in a small level of walls, pillars and crates. A
//! character sees another when the first thing a ray from its eyes towards
//! the other's centre hits is that other character (walls block, other
//! characters block too). Each query is one `World::cast_ray` that excludes
//! the looking character itself: the grid walks only the cells the ray
//! crosses, and the first hit is exact.
//!
//! The example prints the visibility table, checks it against a brute-force
//! answer (every object's exact ray cast), and writes `line_of_sight.svg`
//! (green: sees, red: blocked, with the blocking hit marked).
//!
//! Run: `cargo run --example line_of_sight`.

use std::fmt::Write as _;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;

type R = f64;

/// What an object is, for the table and the picture.
enum Thing {
    Wall([R; 2], [R; 2], R),
    Pillar([R; 2], R),
    Crate(Vec<[R; 2]>),
    Character(&'static str, [R; 2]),
}

fn level() -> Vec<Thing> {
    use Thing::*;
    vec![
        Wall([0.0, 5.0], [6.0, 0.4], 0.0),
        Wall([9.0, -2.0], [0.4, 4.0], 0.3),
        Pillar([-4.0, -1.0], 1.2),
        Crate(vec![[2.0, -4.0], [4.0, -4.5], [4.5, -2.5], [2.5, -2.0]]),
        Character("ayaka", [-8.0, 0.0]),
        Character("bashō", [0.0, 9.0]),
        Character("chiyo", [0.0, 1.0]),
        Character("daichi", [14.0, -1.0]),
        Character("emi", [6.0, -8.0]),
        Character("fuji", [-6.0, 9.0]),
    ]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::<R>::new(2.0)?;
    let mut characters = Vec::new();
    for thing in level() {
        let h = match &thing {
            Thing::Wall(c, h, a) => world.insert(
                Obb::new(Vector2::new(h[0], h[1]))?,
                Isometry2::new(Vector2::new(c[0], c[1]), *a),
                Filter::default(),
            ),
            Thing::Pillar(c, r) => world.insert(
                Circle::new(*r)?,
                Isometry2::translation(c[0], c[1]),
                Filter::default(),
            ),
            Thing::Crate(vs) => {
                let vs: Vec<Point2<R>> = vs.iter().map(|v| Point2::new(v[0], v[1])).collect();
                world.insert(
                    ConvexPolygon::new(&vs)?,
                    Isometry2::identity(),
                    Filter::default(),
                )
            }
            Thing::Character(_, c) => world.insert(
                Circle::new(0.5)?,
                Isometry2::translation(c[0], c[1]),
                Filter::default(),
            ),
        }?;
        if let Thing::Character(name, c) = thing {
            characters.push((name, Point2::new(c[0], c[1]), h));
        }
    }

    // sight[i][j]: whether i sees j, and the first hit of the ray from i.
    let mut sight = Vec::new();
    for &(_, from, me) in &characters {
        let mut row = Vec::new();
        for &(_, to, target) in &characters {
            if target == me {
                row.push(None);
                continue;
            }
            let ray = Ray::new(from, to - from);
            // Up to the target's centre (toi 1): anything hit first blocks.
            let hit = world.cast_ray(&ray, 1.0, QueryFilter::default().excluding(me))?;
            let (first, at) = hit.expect("the target itself is on the ray");
            assert_eq!(
                first,
                brute_force_first(&world, &ray, me),
                "grid walk vs brute force"
            );
            row.push(Some((first == target, at.point)));
        }
        sight.push(row);
    }

    print!("{:>8}", "");
    for (name, _, _) in &characters {
        print!("{name:>8}");
    }
    println!();
    for (i, (name, _, _)) in characters.iter().enumerate() {
        print!("{name:>8}");
        for cell in &sight[i] {
            let mark = match cell {
                None => "-",
                Some((true, _)) => "sees",
                Some((false, _)) => "·",
            };
            print!("{mark:>8}");
        }
        println!();
    }
    // Sight is symmetric here: no ray starts inside a wall.
    for i in 0..characters.len() {
        for j in 0..characters.len() {
            let see = |a: usize, b: usize| sight[a][b].map(|s| s.0);
            assert_eq!(see(i, j), see(j, i), "{i} and {j}");
        }
    }

    std::fs::write("line_of_sight.svg", picture(&characters, &sight))?;
    println!("wrote line_of_sight.svg");
    Ok(())
}

/// The first object along the ray (toi ≤ 1), excluding `me`, by every
/// object's exact ray cast: the reference the grid walk must agree with.
fn brute_force_first(world: &World<R>, ray: &Ray<R>, me: Handle) -> Handle {
    let mut best: Option<(R, Handle)> = None;
    for h in world.handles().filter(|h| *h != me) {
        let o = world.get(h).unwrap();
        if let Some(hit) = cast_ray(o.shape(), o.pose(), ray, 1.0, true).unwrap() {
            if best.is_none_or(|(t, b)| hit.toi < t || (hit.toi == t && h < b)) {
                best = Some((hit.toi, h));
            }
        }
    }
    best.unwrap().1
}

type Sight = Vec<Vec<Option<(bool, Point2<R>)>>>;

fn picture(characters: &[(&str, Point2<R>, Handle)], sight: &Sight) -> String {
    let (x0, y0, scale) = (-12.0, -12.0, 25.0);
    let p = |x: R, y: R| ((x - x0) * scale, (12.0 - y) * scale);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{w}" viewBox="0 0 {w} {w}"><rect width="100%" height="100%" fill="white"/>"#,
        w = 28.0 * scale
    );
    let _ = y0;
    for thing in level() {
        match thing {
            Thing::Wall(c, h, a) => {
                let (cos, sin) = (a.cos(), a.sin());
                let pts: Vec<String> = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
                    .iter()
                    .map(|[u, v]| {
                        let (x, y) = (u * h[0], v * h[1]);
                        let (px, py) = p(c[0] + cos * x - sin * y, c[1] + sin * x + cos * y);
                        format!("{px:.1},{py:.1}")
                    })
                    .collect();
                let _ = writeln!(s, r##"<polygon points="{}" fill="#888"/>"##, pts.join(" "));
            }
            Thing::Pillar(c, r) => {
                let (cx, cy) = p(c[0], c[1]);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#888"/>"##,
                    r * scale
                );
            }
            Thing::Crate(vs) => {
                let pts: Vec<String> = vs
                    .iter()
                    .map(|v| {
                        let (x, y) = p(v[0], v[1]);
                        format!("{x:.1},{y:.1}")
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#b08040"/>"##,
                    pts.join(" ")
                );
            }
            Thing::Character(..) => {}
        }
    }
    for (i, (_, from, _)) in characters.iter().enumerate() {
        for (j, (_, to, _)) in characters.iter().enumerate().skip(i + 1) {
            let Some((sees, at)) = sight[i][j] else {
                continue;
            };
            let (ax, ay) = p(from.x, from.y);
            let (bx, by) = if sees { p(to.x, to.y) } else { p(at.x, at.y) };
            let colour = if sees { "#2a2" } else { "#d33" };
            let _ = writeln!(
                s,
                r#"<line x1="{ax:.1}" y1="{ay:.1}" x2="{bx:.1}" y2="{by:.1}" stroke="{colour}" stroke-width="1.5"/>"#
            );
            if !sees {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{bx:.1}" cy="{by:.1}" r="3" fill="{colour}"/>"#
                );
            }
        }
    }
    for (name, c, _) in characters {
        let (cx, cy) = p(c.x, c.y);
        let _ = writeln!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#36c"/><text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="13">{name}</text>"##,
            0.5 * scale,
            cx + 10.0,
            cy - 10.0
        );
    }
    s.push_str("</svg>\n");
    s
}
