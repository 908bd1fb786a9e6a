//! A differential check against parry2d-f64: random pairs of the shapes both
//! libraries have (ball, cuboid, capsule, segment, triangle, convex polygon)
//! at random poses, and every query both answer (intersection, distance,
//! contact depth and normal, ray casts, linear shape casts), in f64. Prints
//! each disagreement beyond parry's own tolerance and a summary. parry's
//! iterative answers (GJK, EPA, conservative advancement) are the reference
//! within their tolerance; an exact kasanari answer may be the better one, so
//! each disagreement is a lead to look at, not a verdict.
//!
//! ```text
//! cargo run --release -p kasanari-benches --example peer_check -- [cases] [seed]
//! ```

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, ShapeCastOptions};
use kasanari::prelude::*;
use kasanari::shape::Ray;
use kasanari_benches::Rng;
use parry2d_f64::math::{Pose, Rot2, Vector};
use parry2d_f64::query;
use parry2d_f64::shape as ps;

#[derive(Debug, Clone)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 2]),
    Capsule(f64, f64),
    Segment([f64; 2], [f64; 2]),
    Triangle([[f64; 2]; 3]),
    Polygon(Vec<[f64; 2]>),
}

fn spec(rng: &mut Rng) -> Spec {
    match rng.index(6) {
        0 => Spec::Ball(rng.range(0.1, 2.0)),
        1 => Spec::Cuboid([rng.range(0.1, 2.0), rng.range(0.1, 2.0)]),
        2 => Spec::Capsule(rng.range(0.05, 1.5), rng.range(0.1, 1.0)),
        3 => Spec::Segment(
            [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)],
            [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)],
        ),
        4 => loop {
            let p = || [0.0, 0.0];
            let mut t = [p(), p(), p()];
            for q in &mut t {
                *q = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
            }
            let cross = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1])
                - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
            if cross.abs() > 0.2 {
                if cross < 0.0 {
                    t.swap(1, 2);
                }
                break Spec::Triangle(t);
            }
        },
        _ => {
            let n = 3 + rng.index(6);
            let (rx, ry) = (rng.range(0.3, 2.0), rng.range(0.3, 2.0));
            let mut angles: Vec<f64> = (0..n)
                .map(|_| rng.range(0.0, core::f64::consts::TAU))
                .collect();
            angles.sort_by(f64::total_cmp);
            angles.dedup_by(|a, b| (*a - *b).abs() < 0.2);
            if angles.len() < 3
                || angles[0] + core::f64::consts::TAU - angles[angles.len() - 1] < 0.2
            {
                return Spec::Cuboid([rx, ry]);
            }
            Spec::Polygon(
                angles
                    .iter()
                    .map(|a| [rx * a.cos(), ry * a.sin()])
                    .collect(),
            )
        }
    }
}

fn ours(s: &Spec) -> Option<Box<dyn Shape<f64>>> {
    let p = |[x, y]: [f64; 2]| Point2::new(x, y);
    Some(match s {
        Spec::Ball(r) => Box::new(Circle::new(*r).ok()?),
        Spec::Cuboid([x, y]) => Box::new(Obb::new(Vector2::new(*x, *y)).ok()?),
        Spec::Capsule(h, r) => Box::new(Capsule::new(p([0.0, -h]), p([0.0, *h]), *r).ok()?),
        Spec::Segment(a, b) => Box::new(Segment::new(p(*a), p(*b)).ok()?),
        Spec::Triangle([a, b, c]) => Box::new(Triangle::new(p(*a), p(*b), p(*c)).ok()?),
        Spec::Polygon(vs) => {
            let vs: Vec<Point2<f64>> = vs.iter().map(|q| p(*q)).collect();
            Box::new(ConvexPolygon::new(&vs).ok()?)
        }
    })
}

fn v([x, y]: [f64; 2]) -> Vector {
    Vector::new(x, y)
}

fn theirs(s: &Spec) -> Option<Box<dyn ps::Shape>> {
    Some(match s {
        Spec::Ball(r) => Box::new(ps::Ball::new(*r)),
        Spec::Cuboid(h) => Box::new(ps::Cuboid::new(v(*h))),
        Spec::Capsule(h, r) => Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, *h]), *r)),
        Spec::Segment(a, b) => Box::new(ps::Segment::new(v(*a), v(*b))),
        Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
        Spec::Polygon(vs) => Box::new(ps::ConvexPolygon::from_convex_polyline(
            vs.iter().map(|q| v(*q)).collect(),
        )?),
    })
}

