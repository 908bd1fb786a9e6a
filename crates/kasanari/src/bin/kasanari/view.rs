//! `kasanari view`: an interactive testbed in the browser.
//!
//! A local HTTP server (127.0.0.1 only, [`tiny_http`]) serves one page whose
//! HTML, JavaScript and CSS are compiled into the binary (`view/page.html`);
//! the page draws on a canvas and sends edits, and every answer is computed
//! here by the same library calls as the other commands: the scene's world
//! ([`kasanari::scene::Scene::world`]) and its [`World::collisions`] with
//! manifolds, [`DispatchTable::closest_points`] for two selected shapes,
//! [`World::cast_ray`] and [`World::cast_shape`]. The API (JSON over HTTP)
//! is described in `docs/testbed.md`.
//!
//! The scene's entries, in f64 world coordinates as the file holds them, are
//! the state: an edit moves an entry's coordinates (a rigid motion in f64)
//! and rebuilds the world from the entries, so that the world is always the
//! one `kasanari scene` would build from the saved file, and a file loaded
//! and saved unedited comes back exactly (the same entries, numbers written
//! by serde_json's shortest round-trip form).
//!
//! Requests are bounded ([`MAX_BODY`]); a malformed one gets a 400 (an
//! oversized one a 413) with a message, and the server keeps serving.
//! Ctrl-C stops it after the request at hand.

use std::collections::HashMap;
use std::io::Read as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kasanari::demo::Arena;
use kasanari::nalgebra::Vector2;
use kasanari::prelude::*;
use kasanari::scene::{self, Entry, Scene, SceneWorld, ShapeSpec};
use kasanari::serde_json::{self, Value, json};
use serde::Deserialize;

use crate::args::{Precision, ViewOptions};
use crate::files::{num, point};

/// The page: one HTML file with its script and style inline.
const PAGE: &str = include_str!("view/page.html");

/// The largest request body accepted (1 MiB): a scene of some 10,000 shapes.
pub const MAX_BODY: usize = 1 << 20;

/// The most grid cells a frame lists (beyond that the page draws the grid
/// lines alone).
const MAX_CELLS: usize = 20_000;

/// Seconds per arena step (60 per second, as `kasanari arena`).
const DT: f64 = 1.0 / 60.0;

