//! The README's user story (no seed): a game's own entity types in a `World`
//! beside the built-in shapes.
//!
//! Shows a hexagonal map tile of a strategy game as a shape kind of its own
//! (`ShapeKind::custom(0)`, implementing `Shape`, `Convex` and
//! `SupportSeparatingAxes` in a few lines, so the generic SAT answers it against
//! anything), a player that collides as its `Obb` hit box (and so gets the box's
//! exact kernels), a coin and two bullets, with filters (bullets ignore bullets, tiles
//! ignore tiles). The player walks right for six frames; each frame prints the
//! colliding pairs (with depths) and the started/stopped events. `type R`
//! switches the precision.
//!
//! Run with `cargo run -p kasanari --example custom_entity`.

use core::any::Any;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;

type R = f32; // switch the whole program to f64 here

/// A regular hexagonal map tile with corners at 0°, 60°, …, 300°.
#[derive(Debug)]
struct HexTile {
    radius: R,
}

const HEX: ShapeKind = ShapeKind::custom(0);

impl HexTile {
    fn corners(&self, pose: &Isometry2<R>) -> [Point2<R>; 6] {
        core::array::from_fn(|i| {
            let angle = i as R * R::lit(core::f64::consts::FRAC_PI_3);
            pose * Point2::new(self.radius * angle.cos(), self.radius * angle.sin())
        })
    }
}

impl Shape<R> for HexTile {
    fn kind(&self) -> ShapeKind {
        HEX
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<R>) -> BoundingBox2<R> {
        BoundingBox2::from_points(&self.corners(pose)).unwrap()
    }
    fn as_convex(&self) -> Option<&dyn Convex<R>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<R>> {
        Some(self)
    }
}

impl Convex<R> for HexTile {
    fn support_point(&self, pose: &Isometry2<R>, dir: &Vector2<R>) -> Point2<R> {
        let corners = self.corners(pose);
        corners
            .into_iter()
            .max_by(|a, b| a.coords.dot(dir).total_cmp(&b.coords.dot(dir)))
            .unwrap()
    }
    fn contains_point(&self, pose: &Isometry2<R>, p: &Point2<R>) -> bool {
        let c = self.corners(pose); // counter-clockwise: inside is left of every edge
        (0..6).all(|i| (c[(i + 1) % 6] - c[i]).perp(&(p - c[i])) >= 0.0)
    }
}

impl SupportSeparatingAxes<R> for HexTile {
    fn project(&self, pose: &Isometry2<R>, axis: &Vector2<R>) -> Interval<R> {
        Interval::hull(self.corners(pose).map(|c| c.coords.dot(axis))).unwrap()
    }
    fn candidate_axes(
        &self,
        pose: &Isometry2<R>,
        _: &dyn SupportSeparatingAxes<R>,
        _: &Isometry2<R>,
        axis: &mut dyn FnMut(Vector2<R>),
    ) {
        let c = self.corners(pose); // opposite edges are parallel: three normals
        (0..3)
            .map(|i| c[i + 1] - c[i])
            .for_each(|e| axis(Vector2::new(e.y, -e.x)));
    }
    fn nearest_core_point(&self, pose: &Isometry2<R>, p: &Point2<R>) -> Point2<R> {
        let corners = self.corners(pose); // a polygon may answer with its nearest vertex
        corners
            .into_iter()
            .min_by(|a, b| (a - p).norm_squared().total_cmp(&(b - p).norm_squared()))
            .unwrap()
    }
}

/// The player collides as its rotated hit box: the built-in `Obb` kind.
#[derive(Debug)]
struct Player {
    hit_box: Obb<R>,
}

