//! `kasanari scene` and `kasanari pairs`: answers for the shapes of a file.

use std::collections::HashSet;

use kasanari::narrowphase::composite::Parts;
use kasanari::narrowphase::{ClosestPointsQuery, ContactQuery, ManifoldQuery};
use kasanari::prelude::*;
use kasanari::scene::{self, ShapeSpec};
use kasanari::serde_json::{self, Value, json};
use serde::Serialize;

/// A number for output, with `-0` printed as `0`.
pub(crate) fn num<T: Real>(x: T) -> f64 {
    x.as_f64() + 0.0
}

/// One colliding pair of a scene, as printed by `--json` (fields in this order).
#[derive(Serialize)]
struct ScenePair {
    a: Value,
    b: Value,
    normal: [f64; 2],
    depth: f64,
    point_a: [f64; 2],
    point_b: [f64; 2],
    /// Only for a pair with a composite: the part of `a` and of `b` (`null`
    /// for a shape that is not a composite).
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<PartIds>,
}

/// The parts of a pair's answer: `[part of a, part of b]`, each a part id or
/// `null`.
pub(crate) type PartIds = [Option<u32>; 2];

/// The parts as printed, `None` (no field) for a pair without a composite.
pub(crate) fn part_ids(p: Parts, composite: bool) -> Option<PartIds> {
    composite.then_some([p.a, p.b])
}

/// One answer of a pairs file, as printed by `--json` (fields in this order).
#[derive(Serialize)]
struct PairAnswer {
    intersects: bool,
    depth: Option<f64>,
    normal: Option<[f64; 2]>,
    point_a: Option<[f64; 2]>,
    point_b: Option<[f64; 2]>,
    distance: f64,
    closest_a: Option<[f64; 2]>,
    closest_b: Option<[f64; 2]>,
    manifold: Option<ManifoldAnswer>,
    /// Only for a pair with a composite: the parts behind each answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<PairParts>,
}

/// The parts of a composite pair's answers (`docs/scene-format.md`).
#[derive(Serialize)]
struct PairParts {
    /// The contact's (`null` when apart).
    contact: Option<PartIds>,
    /// The closest points' (`null` when intersecting).
    closest: Option<PartIds>,
    /// The manifold's deepest part pair (`null` without a manifold).
    manifold: Option<PartIds>,
}

/// A pair's contact manifold, as printed by `--json`.
#[derive(Serialize)]
struct ManifoldAnswer {
    normal: [f64; 2],
    points: Vec<ManifoldPointAnswer>,
}

/// One manifold point, as printed by `--json`.
#[derive(Serialize)]
struct ManifoldPointAnswer {
    point_a: [f64; 2],
    point_b: [f64; 2],
    separation: f64,
    id: [String; 2],
}

/// A feature as printed: `"vertex 2"`, `"edge 0"`, `"face 3"`, `"surface"`.
pub(crate) fn feature_name(f: Feature) -> String {
    match f {
        Feature::Vertex(i) => format!("vertex {i}"),
        Feature::Edge(i) => format!("edge {i}"),
        Feature::Face(i) => format!("face {i}"),
        Feature::Surface => "surface".to_string(),
    }
}

fn manifold_answer<T: Real>(m: &Manifold<T>) -> ManifoldAnswer {
    ManifoldAnswer {
        normal: [num(m.normal().x), num(m.normal().y)],
        points: m
            .points()
            .iter()
            .map(|p| ManifoldPointAnswer {
                point_a: point(&p.point_a),
                point_b: point(&p.point_b),
                separation: num(p.separation),
                id: [feature_name(p.id.a), feature_name(p.id.b)],
            })
            .collect(),
    }
}

use crate::args::{FileOptions, Precision};
use crate::svg::{self, Canvas};

pub fn scene(o: &FileOptions) -> Result<(), String> {
    let file = scene::read_scene(&o.file).map_err(|e| format!("{}: {e}", o.file.display()))?;
    match o.precision {
        Precision::F32 => scene_in::<f32>(o, &file),
        Precision::F64 => scene_in::<f64>(o, &file),
    }
}

fn id_of(file: &scene::Scene, i: usize) -> Value {
    file.shapes[i].id.clone().unwrap_or(json!(i))
}

