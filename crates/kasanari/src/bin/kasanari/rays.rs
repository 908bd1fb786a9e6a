//! `kasanari rays`: the first hit of each ray of a rays file, over all its
//! shapes (`docs/scene-format.md`, "Rays").

use kasanari::prelude::*;
use kasanari::scene::{self, FirstHit, RaysFile, RaysWorld};
use kasanari::serde_json;
use serde::Serialize;

use crate::args::{FileOptions, Precision};
use crate::files::{num, point};
use crate::svg::{self, Canvas};

/// One ray's answer, as printed by `--json` (fields in this order).
#[derive(Serialize)]
struct RayAnswer {
    hit: bool,
    shape: Option<usize>,
    toi: Option<f64>,
    point: Option<[f64; 2]>,
    normal: Option<[f64; 2]>,
    /// Only for a hit on a composite: the part hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<u32>,
}

pub fn run(o: &FileOptions) -> Result<(), String> {
    let file = scene::read_rays(&o.file).map_err(|e| format!("{}: {e}", o.file.display()))?;
    match o.precision {
        Precision::F32 => run_in::<f32>(o, &file),
        Precision::F64 => run_in::<f64>(o, &file),
    }
}

fn run_in<T: Real>(o: &FileOptions, file: &RaysFile) -> Result<(), String> {
    let at_file = |e: scene::SceneError| format!("{}: {e}", o.file.display());
    let rays = file.world::<T>().map_err(at_file)?;
    let answers = rays.answers().map_err(at_file)?;
    if o.json {
        let out: Vec<RayAnswer> = answers
            .iter()
            .zip(&rays.rays)
            .map(|(a, q)| RayAnswer {
                hit: a.is_some(),
                shape: a.as_ref().map(|(i, _)| *i),
                toi: a.as_ref().map(|(_, h)| num(h.toi)),
                point: a.as_ref().map(|(_, h)| point(&h.point)),
                normal: a.as_ref().map(|(_, h)| [num(h.normal.x), num(h.normal.y)]),
                part: a.as_ref().and_then(|(i, _)| rays.hit_part(q, *i)),
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        say!(
            "{}: {} shapes, {} rays, {} hit",
            o.file.display(),
            file.shapes.len(),
            file.rays.len(),
            answers.iter().flatten().count()
        );
        for (k, (a, q)) in answers.iter().zip(&rays.rays).enumerate() {
            match a {
                Some((i, h)) => say!(
                    "  ray {k}: hits {}{} ({}, shapes[{i}]) at toi {:.6}, point ({:.4}, {:.4}), normal ({:.4}, {:.4})",
                    file.shapes[*i].label(*i),
                    rays.hit_part(q, *i)
                        .map_or_else(String::new, |p| format!(" part {p}")),
                    file.shapes[*i].shape.kind(),
                    num(h.toi),
                    num(h.point.x),
                    num(h.point.y),
                    num(h.normal.x),
                    num(h.normal.y)
                ),
                None => say!("  ray {k}: no hit"),
            }
        }
    }
    if let Some(path) = &o.svg {
        let title = format!(
            "{}: {} shapes, {} rays",
            o.file.display(),
            file.shapes.len(),
            file.rays.len()
        );
        std::fs::write(path, picture(file, &rays, &answers, &title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

const RAY_HIT: &str = "#1d4ed8";
const RAY_MISS: &str = "#6b7280";
const HIT_POINT: &str = "#c1121f";

/// The shapes (those hit filled), each ray as a line from its origin (a
/// ring) to its hit (a dot, the normal as an arrow), or to `max_toi` (a bar)
/// or, when that is beyond the picture, an arrowhead: the ray goes on.
fn picture<T: Real>(
    file: &RaysFile,
    rays: &RaysWorld<T>,
    answers: &[FirstHit<T>],
    title: &str,
) -> String {
    let f = |p: &kasanari::nalgebra::Point2<T>| [p.x.as_f64(), p.y.as_f64()];
    // The shapes' boxes, the origins and the hits.
    let world = &rays.shapes.world;
    let mut points: Vec<[f64; 2]> = Vec::new();
    for h in world.handles() {
        if let Ok(o) = world.get(h) {
            let b = o.shape().bounding_box(o.pose());
            points.extend([f(&b.min), f(&b.max)]);
        }
    }
    for (q, a) in rays.rays.iter().zip(answers) {
        points.push(f(&q.ray.origin));
        if let Some((_, h)) = a {
            points.push(f(&h.point));
        }
    }
    let (lo, hi) = bounds(&points);
    // How far a ray that misses is drawn: a third of the picture's size.
    let reach = ((hi[0] - lo[0]).max(hi[1] - lo[1]) / 3.0).max(f64::MIN_POSITIVE);
    let ends: Vec<([f64; 2], bool)> = rays
        .rays
        .iter()
        .zip(answers)
        .map(|(q, a)| {
            let o = f(&q.ray.origin);
            if let Some((_, h)) = a {
                return (f(&h.point), false);
            }
            let d = [q.ray.dir.x.as_f64(), q.ray.dir.y.as_f64()];
            let len = d[0].hypot(d[1]);
            let (t, goes_on) = if q.max_toi.as_f64() * len <= reach {
                (q.max_toi.as_f64(), false)
            } else {
                (reach / len, true)
            };
            ([o[0] + t * d[0], o[1] + t * d[1]], goes_on)
        })
        .collect();
    points.extend(ends.iter().map(|(e, _)| *e));
    let (lo, hi) = bounds(&points);
    let (lo, hi) = svg::balanced(lo, hi);
    let mut canvas = Canvas::new(lo, hi, 900.0);
    let hit: std::collections::HashSet<usize> = answers.iter().flatten().map(|(i, _)| *i).collect();
    for (i, e) in file.shapes.iter().enumerate() {
        canvas.shape(&e.shape, [0.0, 0.0], 0.0, hit.contains(&i));
    }
    let normal_len = 0.05 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
    for ((q, a), (end, goes_on)) in rays.rays.iter().zip(answers).zip(&ends) {
        let o = f(&q.ray.origin);
        let d = [q.ray.dir.x.as_f64(), q.ray.dir.y.as_f64()];
        let len = d[0].hypot(d[1]);
        let unit = [d[0] / len, d[1] / len];
        match a {
            Some((_, h)) => {
                canvas.line(o, *end, RAY_HIT, false);
                canvas.dot(o, 3.0, RAY_HIT, false);
                canvas.dot(*end, 3.0, HIT_POINT, true);
                canvas.arrow(*end, [h.normal.x.as_f64(), h.normal.y.as_f64()], normal_len);
            }
            None => {
                if *goes_on {
                    let dist = (end[0] - o[0]).hypot(end[1] - o[1]);
                    canvas.arrow_in(o, unit, dist, RAY_MISS);
                } else {
                    canvas.line(o, *end, RAY_MISS, false);
                    canvas.bar(*end, unit, RAY_MISS);
                }
                canvas.dot(o, 3.0, RAY_MISS, false);
            }
        }
    }
    canvas.finish(title)
}

/// The smallest box around `points` (the unit square when there are none).
fn bounds(points: &[[f64; 2]]) -> ([f64; 2], [f64; 2]) {
    if points.is_empty() {
        return ([0.0, 0.0], [1.0, 1.0]);
    }
    points.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    )
}