pub fn run(o: &ViewOptions) -> Result<(), String> {
    let (scene, motion, arena_side, name) = if o.arena {
        // The arena of `kasanari arena`: its movers, its compound bodies
        // (one per hundred movers, at least three) and its tile-map floor,
        // which stays put (the last entry).
        let mut arena = Arena::new(o.n, o.seed);
        arena.add_compounds((o.n / 100).max(3), o.seed);
        let mut shapes = Vec::with_capacity(arena.movers.len() + 1);
        let mut motion = Vec::with_capacity(arena.movers.len() + 1);
        for (i, m) in arena.movers.iter().enumerate() {
            shapes.push(Entry {
                id: Some(json!(i)),
                membership: None,
                mask: None,
                shape: moved(&m.spec, m.position, m.angle, [0.0, 0.0]),
            });
            motion.push(Motion {
                velocity: m.velocity,
                spin: m.spin,
            });
        }
        shapes.push(Entry {
            id: Some(json!("floor")),
            membership: None,
            mask: None,
            shape: arena.floor(),
        });
        motion.push(Motion::default());
        let scene = Scene {
            version: scene::FORMAT_VERSION,
            shapes,
        };
        (scene, motion, Some(arena.side), "arena.json".to_string())
    } else if let Some(path) = &o.file {
        let scene = scene::read_scene(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let n = scene.shapes.len();
        let name = path
            .file_name()
            .map_or("scene.json".into(), |f| f.to_string_lossy().into_owned());
        (scene, vec![Motion::default(); n], None, name)
    } else {
        let scene = Scene {
            version: scene::FORMAT_VERSION,
            shapes: Vec::new(),
        };
        (scene, Vec::new(), None, "scene.json".to_string())
    };
    match o.precision {
        Precision::F32 => serve(
            o,
            Testbed::<f32>::new(scene, motion, arena_side, name, "f32")?,
        ),
        Precision::F64 => serve(
            o,
            Testbed::<f64>::new(scene, motion, arena_side, name, "f64")?,
        ),
    }
}

/// The velocity and spin of an object (zero for a scene file's shapes).
#[derive(Debug, Clone, Copy, Default)]
struct Motion {
    velocity: [f64; 2],
    spin: f64,
}

/// The state: the scene's entries, their motion and the world built from them.
struct Testbed<T: Real> {
    scene: Scene,
    motion: Vec<Motion>,
    /// The arena's square `[0, side]²`, whose walls the objects bounce off.
    arena_side: Option<f64>,
    /// The file name the page offers when saving.
    name: String,
    precision: &'static str,
    world: SceneWorld<T>,
    table: DispatchTable<T>,
    /// Simulated time and frame count of the arena.
    time: f64,
    frames: u64,
}

impl<T: Real> Testbed<T> {
    fn new(
        scene: Scene,
        motion: Vec<Motion>,
        arena_side: Option<f64>,
        name: String,
        precision: &'static str,
    ) -> Result<Self, String> {
        let world = build(&scene)?;
        Ok(Self {
            scene,
            motion,
            arena_side,
            name,
            precision,
            world,
            table: DispatchTable::new(),
            time: 0.0,
            frames: 0,
        })
    }

    /// Rebuilds the world after an edit; on error the entries are given back
    /// as they were (`previous`) and the message returned.
    fn rebuild(&mut self, previous: Vec<Entry>) -> Result<(), String> {
        match build(&self.scene) {
            Ok(w) => {
                self.world = w;
                Ok(())
            }
            Err(e) => {
                self.scene.shapes = previous;
                Err(e)
            }
        }
    }

    fn handle(&self, i: usize) -> Result<Handle, String> {
        self.world
            .handles
            .get(i)
            .copied()
            .ok_or_else(|| format!("no shape {i} (the scene has {})", self.scene.shapes.len()))
    }

    /// Everything the page draws: the shapes with their boxes, the colliding
    /// pairs with their contacts and manifolds, the grid's occupied cells and
    /// the counts.
    fn frame(&mut self) -> Result<Value, String> {
        let start = Instant::now();
        let answer = self.world.world.collisions();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let index: HashMap<Handle, usize> = self
            .world
            .handles
            .iter()
            .enumerate()
            .map(|(i, h)| (*h, i))
            .collect();
        if let Some((a, b, e)) = answer.errors.first() {
            return Err(format!("shapes {} and {}: {e}", index[a], index[b]));
        }
        let stats = answer.stats;
        let mut colliding = vec![false; self.scene.shapes.len()];
        let manifolds: HashMap<(Handle, Handle), &Manifold<T>> = answer
            .manifolds
            .iter()
            .map(|m| ((m.a, m.b), &m.manifold))
            .collect();
        let pairs: Vec<Value> = answer
            .pairs
            .iter()
            .map(|p| {
                let (a, b) = (index[&p.a], index[&p.b]);
                colliding[a] = true;
                colliding[b] = true;
                let c = p.contact;
                let points: Vec<Value> = manifolds.get(&(p.a, p.b)).map_or(Vec::new(), |m| {
                    m.points()
                        .iter()
                        .map(|q| {
                            json!({"point_a": point(&q.point_a), "point_b": point(&q.point_b),
                                   "separation": num(q.separation)})
                        })
                        .collect()
                });
                let mut pair = json!({"a": a, "b": b, "normal": [num(c.normal.x), num(c.normal.y)],
                       "depth": num(c.depth), "point_a": point(&c.point_a),
                       "point_b": point(&c.point_b), "manifold": points});
                if p.parts != Parts::NONE {
                    pair["parts"] = json!([p.parts.a, p.parts.b]);
                }
                pair
            })
            .collect();
        let world = &self.world.world;
        let grid = world.grid();
        let mut cells = std::collections::BTreeSet::new();
        let mut shapes = Vec::with_capacity(self.scene.shapes.len());
        for (i, (e, h)) in self
            .scene
            .shapes
            .iter()
            .zip(&self.world.handles)
            .enumerate()
        {
            let object = world.get(*h).map_err(|e| e.to_string())?;
            let b = object.shape().bounding_box(object.pose());
            if cells.len() <= MAX_CELLS {
                let (lo, hi) = (grid.cell_of(&b.min), grid.cell_of(&b.max));
                // A huge box covers too many cells to list: it is cut at the
                // list's bound.
                'cells: for x in lo[0]..=hi[0] {
                    for y in lo[1]..=hi[1] {
                        cells.insert((x, y));
                        if cells.len() > MAX_CELLS {
                            break 'cells;
                        }
                    }
                }
            }
            let mut shape = json!({
                "label": e.label(i), "kind": e.shape.kind(), "spec": e.shape,
                "aabb": [num(b.min.x), num(b.min.y), num(b.max.x), num(b.max.y)],
                "colliding": colliding[i],
            });
            if let Some(pieces) = pieces(&e.shape) {
                shape["pieces"] = pieces;
            }
            shapes.push(shape);
        }
        let truncated = cells.len() > MAX_CELLS;
        let cells: Vec<[i64; 2]> = if truncated {
            Vec::new()
        } else {
            cells.into_iter().map(|(x, y)| [x, y]).collect()
        };
        Ok(json!({
            "precision": self.precision,
            "name": self.name,
            "arena": self.arena_side,
            "time": self.time,
            "frame": self.frames,
            "cell_size": num(grid.cell_size()),
            "cells": cells,
            "cells_truncated": truncated,
            "shapes": shapes,
            "pairs": pairs,
            "stats": {
                "objects": stats.objects,
                "candidate_pairs": stats.candidate_pairs,
                "colliding_pairs": stats.colliding_pairs,
                "frame_ms": ms,
            },
        }))
    }

    /// Moves shape `i` by `by` and turns it by `turn` radians about its centre.
    fn move_shape(&mut self, m: &MoveRequest) -> Result<(), String> {
        self.handle(m.shape)?;
        let previous = self.scene.shapes.clone();
        let e = &mut self.scene.shapes[m.shape];
        e.shape = moved(&e.shape, m.by, m.turn, centre(&e.shape));
        self.rebuild(previous)
    }

    /// Advances the arena's moving objects by `frames` steps of 1/60 s,
    /// bouncing off the square's walls.
    fn step(&mut self, frames: u32) -> Result<(), String> {
        let previous = self.scene.shapes.clone();
        for _ in 0..frames {
            for (e, m) in self.scene.shapes.iter_mut().zip(&mut self.motion) {
                if m.velocity == [0.0, 0.0] && m.spin == 0.0 {
                    continue;
                }
                let c = centre(&e.shape);
                if let Some(side) = self.arena_side {
                    for (x, v) in c.iter().zip(&mut m.velocity) {
                        let next = x + *v * DT;
                        if (next < 0.0 && *v < 0.0) || (next > side && *v > 0.0) {
                            *v = -*v;
                        }
                    }
                }
                let by = [m.velocity[0] * DT, m.velocity[1] * DT];
                e.shape = moved(&e.shape, by, m.spin * DT, c);
            }
            self.time += DT;
            self.frames += 1;
        }
        self.rebuild(previous)
    }

    /// The distance and closest points of shapes `a` and `b`.
    fn distance(&self, a: usize, b: usize) -> Result<Value, String> {
        let (ha, hb) = (self.handle(a)?, self.handle(b)?);
        let w = &self.world.world;
        let (oa, ob) = (
            w.get(ha).map_err(|e| e.to_string())?,
            w.get(hb).map_err(|e| e.to_string())?,
        );
        let closest = self
            .table
            .closest_points(oa.shape(), oa.pose(), ob.shape(), ob.pose(), T::infinity())
            .map_err(|e| format!("shapes {a} and {b}: {e}"))?;
        Ok(match closest {
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                distance,
                ..
            } => json!({"a": a, "b": b, "intersects": false, "distance": num(distance),
                        "closest_a": point(&point_a), "closest_b": point(&point_b)}),
            _ => json!({"a": a, "b": b, "intersects": true, "distance": 0.0,
                        "closest_a": null, "closest_b": null}),
        })
    }

    /// The first hit of the ray from `origin` through `to` (no farther than
    /// `to` times `reach`).
    fn ray(&self, r: &RayRequest) -> Result<Value, String> {
        let dir = [r.to[0] - r.origin[0], r.to[1] - r.origin[1]];
        let query = scene::RaySpec {
            origin: r.origin,
            dir,
            max_toi: Some(r.reach.unwrap_or(1e6)),
            solid: true,
        }
        .to_query::<T>()
        .map_err(|e| format!("ray: {e}"))?;
        let filter = QueryFilter::default();
        let found = self
            .world
            .world
            .cast_ray_part(&query.ray, query.max_toi, filter)
            .map_err(|e| format!("ray: {e}"))?;
        Ok(match found {
            Some((h, hit, part)) => {
                let mut a = json!({"hit": true, "shape": self.index_of(h), "toi": num(hit.toi),
                    "point": point(&hit.point), "normal": [num(hit.normal.x), num(hit.normal.y)]});
                if let Some(part) = part {
                    a["part"] = json!(part);
                }
                a
            }
            None => json!({"hit": false}),
        })
    }

    /// The first contact of shape `i` moving by `by` (over time 0 to 1).
    fn cast(&self, c: &CastRequest) -> Result<Value, String> {
        let h = self.handle(c.shape)?;
        let w = &self.world.world;
        let object = w.get(h).map_err(|e| e.to_string())?;
        let vel = vector::<T>(c.by).ok_or("cast: `by` is beyond the precision's range")?;
        let filter = QueryFilter::default().excluding(h);
        let found = w
            .cast_shape_parts(
                object.shape(),
                object.pose(),
                &vel,
                T::one(),
                filter,
                ShapeCastOptions::default(),
            )
            .map_err(|e| format!("cast: {e}"))?;
        Ok(match found {
            Some((other, hit, parts)) => {
                let mut a = json!({"hit": true, "shape": c.shape,
                    "other": self.index_of(other), "toi": num(hit.toi),
                    "normal": [num(hit.normal.x), num(hit.normal.y)],
                    "point_a": point(&hit.point_a), "point_b": point(&hit.point_b),
                    "status": format!("{:?}", hit.status).to_lowercase()});
                if parts != Parts::NONE {
                    a["parts"] = json!([parts.a, parts.b]);
                }
                a
            }
            None => json!({"hit": false, "shape": c.shape}),
        })
    }

    fn index_of(&self, h: Handle) -> Option<usize> {
        self.world.handles.iter().position(|x| *x == h)
    }

    /// Replaces the scene by a loaded file (its shapes do not move).
    fn load(&mut self, body: &[u8]) -> Result<(), String> {
        let scene = scene::parse_scene(body).map_err(|e| e.to_string())?;
        let world = build(&scene)?;
        self.motion = vec![Motion::default(); scene.shapes.len()];
        self.scene = scene;
        self.world = world;
        self.arena_side = None;
        self.time = 0.0;
        self.frames = 0;
        Ok(())
    }
}

