//! The composite-shape cases, shared by `benches/composites.rs` (criterion,
//! kasanari beside parry) and the callgrind driver
//! `examples/composite_calls.rs`, so that both measure the same inputs.
//!
//! Every case is drawn once, in plain `f64` numbers, from a seeded
//! generator, then converted to each library's types (and to each
//! precision) before anything is timed: both libraries see the same
//! vertices, tiles, poses and rays.
//!
//! | case | A | B | queries |
//! |---|---|---|---|
//! | `compound_compound` | a compound of 4 to 8 convex parts | another | bool, contact |
//! | `ball_polyline100` | a ball near a 100-segment chain | the chain | bool, contact, distance |
//! | `box_polyline1000` | a box resting on a 1000-segment chain | the chain | contact, manifold |
//! | `polyline1000` | — | the 1000-segment chain | ray |
//! | `ball_tilemap64` | a ball near the ground of a 64 × 64 tile map | the map | bool, contact |
//! | `box_tilemap64` | a box near the ground of the map | the map | bool, contact, manifold |
//!
//! The chains are rolling ground (a random walk of slopes within ±0.5, one
//! unit per segment), open and two-sided. parry has no tile map: its side of
//! the tile cases is a `Compound` of one `Cuboid` per solid tile (the same
//! solid set, the same part count: kasanari's `TileMap` against parry's
//! general-purpose composite). parry's composites are built with their
//! default flags (no internal-edge fixing), while kasanari always applies
//! its admissible normals (no ghost collisions): kasanari does more per
//! contact.

#![allow(dead_code)] // each user takes part of it

use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase;
use kasanari::prelude::*;
use kasanari_benches::Rng;

/// Queries per timed pass.
pub const BATCH: usize = 1024;

/// The tile map's side, in tiles.
pub const MAP: usize = 64;

/// The queries, as in the group names (`composite_<query>_<prec>/<case>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    Bool,
    Contact,
    Distance,
    Manifold,
    Ray,
}

impl Query {
    pub fn name(self) -> &'static str {
        match self {
            Query::Bool => "bool",
            Query::Contact => "contact",
            Query::Distance => "distance",
            Query::Manifold => "manifold",
            Query::Ray => "ray",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Query::Bool,
            Query::Contact,
            Query::Distance,
            Query::Manifold,
            Query::Ray,
        ]
        .into_iter()
        .find(|q| q.name() == s)
    }
}

/// Every case with its queries (module table).
pub const CASES: [(&str, &[Query]); 6] = [
    ("compound_compound", &[Query::Bool, Query::Contact]),
    (
        "ball_polyline100",
        &[Query::Bool, Query::Contact, Query::Distance],
    ),
    ("box_polyline1000", &[Query::Contact, Query::Manifold]),
    ("polyline1000", &[Query::Ray]),
    ("ball_tilemap64", &[Query::Bool, Query::Contact]),
    (
        "box_tilemap64",
        &[Query::Bool, Query::Contact, Query::Manifold],
    ),
];

// ---------------------------------------------------------------------------
// Inputs, in plain numbers.
// ---------------------------------------------------------------------------

/// A pose: the translation and the rotation as (cos, sin), so that both
/// libraries receive bit-identical rotations.
#[derive(Debug, Clone, Copy)]
pub struct PoseSpec {
    pub x: f64,
    pub y: f64,
    pub cos: f64,
    pub sin: f64,
}

impl PoseSpec {
    pub fn new(x: f64, y: f64, angle: f64) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self { x, y, cos, sin }
    }

    fn angle(&self) -> f64 {
        self.sin.atan2(self.cos)
    }

    /// A point of this pose's frame, in the parent frame.
    fn apply(&self, [x, y]: [f64; 2]) -> [f64; 2] {
        [
            self.x + self.cos * x - self.sin * y,
            self.y + self.sin * x + self.cos * y,
        ]
    }

    /// A direction of this pose's frame, in the parent frame.
    fn rotate(&self, [x, y]: [f64; 2]) -> [f64; 2] {
        [self.cos * x - self.sin * y, self.sin * x + self.cos * y]
    }

    /// The pose `local` (in this pose's frame) in the parent frame.
    fn compose(&self, local: &PoseSpec) -> PoseSpec {
        let [x, y] = self.apply([local.x, local.y]);
        PoseSpec::new(x, y, self.angle() + local.angle())
    }
}

