//! `kasanari casts`: the first contact of each pair of moving shapes of a
//! casts file (`docs/scene-format.md`, "Casts").

use kasanari::nalgebra::Point2;
use kasanari::prelude::*;
use kasanari::scene::{self, CastsFile};
use kasanari::serde_json;
use serde::Serialize;

use crate::args::{FileOptions, Precision};
use crate::files::{num, point};
use crate::svg::{self, Canvas};

/// One cast's answer, as printed by `--json` (fields in this order).
#[derive(Serialize)]
struct CastAnswer {
    hit: bool,
    toi: Option<f64>,
    normal: Option<[f64; 2]>,
    point_a: Option<[f64; 2]>,
    point_b: Option<[f64; 2]>,
    /// `"hit"` (apart at time 0) or `"penetrating"` (touching at time 0).
    status: Option<&'static str>,
    /// Only for a hit with a composite: the part of `a` and of `b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<crate::files::PartIds>,
}

pub fn run(o: &FileOptions) -> Result<(), String> {
    let file = scene::read_casts(&o.file).map_err(|e| format!("{}: {e}", o.file.display()))?;
    match o.precision {
        Precision::F32 => run_in::<f32>(o, &file),
        Precision::F64 => run_in::<f64>(o, &file),
    }
}

fn status(s: ShapeCastStatus) -> &'static str {
    match s {
        ShapeCastStatus::Hit => "hit",
        ShapeCastStatus::Penetrating => "penetrating",
    }
}

fn run_in<T: Real>(o: &FileOptions, file: &CastsFile) -> Result<(), String> {
    let with_parts = file
        .answers_with_parts::<T>()
        .map_err(|e| format!("{}: {e}", o.file.display()))?;
    let answers: Vec<Option<ShapeCastHit<T>>> = with_parts.iter().map(|(h, _)| *h).collect();
    if o.json {
        let out: Vec<CastAnswer> = answers
            .iter()
            .zip(&with_parts)
            .zip(&file.casts)
            .map(|((a, (_, parts)), c)| CastAnswer {
                hit: a.is_some(),
                toi: a.map(|h| num(h.toi)),
                normal: a.map(|h| [num(h.normal.x), num(h.normal.y)]),
                point_a: a.map(|h| point(&h.point_a)),
                point_b: a.map(|h| point(&h.point_b)),
                status: a.map(|h| status(h.status)),
                parts: a.and_then(|_| {
                    crate::files::part_ids(*parts, c.a.is_composite() || c.b.is_composite())
                }),
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        say!(
            "{}: {} casts, {} hit",
            o.file.display(),
            file.casts.len(),
            answers.iter().flatten().count()
        );
        for (k, (c, a)) in file.casts.iter().zip(&answers).enumerate() {
            match a {
                Some(h) => say!(
                    "  cast {k} ({} × {}): {} at toi {:.6}, normal ({:.4}, {:.4}), point ({:.4}, {:.4})",
                    c.a.kind(),
                    c.b.kind(),
                    status(h.status),
                    num(h.toi),
                    num(h.normal.x),
                    num(h.normal.y),
                    num(h.point_a.x),
                    num(h.point_a.y)
                ),
                None => say!("  cast {k} ({} × {}): no hit", c.a.kind(), c.b.kind()),
            }
        }
    }
    if let Some(path) = &o.svg {
        let title = format!("{}: {} casts", o.file.display(), file.casts.len());
        std::fs::write(path, picture::<T>(file, &answers, &title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

const PATH: &str = "#6b7280";
const HIT_POINT: &str = "#c1121f";

/// One panel per cast: both shapes at time 0 (outlines), their motion (a
/// dashed line from each centre), and at the time of impact both shapes
/// again (filled) with the contact point and the normal; without a hit, the
/// shapes where the cast ends (at `max_toi`, or a short way along).
fn picture<T: Real>(file: &CastsFile, answers: &[Option<ShapeCastHit<T>>], title: &str) -> String {
    let f = |p: &Point2<T>| [p.x.as_f64(), p.y.as_f64()];
    let panels = file
        .casts
        .iter()
        .zip(answers)
        .enumerate()
        .map(|(i, (c, a))| {
            // Where the picture stops: the time of impact, else max_toi, else
            // the time for the faster shape to move 4 of its sizes.
            let placed = [&c.a, &c.b].map(|s| s.to_shape::<f64>().ok());
            let size = placed
                .iter()
                .flatten()
                .map(|(s, p)| {
                    let b = s.bounding_box(p);
                    (b.max - b.min).norm()
                })
                .fold(1e-9, f64::max);
            let speed = [c.vel_a, c.vel_b]
                .iter()
                .map(|v| v[0].hypot(v[1]))
                .fold(0.0, f64::max);
            let end = match a {
                Some(h) => h.toi.as_f64(),
                None => c.max_toi.unwrap_or(f64::INFINITY).min(if speed > 0.0 {
                    4.0 * size / speed
                } else {
                    0.0
                }),
            };
            let shift = |v: [f64; 2]| [v[0] * end, v[1] * end];
            let mut points: Vec<[f64; 2]> = Vec::new();
            for ((s, p), v) in placed.iter().flatten().zip([c.vel_a, c.vel_b]) {
                let b = s.bounding_box(p);
                let d = shift(v);
                points.extend([
                    [b.min.x, b.min.y],
                    [b.max.x, b.max.y],
                    [b.min.x + d[0], b.min.y + d[1]],
                    [b.max.x + d[0], b.max.y + d[1]],
                ]);
            }
            let (lo, hi) = bounds(&points);
            let (lo, hi) = svg::balanced(lo, hi);
            let mut canvas = Canvas::new(lo, hi, 300.0);
            for ((spec, v), placed) in [(&c.a, c.vel_a), (&c.b, c.vel_b)].into_iter().zip(&placed) {
                canvas.shape(spec, [0.0, 0.0], 0.0, false);
                canvas.shape(spec, shift(v), 0.0, a.is_some());
                if let Some((_, p)) = placed {
                    let o = [p.translation.x, p.translation.y];
                    let d = shift(v);
                    canvas.line(o, [o[0] + d[0], o[1] + d[1]], PATH, true);
                }
            }
            let kinds = format!("cast {i}: {} × {}", c.a.kind(), c.b.kind());
            let caption = match a {
                Some(h) => {
                    let len = 0.1 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
                    canvas.dot(f(&h.point_a), 2.5, HIT_POINT, true);
                    canvas.arrow(f(&h.point_a), [num(h.normal.x), num(h.normal.y)], len);
                    match h.status {
                        ShapeCastStatus::Hit => format!("{kinds}, hit at {:.4}", num(h.toi)),
                        ShapeCastStatus::Penetrating => format!("{kinds}, in contact at 0"),
                    }
                }
                None => format!("{kinds}, no hit"),
            };
            (canvas, caption)
        })
        .collect();
    svg::sheet(title, panels, 3)
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