/// What the page needs beyond the spec to draw a shape: a concave
/// polygon's convex parts (world vertices, in f64 from the file's
/// vertices), whose diagonals it draws faintly. `None` for other kinds.
fn pieces(s: &ShapeSpec) -> Option<Value> {
    let ShapeSpec::ConcavePolygon { vertices } = s else {
        return None;
    };
    let v: Vec<kasanari::nalgebra::Point2<f64>> = vertices
        .iter()
        .map(|p| kasanari::nalgebra::Point2::new(p[0], p[1]))
        .collect();
    let polygon = kasanari::shape::ConcavePolygon::new(&v).ok()?;
    Some(json!(
        polygon
            .parts()
            .iter()
            .map(|part| part
                .vertices()
                .iter()
                .map(|p| [p.x, p.y])
                .collect::<Vec<_>>())
            .collect::<Vec<_>>()
    ))
}

fn vector<T: Real>(v: [f64; 2]) -> Option<Vector2<T>> {
    let (x, y) = (T::lit(v[0]), T::lit(v[1]));
    (x.is_finite() && y.is_finite()).then(|| Vector2::new(x, y))
}

/// The world of a scene, manifolds on (prediction 0: the colliding pairs'
/// manifolds).
fn build<T: Real>(scene: &Scene) -> Result<SceneWorld<T>, String> {
    let mut w = scene.world::<T>(None).map_err(|e| e.to_string())?;
    w.world
        .set_manifolds(Some(T::zero()))
        .map_err(|e| e.to_string())?;
    Ok(w)
}