struct Placed {
    spec: Spec,
    x: f64,
    y: f64,
    angle: f64,
}

impl Placed {
    fn ours(&self) -> Isometry2<f64> {
        Isometry2::from_parts(
            Translation2::new(self.x, self.y),
            UnitComplex::from_cos_sin_unchecked(self.angle.cos(), self.angle.sin()),
        )
    }
    fn theirs(&self) -> Pose {
        Pose::from_parts(
            v([self.x, self.y]),
            Rot2::from_cos_sin_unchecked(self.angle.cos(), self.angle.sin()),
        )
    }
}

fn placed(rng: &mut Rng, span: f64, offset: f64, scale: f64) -> Placed {
    let s = |x: f64| x * scale;
    let spec = match spec(rng) {
        Spec::Ball(r) => Spec::Ball(s(r)),
        Spec::Cuboid([x, y]) => Spec::Cuboid([s(x), s(y)]),
        Spec::Capsule(h, r) => Spec::Capsule(s(h), s(r)),
        Spec::Segment([a, b], [c, d]) => Spec::Segment([s(a), s(b)], [s(c), s(d)]),
        Spec::Triangle(t) => Spec::Triangle(t.map(|[x, y]| [s(x), s(y)])),
        Spec::Polygon(vs) => Spec::Polygon(vs.iter().map(|&[x, y]| [s(x), s(y)]).collect()),
    };
    Placed {
        spec,
        x: offset + rng.range(-span, span) * scale.sqrt(),
        y: offset + rng.range(-span, span) * scale.sqrt(),
        angle: rng.range(-3.2, 3.2),
    }
}

#[derive(Default)]
struct Tally {
    checked: [usize; 5],
    flagged: [usize; 5],
    /// Contact disagreements where kasanari's depth is the brute-force one.
    parry_off: usize,
}