/// A convex shape in its local frame.
#[derive(Debug, Clone)]
pub enum Convex {
    Ball(f64),
    /// Half extents.
    Cuboid([f64; 2]),
    /// Counter-clockwise, strictly convex.
    Polygon(Vec<[f64; 2]>),
}

impl Convex {
    fn bounding_radius(&self) -> f64 {
        match self {
            Convex::Ball(r) => *r,
            Convex::Cuboid(h) => h[0].hypot(h[1]),
            Convex::Polygon(v) => v.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max),
        }
    }
}

/// A compound: its parts with their poses in its frame.
pub type CompoundSpec = Vec<(PoseSpec, Convex)>;

/// What a case's queries run against.
#[derive(Debug, Clone)]
pub enum Target {
    /// An open two-sided chain through these points.
    Chain(Vec<[f64; 2]>),
    /// A tile map of unit tiles, rows top first.
    Tiles(Vec<Vec<bool>>),
}

/// A case's inputs.
#[derive(Debug, Clone)]
pub enum Scene {
    /// Pairs of compounds, each placed in the world.
    Compounds(Vec<(CompoundSpec, PoseSpec, CompoundSpec, PoseSpec)>),
    /// Convex shapes (A) placed against one composite (B).
    Against {
        target: Target,
        pose: PoseSpec,
        movers: Vec<(Convex, PoseSpec)>,
    },
    /// Rays (origin, unit direction) against one composite.
    Rays {
        target: Target,
        pose: PoseSpec,
        rays: Vec<([f64; 2], [f64; 2])>,
    },
}

fn ball(rng: &mut Rng) -> Convex {
    Convex::Ball(rng.range(0.25, 1.0))
}

fn cuboid(rng: &mut Rng) -> Convex {
    Convex::Cuboid([rng.range(0.3, 1.0), rng.range(0.2, 0.6)])
}

/// 5 to 7 vertices on an ellipse at jittered angles (strictly convex).
fn polygon(rng: &mut Rng) -> Convex {
    let n = 5 + (rng.next_u64() % 3) as usize;
    let gap = TAU / n as f64;
    let (phase, r) = (rng.range(0.0, TAU), rng.range(0.3, 0.8));
    let (sx, sy) = (rng.range(0.7, 1.3), rng.range(0.7, 1.3));
    Convex::Polygon(
        (0..n)
            .map(|i| {
                let t = phase + gap * (i as f64 + rng.range(-0.3, 0.3));
                [r * sx * t.cos(), r * sy * t.sin()]
            })
            .collect(),
    )
}

/// 4 to 8 parts (balls, boxes, polygons) within about 1.5 of the origin.
fn compound(rng: &mut Rng) -> CompoundSpec {
    let n = 4 + (rng.next_u64() % 5) as usize;
    (0..n)
        .map(|_| {
            let (a, d) = (rng.range(-PI, PI), rng.range(0.0, 1.5));
            let pose = PoseSpec::new(d * a.cos(), d * a.sin(), rng.range(-PI, PI));
            let part = match rng.next_u64() % 3 {
                0 => ball(rng),
                1 => cuboid(rng),
                _ => polygon(rng),
            };
            (pose, part)
        })
        .collect()
}

fn compound_radius(c: &CompoundSpec) -> f64 {
    c.iter()
        .map(|(p, s)| p.x.hypot(p.y) + s.bounding_radius())
        .fold(0.0, f64::max)
}