/// Where a shape turns about: its centre, or the mean of its vertices.
pub(crate) fn centre(s: &ShapeSpec) -> [f64; 2] {
    let mean = |v: &[[f64; 2]]| {
        let n = v.len().max(1) as f64;
        let (x, y) = v.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
        [x / n, y / n]
    };
    match s {
        ShapeSpec::Point { p } => *p,
        ShapeSpec::Circle { center, .. }
        | ShapeSpec::Obb { center, .. }
        | ShapeSpec::Ellipse { center, .. }
        | ShapeSpec::RoundedBox { center, .. } => *center,
        ShapeSpec::Segment { a, b } | ShapeSpec::Capsule { a, b, .. } => mean(&[*a, *b]),
        ShapeSpec::Aabb { min, max } => mean(&[*min, *max]),
        ShapeSpec::Triangle { vertices } => mean(vertices),
        ShapeSpec::Polygon { vertices } | ShapeSpec::RoundedPolygon { vertices, .. } => {
            mean(vertices)
        }
        ShapeSpec::Compound { center, .. } => *center,
        ShapeSpec::Polyline { points, .. } => mean(points),
        ShapeSpec::ConcavePolygon { vertices } => mean(vertices),
        ShapeSpec::TileMap {
            origin,
            tile_size,
            rows,
        } => {
            let width = rows.first().map_or(0, |r| r.0.len()) as f64;
            [
                origin[0] + 0.5 * width * tile_size[0],
                origin[1] + 0.5 * rows.len() as f64 * tile_size[1],
            ]
        }
    }
}