const NAMES: [&str; 5] = ["intersects", "distance", "contact", "ray", "cast"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cases: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    // `plain`; `far` (everything 10⁴ from the origin); `ratio` (B 100 times
    // larger than A, placed within reach).
    let mode = args.get(3).map_or("plain", String::as_str);
    let (offset, scale_b) = match mode {
        "far" => (1e4, 1.0),
        "ratio" => (0.0, 100.0),
        _ => (0.0, 1.0),
    };
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut shown = 0usize;
    let mut flag = |tally: &mut Tally, q: usize, what: String| {
        tally.flagged[q] += 1;
        if shown < 60 {
            shown += 1;
            println!("[{}] {what}", NAMES[q]);
        }
    };
    for case in 0..cases {
        let (a, b) = (
            placed(&mut rng, 2.5, offset, 1.0),
            placed(&mut rng, 2.5, offset, scale_b),
        );
        let (Some(oa), Some(ob), Some(ta), Some(tb)) = (
            ours(&a.spec),
            ours(&b.spec),
            theirs(&a.spec),
            theirs(&b.spec),
        ) else {
            continue;
        };
        let (pa, pb, qa, qb) = (a.ours(), b.ours(), a.theirs(), b.theirs());
        let label = || {
            format!(
                "case {case}: {:?} at ({:.17}, {:.17}, {:.17}) vs {:?} at ({:.17}, {:.17}, {:.17})",
                a.spec, a.x, a.y, a.angle, b.spec, b.x, b.y, b.angle
            )
        };
        // Distance first: the other comparisons use it to skip touching cases.
        let d_ours = narrowphase::distance(&*oa, &pa, &*ob, &pb).unwrap();
        let d_theirs = query::distance(&qa, &*ta, &qb, &*tb).unwrap().distance;
        tally.checked[1] += 1;
        if (d_ours - d_theirs).abs() > 1e-6 * (1.0 + d_theirs) {
            flag(
                &mut tally,
                1,
                format!("{}: ours {d_ours:e}, parry {d_theirs:e}", label()),
            );
        }
        let i_ours = narrowphase::intersects(&*oa, &pa, &*ob, &pb).unwrap();
        let i_theirs = query::intersection_test(&qa, &*ta, &qb, &*tb)
            .unwrap()
            .intersecting;
        if d_ours > 1e-9 || d_theirs > 1e-9 || !i_theirs || !i_ours {
            tally.checked[0] += 1;
            let near = d_ours.max(d_theirs) < 1e-9;
            if i_ours != i_theirs && !near {
                flag(
                    &mut tally,
                    0,
                    format!(
                        "{}: ours {i_ours}, parry {i_theirs} (distance {d_ours:e})",
                        label()
                    ),
                );
            }
        }
        let c_ours = narrowphase::contact(&*oa, &pa, &*ob, &pb).unwrap();
        let c_theirs = query::contact(&qa, &*ta, &qb, &*tb, 0.0).unwrap();
        if let (Some(c), Some(k)) = (c_ours, c_theirs) {
            if k.dist < -1e-6 {
                tally.checked[2] += 1;
                let depth = -k.dist;
                let n = Vector2::new(k.normal1.x, k.normal1.y);
                let cos = c.normal.dot(&n);
                if (c.depth - depth).abs() > 1e-6 * (1.0 + depth) || cos < 1.0 - 1e-6 {
                    let brute = brute_depth(&a, &b);
                    let tol = 1e-6 * (1.0 + brute);
                    if (c.depth - brute).abs() <= tol && (depth - brute).abs() > tol {
                        tally.parry_off += 1;
                    }
                    flag(
                        &mut tally,
                        2,
                        format!(
                            "{}: depth ours {:e}, parry {depth:e}, brute force {brute:e}; normals ours ({:.6}, {:.6}), parry ({:.6}, {:.6})",
                            label(),
                            c.depth,
                            c.normal.x,
                            c.normal.y,
                            n.x,
                            n.y
                        ),
                    );
                }
            }
        }
        // A ray from far out towards near B's centre.
        let (ox, oy) = (offset + rng.range(-8.0, 8.0), offset + rng.range(-8.0, 8.0));
        let (tx, ty) = (b.x + rng.range(-1.0, 1.0), b.y + rng.range(-1.0, 1.0));
        let dir = [tx - ox, ty - oy];
        if dir[0].hypot(dir[1]) > 1e-3 {
            let ray = Ray::new(Point2::new(ox, oy), Vector2::new(dir[0], dir[1]));
            let r_ours = narrowphase::cast_ray(&*ob, &pb, &ray, f64::INFINITY, true).unwrap();
            let r_theirs = tb.cast_ray_and_get_normal(
                &qb,
                &query::Ray::new(v([ox, oy]), v(dir)),
                f64::MAX,
                true,
            );
            tally.checked[3] += 1;
            match (r_ours, r_theirs) {
                (Some(h), Some(k)) => {
                    let cos = h.normal.x * k.normal.x + h.normal.y * k.normal.y;
                    if (h.toi - k.time_of_impact).abs() > 1e-7 * (1.0 + k.time_of_impact)
                        || (cos < 1.0 - 1e-6 && h.toi > 0.0)
                    {
                        flag(
                            &mut tally,
                            3,
                            format!(
                                "{} ray ({ox}, {oy}) dir {dir:?}: toi ours {:e} parry {:e}, normals ({:.6},{:.6}) ({:.6},{:.6})",
                                label(),
                                h.toi,
                                k.time_of_impact,
                                h.normal.x,
                                h.normal.y,
                                k.normal.x,
                                k.normal.y
                            ),
                        );
                    }
                }
                (None, None) => {}
                (h, k) => flag(
                    &mut tally,
                    3,
                    format!(
                        "{} ray ({ox}, {oy}) dir {dir:?}: ours {:?}, parry {:?}",
                        label(),
                        h.map(|h| h.toi),
                        k.map(|k| k.time_of_impact)
                    ),
                ),
            }
        }
        // A linear cast: A flies towards B from farther out.
        if d_ours > 1e-3 && d_theirs > 1e-3 {
            let vel = [
                b.x - a.x + rng.range(-1.0, 1.0),
                b.y - a.y + rng.range(-1.0, 1.0),
            ];
            let max_toi = 2.0;
            let h_ours = narrowphase::cast_shapes(
                &*oa,
                &pa,
                &Vector2::new(vel[0], vel[1]),
                &*ob,
                &pb,
                &Vector2::zeros(),
                max_toi,
                ShapeCastOptions::default(),
            )
            .unwrap();
            let h_theirs = query::cast_shapes(
                &qa,
                v(vel),
                &*ta,
                &qb,
                v([0.0, 0.0]),
                &*tb,
                query::ShapeCastOptions::with_max_time_of_impact(max_toi),
            )
            .unwrap();
            tally.checked[4] += 1;
            match (h_ours, h_theirs) {
                (Some(h), Some(k)) => {
                    if (h.toi - k.time_of_impact).abs() > 1e-5 {
                        flag(
                            &mut tally,
                            4,
                            format!(
                                "{} vel {vel:?}: toi ours {:e} parry {:e}",
                                label(),
                                h.toi,
                                k.time_of_impact
                            ),
                        );
                    }
                }
                (None, None) => {}
                (h, k) => {
                    // Grazing misses: the distance at the closest approach
                    // decides; flag only clear ones.
                    let t = h
                        .map(|h| h.toi)
                        .or(k.map(|k| k.time_of_impact))
                        .unwrap_or(0.0);
                    let moved = Isometry2::from_parts(
                        Translation2::new(a.x + vel[0] * t, a.y + vel[1] * t),
                        pa.rotation,
                    );
                    let d = narrowphase::distance(&*oa, &moved, &*ob, &pb).unwrap();
                    if d > 1e-6 || h.is_none() {
                        flag(
                            &mut tally,
                            4,
                            format!(
                                "{} vel {vel:?}: ours {:?}, parry {:?} (distance at t {d:e})",
                                label(),
                                h.map(|h| h.toi),
                                k.map(|k| k.time_of_impact)
                            ),
                        );
                    }
                }
            }
        }
    }
    for (q, name) in NAMES.iter().enumerate() {
        println!(
            "{name:>10}: {} checked, {} disagreements",
            tally.checked[q], tally.flagged[q]
        );
    }
    println!(
        "   contact: {} of the disagreements with kasanari's depth equal to the brute-force one, parry's not",
        tally.parry_off
    );
    if tally.flagged.iter().sum::<usize>() > tally.parry_off {
        std::process::exit(1);
    }
}