/// Rolling ground of `n` segments: x steps of 0.8 to 1.2, slopes a random
/// walk within ±0.5.
fn chain(rng: &mut Rng, n: usize) -> Vec<[f64; 2]> {
    let mut points = vec![[0.0, 0.0]];
    let mut slope: f64 = 0.0;
    for _ in 0..n {
        let [x, y] = *points.last().unwrap();
        slope = (slope + rng.range(-0.15, 0.15)).clamp(-0.5, 0.5);
        let dx = rng.range(0.8, 1.2);
        points.push([x + dx, y + slope * dx]);
    }
    points
}

/// The chain's point above `x` (in its frame) and its segment's angle.
fn on_chain(points: &[[f64; 2]], x: f64) -> ([f64; 2], f64) {
    let i = points
        .partition_point(|p| p[0] <= x)
        .clamp(1, points.len() - 1);
    let (a, b) = (points[i - 1], points[i]);
    let t = (x - a[0]) / (b[0] - a[0]);
    (
        [x, a[1] + t * (b[1] - a[1])],
        (b[1] - a[1]).atan2(b[0] - a[0]),
    )
}

/// A chain's pose in the world: moved off the origin and turned a little.
fn chain_pose() -> PoseSpec {
    PoseSpec::new(-37.25, 12.5, 0.05)
}

/// Each column's ground height (0 in a gap) and the floating platforms
/// `(row, first column, width)` of the 64 × 64 map.
fn terrain(rng: &mut Rng) -> Vec<Vec<bool>> {
    let mut solid = vec![vec![false; MAP]; MAP]; // [row from the bottom][col]
    let mut h: i64 = 10;
    let mut gap = 0;
    for col in 0..MAP {
        h = (h + (rng.next_u64() % 3) as i64 - 1).clamp(3, 30);
        if gap == 0 && col > 2 && rng.next_u64() % 16 == 0 {
            gap = 2 + (rng.next_u64() % 2) as usize;
        }
        if gap > 0 {
            gap -= 1;
            continue;
        }
        for row in solid.iter_mut().take(h as usize) {
            row[col] = true;
        }
    }
    for _ in 0..12 {
        let (row, col, w) = (
            (34 + rng.next_u64() % 28) as usize,
            (rng.next_u64() % 60) as usize,
            3 + (rng.next_u64() % 6) as usize,
        );
        for cell in &mut solid[row][col..(col + w).min(MAP)] {
            *cell = true;
        }
    }
    solid.reverse(); // top row first
    solid
}

/// The tops of the solid tiles under open sky or air: `(col, row + 1)` for
/// each solid tile whose upper neighbour is empty.
fn tops(rows: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let solid = |c: usize, r: usize| r < MAP && rows[MAP - 1 - r][c];
    let mut v = Vec::new();
    for c in 0..MAP {
        for r in 0..MAP {
            if solid(c, r) && !solid(c, r + 1) {
                v.push((c, r + 1));
            }
        }
    }
    v
}

/// The tile map's pose in the world (a tile map keeps only its translation).
fn map_pose() -> PoseSpec {
    PoseSpec::new(-32.0, -20.0, 0.0)
}