impl Shape<R> for Player {
    fn kind(&self) -> ShapeKind {
        ShapeKind::OBB
    }
    fn as_any(&self) -> &dyn Any {
        &self.hit_box
    }
    fn bounding_box(&self, pose: &Isometry2<R>) -> BoundingBox2<R> {
        self.hit_box.bounding_box(pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<R>> {
        Some(&self.hit_box)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<R>> {
        Some(&self.hit_box)
    }
}

const PLAYER: u32 = 1;
const BULLET: u32 = 2;
const TILE: u32 = 4;
const COIN: u32 = 8;

/// The started/stopped events of each frame, as printed.
const EVENTS: [&str; 6] = [
    "started: -; stopped: -",
    "started: -; stopped: -",
    "started: forest+player; stopped: -",
    "started: forest+bullet1 forest+bullet2 player+bullet1 player+bullet2; stopped: -",
    "started: river+player; stopped: forest+bullet1 forest+bullet2 player+bullet1 player+bullet2",
    "started: coin+player; stopped: forest+player",
];

fn main() {
    let hex = || -> Box<dyn Shape<R>> { Box::new(HexTile { radius: 1.0 }) };
    let circle = |r| -> Box<dyn Shape<R>> { Box::new(Circle::new(r).unwrap()) };
    let player: Box<dyn Shape<R>> = Box::new(Player {
        hit_box: Obb::new(Vector2::new(0.4, 0.8)).unwrap(),
    });
    let tile = Filter::new(TILE, PLAYER | BULLET);
    let bullet = Filter::new(BULLET, !BULLET);
    let river_y = R::lit(0.75).sqrt(); // the forest's neighbour: the two tiles touch
    let things: [(_, Box<dyn Shape<R>>, R, R, _); 6] = [
        ("forest", hex(), 0.0, 0.0, tile), // tiles ignore tiles
        ("river", hex(), 1.5, river_y, tile),
        ("coin", circle(0.25), 2.5, -0.5, Filter::new(COIN, PLAYER)),
        ("player", player, -3.0, 0.0, Filter::new(PLAYER, u32::MAX)),
        ("bullet1", circle(0.1), 9.0, 0.2, bullet), // bullets ignore bullets
        ("bullet2", circle(0.1), 9.05, 0.25, bullet),
    ];
    let mut world = World::<R>::new(2.0).unwrap();
    let mut names = Vec::new();
    for (name, shape, x, y, filter) in things {
        let pose = Isometry2::translation(x, y);
        names.push((world.insert_boxed(shape, pose, filter).unwrap(), name));
    }
    let name = |h: Handle| names.iter().find(|(k, _)| *k == h).map_or("?", |(_, n)| *n);
    let pair = |&(a, b): &(Handle, Handle)| format!("{}+{}", name(a), name(b));
    // No kernel is registered for the custom kind: the table falls back to SAT.
    let route = DispatchTable::<R>::shared()
        .route(&*hex(), &*circle(0.1))
        .unwrap();
    println!(
        "hex tiles (custom kind: no kernel, so the generic SAT), a player, a coin, 2 bullets:"
    );
    assert_eq!(route, kasanari::narrowphase::Route::Sat);

    for (frame, expected) in EVENTS.iter().enumerate() {
        let (x, bullet_x) = (-3.0 + frame as R, 9.0 - 3.0 * frame as R);
        let moves = [(3, x, 0.0), (4, bullet_x, 0.2), (5, bullet_x + 0.05, 0.25)];
        for (i, x, y) in moves {
            let pose = Isometry2::translation(x, y);
            world.set_pose(names[i].0, pose).unwrap();
        }
        let hits = world.collisions();
        let depths = hits.pairs.iter().map(|c| {
            let depth = c.contact.depth;
            format!("{} {depth:.2}", pair(&(c.a, c.b)))
        });
        println!("frame {frame}, player at x = {x}, bullets at x = {bullet_x}");
        println!("  colliding: {}", list(depths, ", "));
        let (started, stopped) = (hits.started.iter().map(pair), hits.stopped.iter().map(pair));
        let events = format!(
            "started: {}; stopped: {}",
            list(started, " "),
            list(stopped, " ")
        );
        println!("  {events}");
        assert_eq!(events, *expected);
        // Touching tiles and overlapping bullets reach the filters, never the pairs.
        assert!(hits.errors.is_empty() && hits.stats.filtered_pairs < hits.stats.candidate_pairs);
    }
    println!("the touching tiles and the overlapping bullets were filtered out in every frame");
}

/// The items joined by `separator`, or "-" for none.
fn list(items: impl Iterator<Item = String>, separator: &str) -> String {
    let items: Vec<_> = items.collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join(separator)
    }
}