pub(crate) fn point<T: Real>(p: &kasanari::nalgebra::Point2<T>) -> [f64; 2] {
    [num(p.x), num(p.y)]
}

fn scene_in<T: Real>(o: &FileOptions, file: &scene::Scene) -> Result<(), String> {
    let mut sw = file
        .world::<T>(o.cell_size.map(T::lit))
        .map_err(|e| format!("{}: {e}", o.file.display()))?;
    let index: std::collections::HashMap<Handle, usize> = sw
        .handles
        .iter()
        .enumerate()
        .map(|(i, h)| (*h, i))
        .collect();
    sw.world.collisions();
    let hits = sw.world.last_collisions();
    if let Some((a, b, e)) = hits.errors.first() {
        return Err(format!(
            "{} and {}: {e}",
            file.shapes[index[a]].label(index[a]),
            file.shapes[index[b]].label(index[b])
        ));
    }
    if o.json {
        let out: Vec<ScenePair> = hits
            .pairs
            .iter()
            .map(|p| {
                let c = p.contact;
                let (i, j) = (index[&p.a], index[&p.b]);
                let composite =
                    file.shapes[i].shape.is_composite() || file.shapes[j].shape.is_composite();
                ScenePair {
                    a: id_of(file, i),
                    b: id_of(file, j),
                    normal: [num(c.normal.x), num(c.normal.y)],
                    depth: num(c.depth),
                    point_a: point(&c.point_a),
                    point_b: point(&c.point_b),
                    parts: part_ids(p.parts, composite),
                }
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        say!(
            "{}: {} shapes, {} colliding pairs",
            o.file.display(),
            file.shapes.len(),
            hits.pairs.len()
        );
        for p in &hits.pairs {
            let (i, j) = (index[&p.a], index[&p.b]);
            let c = p.contact;
            say!(
                "  {} × {}: normal ({:.4}, {:.4}), depth {:.6}{}",
                file.shapes[i].label(i),
                file.shapes[j].label(j),
                num(c.normal.x),
                num(c.normal.y),
                num(c.depth),
                parts_text(p.parts)
            );
        }
    }
    if let Some(path) = &o.svg {
        let hit: HashSet<usize> = hits
            .pairs
            .iter()
            .flat_map(|p| [index[&p.a], index[&p.b]])
            .collect();
        let bounds = sw
            .world
            .handles()
            .filter_map(|h| {
                sw.world
                    .get(h)
                    .ok()
                    .map(|o| o.shape().bounding_box(o.pose()))
            })
            .reduce(|a, b| a.merged(&b));
        let (lo, hi) = bounds.map_or(([0.0, 0.0], [1.0, 1.0]), |b| {
            (
                [b.min.x.as_f64(), b.min.y.as_f64()],
                [b.max.x.as_f64(), b.max.y.as_f64()],
            )
        });
        let mut canvas = Canvas::new(lo, hi, 900.0);
        canvas.grid(sw.world.grid().cell_size().as_f64());
        for (i, e) in file.shapes.iter().enumerate() {
            canvas.shape(&e.shape, [0.0, 0.0], 0.0, hit.contains(&i));
        }
        let len = 0.05 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
        for p in &hits.pairs {
            let c = p.contact;
            canvas.arrow(
                [c.point_a.x.as_f64(), c.point_a.y.as_f64()],
                [c.normal.x.as_f64(), c.normal.y.as_f64()],
                len,
            );
        }
        let title = format!(
            "{}: {} shapes, {} colliding pairs",
            o.file.display(),
            file.shapes.len(),
            hits.pairs.len()
        );
        std::fs::write(path, canvas.finish(&title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

pub fn pairs(o: &FileOptions) -> Result<(), String> {
    let file = scene::read_pairs(&o.file).map_err(|e| format!("{}: {e}", o.file.display()))?;
    match o.precision {
        Precision::F32 => pairs_in::<f32>(o, &file),
        Precision::F64 => pairs_in::<f64>(o, &file),
    }
}

/// `" (parts a, b)"` for the text output, naming the parts of a pair's
/// composites (empty without one).
pub(crate) fn parts_text(p: Parts) -> String {
    let one = |x: Option<u32>| x.map_or_else(|| "-".to_string(), |i| i.to_string());
    if p == Parts::NONE {
        String::new()
    } else {
        format!(" (parts {}, {})", one(p.a), one(p.b))
    }
}

fn build<T: Real>(
    o: &FileOptions,
    spec: &ShapeSpec,
    at: String,
) -> Result<scene::PlacedShape<T>, String> {
    spec.to_placed::<T>()
        .map_err(|e| format!("{}: {at} ({}): {e}", o.file.display(), spec.kind()))
}

/// A pair's answers: the contact, the closest points, the box around both
/// shapes (for the picture), the contact manifold, and for a composite pair
/// the parts of the contact, the closest points and the manifold.
type PairOut<T> = (
    Option<Contact<T>>,
    ClosestPoints<T>,
    kasanari::shape::BoundingBox2<T>,
    Option<Manifold<T>>,
    Option<[Parts; 3]>,
);

fn pairs_in<T: Real>(o: &FileOptions, file: &scene::PairsFile) -> Result<(), String> {
    let table = DispatchTable::<T>::new();
    let mut out: Vec<PairOut<T>> = Vec::with_capacity(file.pairs.len());
    for (i, p) in file.pairs.iter().enumerate() {
        let (a, pa) = build::<T>(o, &p.a, format!("pairs[{i}].a"))?;
        let (b, pb) = build::<T>(o, &p.b, format!("pairs[{i}].b"))?;
        let c = table
            .contact(a.as_ref(), &pa, b.as_ref(), &pb)
            .map_err(|e| format!("pairs[{i}]: {e}"))?;
        let closest = table
            .closest_points(a.as_ref(), &pa, b.as_ref(), &pb, T::infinity())
            .map_err(|e| format!("pairs[{i}]: {e}"))?;
        let bounds = a.bounding_box(&pa).merged(&b.bounding_box(&pb));
        let prediction = T::lit(p.prediction.unwrap_or(0.0));
        let manifold = table
            .contact_manifold(a.as_ref(), &pa, b.as_ref(), &pb, prediction)
            .map_err(|e| format!("pairs[{i}]: {e}"))?;
        let parts = if p.a.is_composite() || p.b.is_composite() {
            let err = |e| format!("pairs[{i}]: {e}");
            let (a, b) = (a.as_ref(), b.as_ref());
            Some([
                table
                    .query_parts::<ContactQuery>(a, &pa, b, &pb, ())
                    .map_err(err)?
                    .1,
                table
                    .query_parts::<ClosestPointsQuery>(a, &pa, b, &pb, T::infinity())
                    .map_err(err)?
                    .1,
                table
                    .query_parts::<ManifoldQuery>(a, &pa, b, &pb, prediction)
                    .map_err(err)?
                    .1,
            ])
        } else {
            None
        };
        out.push((c, closest, bounds, manifold, parts));
    }
    if o.json {
        let json: Vec<PairAnswer> = out
            .iter()
            .map(|(c, closest, _, manifold, parts)| {
                let apart = match closest {
                    ClosestPoints::WithinMargin {
                        point_a,
                        point_b,
                        distance,
                        ..
                    } => Some((point(point_a), point(point_b), num(*distance))),
                    _ => None,
                };
                PairAnswer {
                    intersects: c.is_some(),
                    depth: c.map(|c| num(c.depth)),
                    normal: c.map(|c| [num(c.normal.x), num(c.normal.y)]),
                    point_a: c.map(|c| point(&c.point_a)),
                    point_b: c.map(|c| point(&c.point_b)),
                    distance: apart.map_or(0.0, |(_, _, d)| d),
                    closest_a: apart.map(|(p, _, _)| p),
                    closest_b: apart.map(|(_, q, _)| q),
                    manifold: manifold.as_ref().map(manifold_answer),
                    parts: parts.map(|[pc, pd, pm]| PairParts {
                        contact: c.map(|_| [pc.a, pc.b]),
                        closest: apart.map(|_| [pd.a, pd.b]),
                        manifold: manifold.map(|_| [pm.a, pm.b]),
                    }),
                }
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?
        );
    } else {
        for (i, (p, (c, closest, _, manifold, parts))) in file.pairs.iter().zip(&out).enumerate() {
            let named = parts.map_or_else(String::new, |[pc, pd, _]| {
                parts_text(if c.is_some() { pc } else { pd })
            });
            match c {
                Some(c) => say!(
                    "pair {i} ({} × {}): intersects, depth {:.6}, normal ({:.4}, {:.4}){named}",
                    p.a.kind(),
                    p.b.kind(),
                    num(c.depth),
                    num(c.normal.x),
                    num(c.normal.y)
                ),
                None => say!(
                    "pair {i} ({} × {}): apart, distance {:.6}{named}",
                    p.a.kind(),
                    p.b.kind(),
                    closest.distance().map_or(f64::INFINITY, num)
                ),
            }
            if let Some(m) = manifold {
                let seps: Vec<String> = m
                    .points()
                    .iter()
                    .map(|q| format!("{:.6}", num(q.separation)))
                    .collect();
                say!(
                    "  manifold: {} point(s), separations {}",
                    m.len(),
                    seps.join(", ")
                );
            }
        }
    }
    if let Some(path) = &o.svg {
        let title = format!("{}: {} pairs", o.file.display(), file.pairs.len());
        std::fs::write(path, pairs_picture(file, &out, &title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// A short, readable number: four decimals, or three significant digits in
/// scientific notation when that would hide it.
fn short(x: f64) -> String {
    if x == 0.0 || (1e-3..1e6).contains(&x.abs()) {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{x:.3e}")
    }
}

/// One panel per pair, each at its own scale: both shapes (filled when they
/// intersect), the contact normal as an arrow from `point_a`, or, for
/// shapes apart, the closest points joined by a dashed segment with the
/// distance beside it.
fn pairs_picture<T: Real>(file: &scene::PairsFile, out: &[PairOut<T>], title: &str) -> String {
    let f = |p: &kasanari::nalgebra::Point2<T>| [p.x.as_f64(), p.y.as_f64()];
    let panels = file
        .pairs
        .iter()
        .zip(out)
        .enumerate()
        .map(|(i, (p, (c, closest, bounds, manifold, _)))| {
            let (lo, hi) = svg::balanced(f(&bounds.min), f(&bounds.max));
            let mut canvas = Canvas::new(lo, hi, 300.0);
            canvas.shape(&p.a, [0.0, 0.0], 0.0, c.is_some());
            canvas.shape(&p.b, [0.0, 0.0], 0.0, c.is_some());
            // The manifold's points: a ring on each shape's point, joined.
            if let Some(m) = manifold {
                for q in m.points() {
                    let (qa, qb) = (f(&q.point_a), f(&q.point_b));
                    canvas.line(qa, qb, "#2a9d8f", false);
                    canvas.dot(qa, 3.0, "#2a9d8f", false);
                    canvas.dot(qb, 3.0, "#2a9d8f", true);
                }
            }
            let kinds = format!("pair {i}: {} × {}", p.a.kind(), p.b.kind());
            let caption = match (c, closest) {
                (Some(c), _) => {
                    let len = 0.1 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
                    canvas.arrow(f(&c.point_a), [num(c.normal.x), num(c.normal.y)], len);
                    format!("{kinds}, depth {}", short(num(c.depth)))
                }
                (
                    None,
                    ClosestPoints::WithinMargin {
                        point_a,
                        point_b,
                        normal,
                        distance,
                    },
                ) => {
                    let (qa, qb) = (f(point_a), f(point_b));
                    canvas.line(qa, qb, "#c1121f", true);
                    canvas.dot(qa, 2.5, "#c1121f", true);
                    canvas.dot(qb, 2.5, "#c1121f", true);
                    // Beside the segment's middle, a few pixels off it.
                    let off = 0.02 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
                    let mid = [
                        0.5 * (qa[0] + qb[0]) - normal.y.as_f64() * off,
                        0.5 * (qa[1] + qb[1]) + normal.x.as_f64() * off,
                    ];
                    canvas.label(mid, &short(num(*distance)));
                    format!("{kinds}, distance {}", short(num(*distance)))
                }
                (None, _) => format!("{kinds}, apart"),
            };
            (canvas, caption)
        })
        .collect();
    svg::sheet(title, panels, 3)
}