/// `s` turned by `turn` radians about `pivot`, then moved by `by`, in f64.
///
/// With `turn == 0` every coordinate is `x + by` exactly as the page asked
/// (no rotation rounding). A box stays axis-aligned: its centre turns about
/// the pivot, its extents stay.
pub(crate) fn moved(s: &ShapeSpec, by: [f64; 2], turn: f64, pivot: [f64; 2]) -> ShapeSpec {
    let (cs, sn) = shape::math::cos_sin(turn);
    let at = |p: [f64; 2]| -> [f64; 2] {
        if turn == 0.0 {
            [p[0] + by[0], p[1] + by[1]]
        } else {
            let (x, y) = (p[0] - pivot[0], p[1] - pivot[1]);
            [
                pivot[0] + cs * x - sn * y + by[0],
                pivot[1] + sn * x + cs * y + by[1],
            ]
        }
    };
    match s {
        ShapeSpec::Point { p } => ShapeSpec::Point { p: at(*p) },
        ShapeSpec::Segment { a, b } => ShapeSpec::Segment {
            a: at(*a),
            b: at(*b),
        },
        ShapeSpec::Circle { center, radius } => ShapeSpec::Circle {
            center: at(*center),
            radius: *radius,
        },
        ShapeSpec::Aabb { min, max } => {
            let c = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
            let to = at(c);
            let d = if turn == 0.0 {
                by
            } else {
                [to[0] - c[0], to[1] - c[1]]
            };
            ShapeSpec::Aabb {
                min: [min[0] + d[0], min[1] + d[1]],
                max: [max[0] + d[0], max[1] + d[1]],
            }
        }
        ShapeSpec::Obb {
            center,
            half_extents,
            angle,
        } => ShapeSpec::Obb {
            center: at(*center),
            half_extents: *half_extents,
            angle: angle + turn,
        },
        ShapeSpec::Triangle { vertices } => ShapeSpec::Triangle {
            vertices: vertices.map(at),
        },
        ShapeSpec::Polygon { vertices } => ShapeSpec::Polygon {
            vertices: vertices.iter().map(|p| at(*p)).collect(),
        },
        ShapeSpec::Capsule { a, b, radius } => ShapeSpec::Capsule {
            a: at(*a),
            b: at(*b),
            radius: *radius,
        },
        ShapeSpec::Ellipse {
            center,
            radii,
            angle,
        } => ShapeSpec::Ellipse {
            center: at(*center),
            radii: *radii,
            angle: angle + turn,
        },
        ShapeSpec::RoundedPolygon { vertices, radius } => ShapeSpec::RoundedPolygon {
            vertices: vertices.iter().map(|p| at(*p)).collect(),
            radius: *radius,
        },
        ShapeSpec::RoundedBox {
            center,
            half_extents,
            radius,
            angle,
        } => ShapeSpec::RoundedBox {
            center: at(*center),
            half_extents: *half_extents,
            radius: *radius,
            angle: angle + turn,
        },
        ShapeSpec::Compound {
            center,
            angle,
            parts,
        } => ShapeSpec::Compound {
            center: at(*center),
            angle: angle + turn,
            parts: parts.clone(),
        },
        ShapeSpec::Polyline {
            points,
            closed,
            one_sided,
        } => ShapeSpec::Polyline {
            points: points.iter().map(|p| at(*p)).collect(),
            closed: *closed,
            one_sided: *one_sided,
        },
        ShapeSpec::ConcavePolygon { vertices } => ShapeSpec::ConcavePolygon {
            vertices: vertices.iter().map(|p| at(*p)).collect(),
        },
        ShapeSpec::TileMap {
            origin,
            tile_size,
            rows,
        } => {
            // Axis-aligned, as a box: its centre turns, its tiles do not.
            let c = centre(s);
            let to = at(c);
            let d = if turn == 0.0 {
                by
            } else {
                [to[0] - c[0], to[1] - c[1]]
            };
            ShapeSpec::TileMap {
                origin: [origin[0] + d[0], origin[1] + d[1]],
                tile_size: *tile_size,
                rows: rows.clone(),
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    shape: usize,
    #[serde(default)]
    by: [f64; 2],
    #[serde(default)]
    turn: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairRequest {
    a: usize,
    b: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RayRequest {
    origin: [f64; 2],
    to: [f64; 2],
    #[serde(default)]
    reach: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastRequest {
    shape: usize,
    by: [f64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepRequest {
    #[serde(default = "one")]
    frames: u32,
}

fn one() -> u32 {
    1
}

/// An answer: status, content type, body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn json(v: &Value) -> Self {
        Self {
            status: 200,
            kind: "application/json",
            body: serde_json::to_vec(v).unwrap_or_default(),
        }
    }

    fn text(status: u16, msg: impl Into<String>) -> Self {
        let mut body = msg.into().into_bytes();
        body.push(b'\n');
        Self {
            status,
            kind: "text/plain; charset=utf-8",
            body,
        }
    }
}

/// A request body parsed as `R`, or a 400 with serde's message.
fn parse<R: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<R, Reply> {
    serde_json::from_slice(body).map_err(|e| Reply::text(400, format!("bad request: {e}")))
}

fn bad(msg: String) -> Reply {
    Reply::text(400, msg)
}

/// The answer to one request; `quit` is set by `POST /api/quit`.
fn answer<T: Real>(bed: &mut Testbed<T>, method: &str, path: &str, body: &[u8]) -> (Reply, bool) {
    let path = path.split('?').next().unwrap_or("");
    let reply = match (method, path) {
        ("GET", "/" | "/index.html") => Ok(Reply {
            status: 200,
            kind: "text/html; charset=utf-8",
            body: PAGE.as_bytes().to_vec(),
        }),
        ("GET", "/api/frame") => bed.frame().map(|v| Reply::json(&v)).map_err(bad),
        ("GET", "/api/scene") => Ok(Reply::json(&json!(bed.scene))),
        ("POST", "/api/scene") => bed
            .load(body)
            .and_then(|()| bed.frame())
            .map(|v| Reply::json(&v))
            .map_err(bad),
        ("POST", "/api/move") => parse::<MoveRequest>(body).and_then(|m| {
            bed.move_shape(&m)
                .and_then(|()| bed.frame())
                .map(|v| Reply::json(&v))
                .map_err(bad)
        }),
        ("POST", "/api/step") => parse::<StepRequest>(body).and_then(|s| {
            if s.frames > 600 {
                return Err(bad(format!("at most 600 frames a step, got {}", s.frames)));
            }
            bed.step(s.frames)
                .and_then(|()| bed.frame())
                .map(|v| Reply::json(&v))
                .map_err(bad)
        }),
        ("POST", "/api/distance") => parse::<PairRequest>(body)
            .and_then(|p| bed.distance(p.a, p.b).map(|v| Reply::json(&v)).map_err(bad)),
        ("POST", "/api/ray") => parse::<RayRequest>(body)
            .and_then(|r| bed.ray(&r).map(|v| Reply::json(&v)).map_err(bad)),
        ("POST", "/api/cast") => parse::<CastRequest>(body)
            .and_then(|c| bed.cast(&c).map(|v| Reply::json(&v)).map_err(bad)),
        ("POST", "/api/quit") => return (Reply::text(200, "bye"), true),
        (_, "/" | "/index.html" | "/api/frame" | "/api/scene" | "/api/move" | "/api/step")
        | (_, "/api/distance" | "/api/ray" | "/api/cast" | "/api/quit") => Err(Reply::text(
            405,
            format!("method {method} not allowed on {path}"),
        )),
        _ => Err(Reply::text(404, format!("no such page: {path}"))),
    };
    (reply.unwrap_or_else(|r| r), false)
}

/// The body of a request, at most [`MAX_BODY`] bytes.
fn body_of(request: &mut tiny_http::Request) -> Result<Vec<u8>, Reply> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Reply::text(
            413,
            format!("request body too large (at most {MAX_BODY} bytes)"),
        ));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Reply::text(400, format!("cannot read the request: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(Reply::text(
            413,
            format!("request body too large (at most {MAX_BODY} bytes)"),
        ));
    }
    Ok(body)
}

/// A 403 for a request that a web page of another site made through the
/// user's browser: a `Host` other than this server's own address (DNS
/// rebinding: a foreign name resolving to 127.0.0.1) or an `Origin` other
/// than this page's (a foreign page posting to the server, which browsers
/// allow for plain requests without asking). Clients that send neither
/// (curl, scripts, the tests' raw requests) are local by the bind address.
fn foreign(request: &tiny_http::Request, port: u16) -> Option<Reply> {
    let own = |authority: &str| {
        let authority = authority.trim().to_ascii_lowercase();
        [format!("127.0.0.1:{port}"), format!("localhost:{port}")].contains(&authority)
    };
    for h in request.headers() {
        let value = h.value.as_str();
        if h.field.equiv("Host") && !own(value) {
            return Some(Reply::text(
                403,
                format!("foreign Host {value:?}: the testbed answers only 127.0.0.1:{port}"),
            ));
        }
        if h.field.equiv("Origin") && !value.strip_prefix("http://").is_some_and(own) {
            return Some(Reply::text(
                403,
                format!("foreign Origin {value:?}: the testbed answers only its own page"),
            ));
        }
    }
    None
}

fn serve<T: Real>(o: &ViewOptions, mut bed: Testbed<T>) -> Result<(), String> {
    let server = tiny_http::Server::http(("127.0.0.1", o.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", o.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .map_err(|e| format!("cannot handle Ctrl-C: {e}"))?;
    }
    say!(
        "kasanari view: http://{addr}/ ({} shapes, {}; Ctrl-C stops)",
        bed.scene.shapes.len(),
        bed.precision
    );
    let mut served = 0_u64;
    while !stop.load(Ordering::SeqCst) {
        let mut request = match server.recv_timeout(Duration::from_millis(100)) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(e) => return Err(format!("the server failed: {e}")),
        };
        let method = request.method().as_str().to_ascii_uppercase();
        let url = request.url().to_string();
        let (reply, quit) = match foreign(&request, addr.port()) {
            Some(r) => (r, false),
            None => match body_of(&mut request) {
                Ok(body) => answer(&mut bed, &method, &url, &body),
                Err(r) => (r, false),
            },
        };
        let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], reply.kind.as_bytes())
            .map_err(|()| "bad header")?;
        let response = tiny_http::Response::from_data(reply.body)
            .with_status_code(reply.status)
            .with_header(header);
        // A client that went away is no reason to stop serving.
        let _ = request.respond(response);
        served += 1;
        if quit || o.stop_after.is_some_and(|n| served >= n) {
            break;
        }
    }
    let plural = if served == 1 { "request" } else { "requests" };
    say!("kasanari view: stopped after {served} {plural}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{centre, moved};
    use kasanari::scene::ShapeSpec;

    #[test]
    fn a_move_without_turn_adds_exactly() {
        let s = ShapeSpec::Polygon {
            vertices: vec![[0.1, 0.2], [1.3, 0.2], [0.7, 1.9]],
        };
        let m = moved(&s, [0.25, -3.0], 0.0, centre(&s));
        assert_eq!(
            m,
            ShapeSpec::Polygon {
                vertices: vec![
                    [0.1 + 0.25, 0.2 - 3.0],
                    [1.3 + 0.25, -2.8],
                    [0.7 + 0.25, 1.9 - 3.0]
                ]
            }
        );
    }

    #[test]
    fn a_turn_keeps_the_centre_and_the_sizes() {
        let s = ShapeSpec::Capsule {
            a: [1.0, 0.0],
            b: [3.0, 0.0],
            radius: 0.5,
        };
        let m = moved(&s, [0.0, 0.0], std::f64::consts::FRAC_PI_2, centre(&s));
        let ShapeSpec::Capsule { a, b, radius } = m else {
            panic!("{m:?}")
        };
        assert_eq!(radius, 0.5);
        assert!(
            (a[0] - 2.0).abs() < 1e-15 && (a[1] + 1.0).abs() < 1e-15,
            "{a:?}"
        );
        assert!(
            (b[0] - 2.0).abs() < 1e-15 && (b[1] - 1.0).abs() < 1e-15,
            "{b:?}"
        );
        let o = ShapeSpec::Obb {
            center: [1.0, 2.0],
            half_extents: [1.0, 0.5],
            angle: 0.25,
        };
        assert_eq!(
            moved(&o, [1.0, 0.0], 0.5, centre(&o)),
            ShapeSpec::Obb {
                center: [2.0, 2.0],
                half_extents: [1.0, 0.5],
                angle: 0.75
            }
        );
        // A box stays axis-aligned.
        let b = ShapeSpec::Aabb {
            min: [0.0, 0.0],
            max: [2.0, 1.0],
        };
        assert_eq!(moved(&b, [0.0, 0.0], 1.0, centre(&b)), b);
    }
}