/// The inputs of a case, by name (module table); `None` for an unknown name.
pub fn scene(name: &str) -> Option<Scene> {
    let seed = 0x636F_6D70_0000 + CASES.iter().position(|(n, _)| *n == name)? as u64;
    let mut rng = Rng::new(seed);
    let rng = &mut rng;
    Some(match name {
        "compound_compound" => Scene::Compounds(
            (0..BATCH)
                .map(|_| {
                    let (a, b) = (compound(rng), compound(rng));
                    let pa = PoseSpec::new(
                        rng.range(-50.0, 50.0),
                        rng.range(-50.0, 50.0),
                        rng.range(-PI, PI),
                    );
                    let d = rng.range(0.0, 1.0) * 1.3 * (compound_radius(&a) + compound_radius(&b));
                    let dir = rng.range(-PI, PI);
                    let pb = PoseSpec::new(
                        pa.x + d * dir.cos(),
                        pa.y + d * dir.sin(),
                        rng.range(-PI, PI),
                    );
                    (a, pa, b, pb)
                })
                .collect(),
        ),
        "ball_polyline100" | "box_polyline1000" => {
            let boxes = name.starts_with("box");
            let points = chain(rng, if boxes { 1000 } else { 100 });
            let pose = chain_pose();
            let end = points.last().unwrap()[0];
            let movers = (0..BATCH)
                .map(|_| {
                    let ([x, y], angle) = on_chain(&points, rng.range(1.0, end - 1.0));
                    let up = [-angle.sin(), angle.cos()];
                    let (shape, lift, turn) = if boxes {
                        // Resting: the bottom face 0 to 0.05 into the ground.
                        let h = [rng.range(0.3, 1.0), rng.range(0.2, 0.5)];
                        (
                            Convex::Cuboid(h),
                            h[1] - rng.range(0.0, 0.05),
                            angle + rng.range(-0.05, 0.05),
                        )
                    } else {
                        // About half touch: centre 0 to 2 radii off the ground.
                        let r = rng.range(0.25, 1.0);
                        (Convex::Ball(r), rng.range(0.0, 2.0) * r, 0.0)
                    };
                    let local = PoseSpec::new(x + lift * up[0], y + lift * up[1], turn);
                    (shape, pose.compose(&local))
                })
                .collect();
            Scene::Against {
                target: Target::Chain(points),
                pose,
                movers,
            }
        }
        "polyline1000" => {
            let points = chain(rng, 1000);
            let pose = chain_pose();
            let end = points.last().unwrap()[0];
            let rays = (0..BATCH)
                .map(|_| {
                    let ([x, y], _) = on_chain(&points, rng.range(1.0, end - 1.0));
                    let origin = pose.apply([x, y + rng.range(2.0, 10.0)]);
                    // Down, within ±1.2 rad of the vertical: some rays graze
                    // along the ground for a while before they hit.
                    let a = -FRAC_PI_2 + rng.range(-1.2, 1.2);
                    (origin, pose.rotate([a.cos(), a.sin()]))
                })
                .collect();
            Scene::Rays {
                target: Target::Chain(points),
                pose,
                rays,
            }
        }
        "ball_tilemap64" | "box_tilemap64" => {
            let rows = terrain(rng);
            let tops = tops(&rows);
            let pose = map_pose();
            let movers = (0..BATCH)
                .map(|_| {
                    let (c, r) = tops[(rng.next_u64() % tops.len() as u64) as usize];
                    let x = c as f64 + rng.range(0.0, 1.0);
                    let (shape, reach, turn) = if name.starts_with("box") {
                        let h = [rng.range(0.3, 1.0), rng.range(0.2, 0.6)];
                        let turn = if rng.next_u64() % 2 == 0 {
                            0.0
                        } else {
                            rng.range(-0.2, 0.2)
                        };
                        let reach = h[0] * turn.sin().abs() + h[1] * turn.cos();
                        (Convex::Cuboid(h), reach, turn)
                    } else {
                        let r = rng.range(0.25, 1.0);
                        (Convex::Ball(r), r, 0.0)
                    };
                    let y = r as f64 + rng.range(0.0, 2.0) * reach;
                    (shape, pose.compose(&PoseSpec::new(x, y, turn)))
                })
                .collect();
            Scene::Against {
                target: Target::Tiles(rows),
                pose,
                movers,
            }
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// kasanari (generic over the precision).
// ---------------------------------------------------------------------------

fn point<T: Real>([x, y]: [f64; 2]) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}

fn pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

fn part<T: Real>(s: &Convex) -> ConvexPart<T> {
    match s {
        Convex::Ball(r) => Circle::new(T::lit(*r)).unwrap().into(),
        Convex::Cuboid([x, y]) => Obb::new(Vector2::new(T::lit(*x), T::lit(*y)))
            .unwrap()
            .into(),
        Convex::Polygon(v) => {
            let v: Vec<Point2<T>> = v.iter().map(|q| point(*q)).collect();
            let p = ConvexPolygon::new(&v).unwrap();
            assert_eq!(p.len(), v.len(), "kasanari kept every vertex");
            p.into()
        }
    }
}

fn convex<T: Real>(s: &Convex) -> Box<dyn Shape<T>> {
    match s {
        Convex::Ball(r) => Box::new(Circle::new(T::lit(*r)).unwrap()),
        Convex::Cuboid([x, y]) => Box::new(Obb::new(Vector2::new(T::lit(*x), T::lit(*y))).unwrap()),
        Convex::Polygon(v) => {
            let v: Vec<Point2<T>> = v.iter().map(|q| point(*q)).collect();
            Box::new(ConvexPolygon::new(&v).unwrap())
        }
    }
}

fn target<T: Real>(t: &Target) -> Box<dyn Shape<T>> {
    match t {
        Target::Chain(points) => {
            let p: Vec<Point2<T>> = points.iter().map(|q| point(*q)).collect();
            Box::new(Polyline::new(&p, false).unwrap())
        }
        Target::Tiles(rows) => {
            Box::new(TileMap::from_rows(Vector2::new(T::one(), T::one()), rows).unwrap())
        }
    }
}

/// A case in kasanari's types: the shapes, the pairs (indices into the
/// shapes, world poses) and the rays (against shape 0).
pub struct Ours<T: Real> {
    pub shapes: Vec<Box<dyn Shape<T>>>,
    pub pairs: Vec<(usize, Isometry2<T>, usize, Isometry2<T>)>,
    pub rays: Vec<(Isometry2<T>, Ray<T>)>,
    pub table: narrowphase::DispatchTable<T>,
}

impl<T: Real> Ours<T> {
    pub fn new(scene: &Scene) -> Self {
        let mut out = Self {
            shapes: Vec::new(),
            pairs: Vec::new(),
            rays: Vec::new(),
            table: narrowphase::DispatchTable::new(),
        };
        match scene {
            Scene::Compounds(pairs) => {
                for (a, pa, b, pb) in pairs {
                    let mut build = |c: &CompoundSpec| {
                        let parts = c.iter().map(|(p, s)| (pose(p), part(s))).collect();
                        out.shapes.push(Box::new(Compound::new(parts).unwrap()));
                        out.shapes.len() - 1
                    };
                    let (i, j) = (build(a), build(b));
                    out.pairs.push((i, pose(pa), j, pose(pb)));
                }
            }
            Scene::Against {
                target: t,
                pose: pt,
                movers,
            } => {
                out.shapes.push(target(t));
                for (s, p) in movers {
                    out.shapes.push(convex(s));
                    out.pairs.push((out.shapes.len() - 1, pose(p), 0, pose(pt)));
                }
            }
            Scene::Rays {
                target: t,
                pose: pt,
                rays,
            } => {
                out.shapes.push(target(t));
                let (pt, l) = (pose(pt), T::lit);
                out.rays = rays
                    .iter()
                    .map(|(o, d)| {
                        let dir = Vector2::new(l(d[0]), l(d[1]));
                        (pt, Ray::new(point(*o), dir))
                    })
                    .collect();
            }
        }
        out
    }

    fn pair(&self, k: usize) -> (&dyn Shape<T>, &Isometry2<T>, &dyn Shape<T>, &Isometry2<T>) {
        let (i, pa, j, pb) = &self.pairs[k];
        (&*self.shapes[*i], pa, &*self.shapes[*j], pb)
    }

    pub fn intersects(&self) -> Vec<bool> {
        (0..self.pairs.len())
            .map(|k| {
                let (a, pa, b, pb) = self.pair(k);
                self.table.intersects(a, pa, b, pb).unwrap()
            })
            .collect()
    }

    /// The contact depth of every pair (`None`: no contact).
    pub fn depths(&self) -> Vec<Option<f64>> {
        (0..self.pairs.len())
            .map(|k| {
                let (a, pa, b, pb) = self.pair(k);
                let c = self.table.contact(a, pa, b, pb).unwrap();
                c.map(|c| c.depth.as_f64())
            })
            .collect()
    }

    pub fn distances(&self) -> Vec<f64> {
        (0..self.pairs.len())
            .map(|k| {
                let (a, pa, b, pb) = self.pair(k);
                narrowphase::distance(a, pa, b, pb).unwrap().as_f64()
            })
            .collect()
    }

    /// The number of points of every pair's manifold (prediction 0).
    pub fn manifold_points(&self) -> Vec<usize> {
        (0..self.pairs.len())
            .map(|k| {
                let (a, pa, b, pb) = self.pair(k);
                let m = self.table.contact_manifold(a, pa, b, pb, T::zero());
                m.unwrap().map_or(0, |m| m.len())
            })
            .collect()
    }

    pub fn tois(&self) -> Vec<Option<f64>> {
        self.rays
            .iter()
            .map(|(p, r)| {
                narrowphase::cast_ray(&*self.shapes[0], p, r, T::infinity(), true)
                    .unwrap()
                    .map(|h| h.toi.as_f64())
            })
            .collect()
    }

    /// One pass of `query` over the batch (what is timed).
    pub fn pass(&self, query: Query) {
        let pairs = black_box(&self.pairs);
        let shapes = &self.shapes;
        let table = &self.table;
        match query {
            Query::Bool => {
                for (i, pa, j, pb) in pairs {
                    let _ = black_box(table.intersects(&*shapes[*i], pa, &*shapes[*j], pb));
                }
            }
            Query::Contact => {
                for (i, pa, j, pb) in pairs {
                    let _ = black_box(table.contact(&*shapes[*i], pa, &*shapes[*j], pb));
                }
            }
            Query::Distance => {
                for (i, pa, j, pb) in pairs {
                    let _ = black_box(narrowphase::distance(&*shapes[*i], pa, &*shapes[*j], pb));
                }
            }
            Query::Manifold => {
                for (i, pa, j, pb) in pairs {
                    let _ = black_box(table.contact_manifold(
                        &*shapes[*i],
                        pa,
                        &*shapes[*j],
                        pb,
                        T::zero(),
                    ));
                }
            }
            Query::Ray => {
                let target = &*shapes[0];
                for (p, r) in black_box(&self.rays) {
                    let _ = black_box(narrowphase::cast_ray(target, p, r, T::infinity(), true));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// parry: one implementation per parry crate (f32, f64).
// ---------------------------------------------------------------------------

/// A case in a parry crate's types, with the persistent manifold state.
pub trait Theirs: Sized {
    fn new(scene: &Scene) -> Self;
    fn intersects(&self) -> Vec<bool>;
    fn depths(&self) -> Vec<Option<f64>>;
    fn distances(&self) -> Vec<f64>;
    /// The number of points of every pair's manifolds (prediction 0).
    fn manifold_points(&mut self) -> Vec<usize>;
    fn tois(&self) -> Vec<Option<f64>>;
    /// One pass of `query` over the batch; manifolds keep each pair's
    /// manifolds and workspace from pass to pass (an engine's use, parry's
    /// fastest).
    fn pass(&mut self, query: Query);
}

macro_rules! parry_case {
    ($name:ident, $parry:ident) => {
        pub struct $name {
            shapes: Vec<Box<dyn $parry::shape::Shape>>,
            pairs: Vec<(usize, $parry::math::Pose, usize, $parry::math::Pose)>,
            rays: Vec<($parry::math::Pose, $parry::query::Ray)>,
            state: Vec<(
                Vec<$parry::query::ContactManifold<(), ()>>,
                Option<$parry::query::ContactManifoldsWorkspace>,
            )>,
        }

        impl $name {
            fn l(x: f64) -> $parry::math::Real {
                <$parry::math::Real as Real>::lit(x)
            }

            fn vector([x, y]: [f64; 2]) -> $parry::math::Vector {
                $parry::math::Vector::new(Self::l(x), Self::l(y))
            }

            fn pose(p: &PoseSpec) -> $parry::math::Pose {
                $parry::math::Pose::from_parts(
                    Self::vector([p.x, p.y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(Self::l(p.cos), Self::l(p.sin)),
                )
            }

            fn convex(s: &Convex) -> $parry::shape::SharedShape {
                use $parry::shape as ps;
                match s {
                    Convex::Ball(r) => ps::SharedShape::new(ps::Ball::new(Self::l(*r))),
                    Convex::Cuboid(h) => ps::SharedShape::new(ps::Cuboid::new(Self::vector(*h))),
                    Convex::Polygon(v) => {
                        let v: Vec<_> = v.iter().map(|q| Self::vector(*q)).collect();
                        let n = v.len();
                        let p = ps::ConvexPolygon::from_convex_polyline(v).unwrap();
                        assert_eq!(p.points().len(), n, "parry kept every vertex");
                        ps::SharedShape::new(p)
                    }
                }
            }

            fn target(t: &Target) -> Box<dyn $parry::shape::Shape> {
                use $parry::shape as ps;
                match t {
                    Target::Chain(points) => Box::new(ps::Polyline::new(
                        points.iter().map(|q| Self::vector(*q)).collect(),
                        None,
                    )),
                    Target::Tiles(rows) => {
                        let tile = ps::SharedShape::new(ps::Cuboid::new(Self::vector([0.5, 0.5])));
                        let mut parts = Vec::new();
                        for (t, row) in rows.iter().enumerate() {
                            let r = rows.len() - 1 - t; // from the bottom
                            for (c, &solid) in row.iter().enumerate() {
                                if solid {
                                    let centre = [c as f64 + 0.5, r as f64 + 0.5];
                                    let p = Self::pose(&PoseSpec::new(centre[0], centre[1], 0.0));
                                    parts.push((p, tile.clone()));
                                }
                            }
                        }
                        Box::new(ps::Compound::new(parts))
                    }
                }
            }

            fn pair(
                &self,
                k: usize,
            ) -> (
                &$parry::math::Pose,
                &dyn $parry::shape::Shape,
                &$parry::math::Pose,
                &dyn $parry::shape::Shape,
            ) {
                let (i, pa, j, pb) = &self.pairs[k];
                (pa, &*self.shapes[*i], pb, &*self.shapes[*j])
            }
        }

        impl Theirs for $name {
            fn new(scene: &Scene) -> Self {
                use $parry::shape as ps;
                let mut out = Self {
                    shapes: Vec::new(),
                    pairs: Vec::new(),
                    rays: Vec::new(),
                    state: Vec::new(),
                };
                match scene {
                    Scene::Compounds(pairs) => {
                        for (a, pa, b, pb) in pairs {
                            let mut build = |c: &CompoundSpec| {
                                let parts = c
                                    .iter()
                                    .map(|(p, s)| (Self::pose(p), Self::convex(s)))
                                    .collect();
                                out.shapes.push(Box::new(ps::Compound::new(parts)));
                                out.shapes.len() - 1
                            };
                            let (i, j) = (build(a), build(b));
                            out.pairs.push((i, Self::pose(pa), j, Self::pose(pb)));
                        }
                    }
                    Scene::Against {
                        target,
                        pose,
                        movers,
                    } => {
                        out.shapes.push(Self::target(target));
                        for (s, p) in movers {
                            out.shapes.push(Self::convex(s).0.clone_dyn());
                            let k = out.shapes.len() - 1;
                            out.pairs.push((k, Self::pose(p), 0, Self::pose(pose)));
                        }
                    }
                    Scene::Rays { target, pose, rays } => {
                        out.shapes.push(Self::target(target));
                        let pose = Self::pose(pose);
                        out.rays = rays
                            .iter()
                            .map(|(o, d)| {
                                let ray =
                                    $parry::query::Ray::new(Self::vector(*o), Self::vector(*d));
                                (pose, ray)
                            })
                            .collect();
                    }
                }
                out.state = out.pairs.iter().map(|_| (Vec::new(), None)).collect();
                out
            }

            fn intersects(&self) -> Vec<bool> {
                (0..self.pairs.len())
                    .map(|k| {
                        let (pa, a, pb, b) = self.pair(k);
                        $parry::query::intersection_test(pa, a, pb, b)
                            .unwrap()
                            .intersecting
                    })
                    .collect()
            }

            fn depths(&self) -> Vec<Option<f64>> {
                (0..self.pairs.len())
                    .map(|k| {
                        let (pa, a, pb, b) = self.pair(k);
                        $parry::query::contact(pa, a, pb, b, Self::l(0.0))
                            .unwrap()
                            .map(|c| -c.dist.as_f64())
                    })
                    .collect()
            }

            fn distances(&self) -> Vec<f64> {
                (0..self.pairs.len())
                    .map(|k| {
                        let (pa, a, pb, b) = self.pair(k);
                        $parry::query::distance(pa, a, pb, b)
                            .unwrap()
                            .distance
                            .as_f64()
                    })
                    .collect()
            }

            fn manifold_points(&mut self) -> Vec<usize> {
                self.pass(Query::Manifold);
                self.state
                    .iter()
                    .map(|(m, _)| m.iter().map(|m| m.points.len()).sum())
                    .collect()
            }

            fn tois(&self) -> Vec<Option<f64>> {
                let max = Self::l(f64::INFINITY);
                let target = &*self.shapes[0];
                self.rays
                    .iter()
                    .map(|(p, r)| {
                        target
                            .cast_ray_and_get_normal(p, r, max, true)
                            .map(|h| h.time_of_impact.as_f64())
                    })
                    .collect()
            }

            fn pass(&mut self, query: Query) {
                use $parry::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
                let pairs = black_box(&self.pairs);
                let shapes = &self.shapes;
                let zero = Self::l(0.0);
                match query {
                    Query::Bool => {
                        for (i, pa, j, pb) in pairs {
                            let _ = black_box($parry::query::intersection_test(
                                pa,
                                &*shapes[*i],
                                pb,
                                &*shapes[*j],
                            ));
                        }
                    }
                    Query::Contact => {
                        for (i, pa, j, pb) in pairs {
                            let _ = black_box($parry::query::contact(
                                pa,
                                &*shapes[*i],
                                pb,
                                &*shapes[*j],
                                zero,
                            ));
                        }
                    }
                    Query::Distance => {
                        for (i, pa, j, pb) in pairs {
                            let _ = black_box($parry::query::distance(
                                pa,
                                &*shapes[*i],
                                pb,
                                &*shapes[*j],
                            ));
                        }
                    }
                    Query::Manifold => {
                        for ((i, pa, j, pb), (manifolds, workspace)) in
                            pairs.iter().zip(&mut self.state)
                        {
                            let _ = black_box(DefaultQueryDispatcher.contact_manifolds(
                                &pa.inv_mul(pb),
                                &*shapes[*i],
                                &*shapes[*j],
                                zero,
                                manifolds,
                                workspace,
                            ));
                        }
                    }
                    Query::Ray => {
                        let max = Self::l(f64::INFINITY);
                        let target = &*shapes[0];
                        for (p, r) in black_box(&self.rays) {
                            black_box(target.cast_ray_and_get_normal(p, r, max, true));
                        }
                    }
                }
            }
        }
    };
}

parry_case!(Parry32, parry2d);
parry_case!(Parry64, parry2d_f64);