/// The vertices (world) and radius of a placed shape, from its spec alone
/// (not through either library).
fn outline(p: &Placed) -> (Vec<[f64; 2]>, f64) {
    let (c, s) = (p.angle.cos(), p.angle.sin());
    let place = |[x, y]: [f64; 2]| [c * x - s * y + p.x, s * x + c * y + p.y];
    match &p.spec {
        Spec::Ball(r) => (vec![place([0.0, 0.0])], *r),
        Spec::Cuboid([hx, hy]) => (
            [[-hx, -hy], [*hx, -hy], [*hx, *hy], [-hx, *hy]]
                .iter()
                .map(|&q| place(q))
                .collect(),
            0.0,
        ),
        Spec::Capsule(h, r) => (vec![place([0.0, -h]), place([0.0, *h])], *r),
        Spec::Segment(a, b) => (vec![place(*a), place(*b)], 0.0),
        Spec::Triangle(t) => (t.iter().map(|&q| place(q)).collect(), 0.0),
        Spec::Polygon(vs) => (vs.iter().map(|&q| place(q)).collect(), 0.0),
    }
}

/// The penetration depth of two overlapping convex shapes by brute force:
/// the least overlap of their projections over directions, sampled finely
/// then narrowed by a ternary search around the best sample (the overlap is
/// unimodal near its minimum). An independent reference for `contact`.
fn brute_depth(a: &Placed, b: &Placed) -> f64 {
    let ((va, ra), (vb, rb)) = (outline(a), outline(b));
    let overlap = |t: f64| {
        let n = [t.cos(), t.sin()];
        let dot = |q: &[f64; 2]| q[0] * n[0] + q[1] * n[1];
        let hi_a = va.iter().map(dot).fold(f64::MIN, f64::max) + ra;
        let lo_b = vb.iter().map(dot).fold(f64::MAX, f64::min) - rb;
        hi_a - lo_b
    };
    const SAMPLES: usize = 20_000;
    let step = core::f64::consts::TAU / SAMPLES as f64;
    let mut best = (f64::MAX, 0.0);
    for k in 0..SAMPLES {
        let t = k as f64 * step;
        let o = overlap(t);
        if o < best.0 {
            best = (o, t);
        }
    }
    let (mut lo, mut hi) = (best.1 - step, best.1 + step);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if overlap(m1) < overlap(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    overlap(0.5 * (lo + hi)).min(best.0)
}
