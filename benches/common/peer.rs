//! The differential check against parry, shared by the tool
//! `examples/peer_check.rs` (long runs, printed leads) and the test
//! `tests/peer.rs` (short runs in CI): random pairs of the six kinds both
//! libraries have (ball, cuboid, capsule, segment, triangle, convex polygon)
//! at random poses, and every query both answer: intersection, distance,
//! contact depth and normal, a ray cast, a linear shape cast. Two contracts
//! parry does not share are checked against the brute force alone: the
//! closest points (each on its shape's boundary, as far apart as the
//! distance, the normal along them) and a shape cast's witness points (each
//! on its shape at the time of impact, the two together).
//!
//! Every case is drawn in plain `f64` numbers and rounded once to the
//! precision under test, so that both libraries (and the brute force below)
//! see the very same shapes and poses. parry's iterative answers (GJK, EPA,
//! conservative advancement) are the reference within their tolerance.
//! A disagreement is then settled by a reference, and passes when
//! kasanari's answer is the reference's (parry's may be right too where the
//! answer is not unique, as a penetration direction between two equal
//! overlaps): for distances, booleans, contact depths and normals and shape
//! casts, an independent brute force from the specs alone (neither library's
//! code: distances between the outlines' sides, the least overlap of the
//! projections over directions, both at the time a cast reports); for ray
//! casts in f32, kasanari's f64 answer on the same rounded inputs (itself
//! compared with parry's f64 answers by the f64 runs, where the rays agree).
//! Every other disagreement is a failure.

#![allow(dead_code)] // each user takes part of it

use kasanari_benches::Rng;

/// The queries compared, in report order.
pub const QUERIES: [&str; 7] = [
    "intersects",
    "distance",
    "contact",
    "ray",
    "cast",
    "closest points",
    "cast witnesses",
];

/// Where the pairs are drawn.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// Added to every position (`far`: 10⁴).
    pub offset: f64,
    /// B's size factor (`ratio`: 100, placed within reach of A).
    pub scale_b: f64,
}

impl Mode {
    /// `plain`, `far` or `ratio`.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "plain" => Some(Self {
                offset: 0.0,
                scale_b: 1.0,
            }),
            "far" => Some(Self {
                offset: 1e4,
                scale_b: 1.0,
            }),
            "ratio" => Some(Self {
                offset: 0.0,
                scale_b: 100.0,
            }),
            _ => None,
        }
    }
}

/// The tolerances of one precision: how far apart two answers may be
/// before they count as a disagreement.
#[derive(Debug, Clone, Copy)]
pub struct Tolerances {
    /// Distances and depths, relative to `1 + value`.
    pub length: f64,
    /// Ray times of impact, relative to `1 + time`.
    pub ray: f64,
    /// Shape-cast times of impact (absolute; the casts last 2 units of time).
    pub cast: f64,
    /// Unit normals: `1 − cos` of the angle between them.
    pub normal: f64,
    /// Booleans are compared only where both distances exceed this.
    pub touch: f64,
}

/// f64: parry's own tolerances (its GJK and EPA stop within about 1e-7 of
/// the shapes' size; its shape casts within 1e-5 in time).
pub const F64: Tolerances = Tolerances {
    length: 1e-6,
    ray: 1e-7,
    cast: 1e-5,
    normal: 1e-6,
    touch: 1e-9,
};

/// f32: the same, scaled to single precision (about 10⁹ times the unit
/// roundoff of f64 in each: lengths of a few units carry errors of a few
/// 1e-7 in either library, parry's iterations stop within about 1e-4).
pub const F32: Tolerances = Tolerances {
    length: 5e-4,
    ray: 1e-4,
    cast: 1e-3,
    normal: 1e-3,
    touch: 1e-4,
};

/// One shape in its local frame, in plain numbers.
#[derive(Debug, Clone)]
pub enum Spec {
    Ball(f64),
    Cuboid([f64; 2]),
    /// Half length of a vertical core, radius.
    Capsule(f64, f64),
    Segment([f64; 2], [f64; 2]),
    /// Counter-clockwise.
    Triangle([[f64; 2]; 3]),
    /// Counter-clockwise, on an ellipse.
    Polygon(Vec<[f64; 2]>),
}

impl Spec {
    fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        let p = |[x, y]: [f64; 2]| [f(x), f(y)];
        match self {
            Self::Ball(r) => Self::Ball(f(*r)),
            Self::Cuboid(h) => Self::Cuboid(p(*h)),
            Self::Capsule(h, r) => Self::Capsule(f(*h), f(*r)),
            Self::Segment(a, b) => Self::Segment(p(*a), p(*b)),
            Self::Triangle(t) => Self::Triangle(t.map(p)),
            Self::Polygon(vs) => Self::Polygon(vs.iter().map(|q| p(*q)).collect()),
        }
    }
}

fn spec(rng: &mut Rng) -> Spec {
    use core::f64::consts::TAU;
    match rng.index(6) {
        0 => Spec::Ball(rng.range(0.1, 2.0)),
        1 => Spec::Cuboid([rng.range(0.1, 2.0), rng.range(0.1, 2.0)]),
        2 => Spec::Capsule(rng.range(0.05, 1.5), rng.range(0.1, 1.0)),
        3 => Spec::Segment(
            [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)],
            [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)],
        ),
        4 => loop {
            let mut t = [[0.0; 2]; 3];
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
            let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
            angles.sort_by(f64::total_cmp);
            angles.dedup_by(|a, b| (*a - *b).abs() < 0.2);
            if angles.len() < 3 || angles[0] + TAU - angles[angles.len() - 1] < 0.2 {
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

/// A shape at a pose (the rotation as its cosine and sine), every number
/// already rounded to the precision under test.
#[derive(Debug, Clone)]
pub struct Placed {
    pub spec: Spec,
    pub x: f64,
    pub y: f64,
    pub cos: f64,
    pub sin: f64,
}

fn placed(rng: &mut Rng, mode: Mode, scale: f64, round: fn(f64) -> f64) -> Placed {
    let spec = spec(rng).map(|x| round(x * scale));
    let angle = rng.range(-3.2, 3.2);
    let (x, y) = (rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
    Placed {
        spec,
        x: round(mode.offset + x * scale.sqrt()),
        y: round(mode.offset + y * scale.sqrt()),
        cos: round(angle.cos()),
        sin: round(angle.sin()),
    }
}

/// The vertices (world) and radius of a placed shape, from its spec alone.
fn outline(p: &Placed) -> (Vec<[f64; 2]>, f64) {
    let place = |[x, y]: [f64; 2]| [p.cos * x - p.sin * y + p.x, p.sin * x + p.cos * y + p.y];
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

/// The penetration depth of two overlapping convex shapes by brute force,
/// and its direction (from A to B): the least overlap of their projections
/// (A's highest point against B's lowest) over directions. The overlap as a
/// function of the direction can have several local minima, so it is
/// taken at every local minimum of a fine sampling (each narrowed by a
/// ternary search, where it is unimodal) and at the directions where the
/// least overlap of shapes with straight sides and round ends lies: each
/// side's normal, either way, and the direction between every two vertices
/// (for the round ends). In f64 whatever the precision under test.
pub fn brute_depth(a: &Placed, b: &Placed) -> (f64, [f64; 2]) {
    let ((va, _), (vb, _)) = (outline(a), outline(b));
    let overlap_along = |n: [f64; 2]| overlap_along(a, b, n);
    let overlap = |t: f64| overlap_along([t.cos(), t.sin()]);
    let mut best = (f64::MAX, [1.0, 0.0]);
    let mut consider = |n: [f64; 2]| {
        let len = n[0].hypot(n[1]);
        if len > 0.0 {
            let n = [n[0] / len, n[1] / len];
            let o = overlap_along(n);
            if o < best.0 {
                best = (o, n);
            }
        }
    };
    const SAMPLES: usize = 20_000;
    let step = core::f64::consts::TAU / SAMPLES as f64;
    let sampled: Vec<f64> = (0..SAMPLES).map(|k| overlap(k as f64 * step)).collect();
    for k in 0..SAMPLES {
        let (before, after) = (
            sampled[(k + SAMPLES - 1) % SAMPLES],
            sampled[(k + 1) % SAMPLES],
        );
        if sampled[k] > before || sampled[k] > after {
            continue;
        }
        let (mut lo, mut hi) = ((k as f64 - 1.0) * step, (k as f64 + 1.0) * step);
        for _ in 0..100 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if overlap(m1) < overlap(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let t = 0.5 * (lo + hi);
        consider([t.cos(), t.sin()]);
        consider([(k as f64 * step).cos(), (k as f64 * step).sin()]);
    }
    for vs in [&va, &vb] {
        for (i, p) in vs.iter().enumerate() {
            let q = vs[(i + 1) % vs.len()];
            let e = [q[0] - p[0], q[1] - p[1]];
            consider([e[1], -e[0]]);
            consider([-e[1], e[0]]);
        }
    }
    for p in &va {
        for q in &vb {
            consider([q[0] - p[0], q[1] - p[1]]);
            consider([p[0] - q[0], p[1] - q[1]]);
        }
    }
    best
}

/// How far A reaches past B's lowest point along the unit direction `n`:
/// the overlap of their projections on it (negative: a gap).
pub fn overlap_along(a: &Placed, b: &Placed, n: [f64; 2]) -> f64 {
    let ((va, ra), (vb, rb)) = (outline(a), outline(b));
    let dot = |q: &[f64; 2]| q[0] * n[0] + q[1] * n[1];
    let hi_a = va.iter().map(dot).fold(f64::MIN, f64::max) + ra;
    let lo_b = vb.iter().map(dot).fold(f64::MAX, f64::min) - rb;
    hi_a - lo_b
}

/// The distance between two placed shapes by brute force (0 when they
/// overlap): between their outlines' cores, the least distance of two sides
/// (zero where sides cross) or zero where a vertex of one lies inside the
/// other, less the radii.
pub fn brute_distance(a: &Placed, b: &Placed) -> f64 {
    let ((va, ra), (vb, rb)) = (outline(a), outline(b));
    let crossing = |(p, q): Side, (r, t): Side| {
        let (d1, d2) = (orient(p, q, r), orient(p, q, t));
        let (d3, d4) = (orient(r, t, p), orient(r, t, q));
        ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
            && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    };
    let mut core = f64::MAX;
    for x in sides(&va) {
        for y in sides(&vb) {
            let d = if crossing(x, y) {
                0.0
            } else {
                point_to_side(x.0, y)
                    .min(point_to_side(x.1, y))
                    .min(point_to_side(y.0, x))
                    .min(point_to_side(y.1, x))
            };
            core = core.min(d);
        }
    }
    if va.iter().any(|&p| inside(p, &vb)) || vb.iter().any(|&p| inside(p, &va)) {
        core = 0.0;
    }
    (core - ra - rb).max(0.0)
}

/// A side of an outline: its two ends.
type Side = ([f64; 2], [f64; 2]);

/// An outline's sides: a point is one side of no length, two vertices one
/// side, a polygon its closed ring.
fn sides(vs: &[[f64; 2]]) -> Vec<Side> {
    match vs.len() {
        1 => vec![(vs[0], vs[0])],
        2 => vec![(vs[0], vs[1])],
        n => (0..n).map(|i| (vs[i], vs[(i + 1) % n])).collect(),
    }
}

/// The distance from `p` to the side `(a, b)`.
fn point_to_side(p: [f64; 2], (a, b): Side) -> f64 {
    let (e, w) = ([b[0] - a[0], b[1] - a[1]], [p[0] - a[0], p[1] - a[1]]);
    let ee = e[0] * e[0] + e[1] * e[1];
    let u = if ee > 0.0 {
        ((w[0] * e[0] + w[1] * e[1]) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (w[0] - u * e[0]).hypot(w[1] - u * e[1])
}

/// Twice the signed area of `(a, b, c)`: positive when `c` is left of `a → b`.
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Whether `p` is in the counter-clockwise polygon `vs` (left of every
/// side); never for a point or a segment.
fn inside(p: [f64; 2], vs: &[[f64; 2]]) -> bool {
    vs.len() >= 3 && (0..vs.len()).all(|i| orient(vs[i], vs[(i + 1) % vs.len()], p) >= 0.0)
}

/// `p` moved by `d`.
pub fn moved(p: &Placed, d: [f64; 2]) -> Placed {
    Placed {
        x: p.x + d[0],
        y: p.y + d[1],
        ..p.clone()
    }
}

/// The signed distance from `p` to a placed shape moved by `shift` (negative
/// inside), by brute force from its outline: the distance to the nearest
/// side (or vertex), negated inside a polygon, less the radius.
pub fn signed_distance(p: [f64; 2], shape: &Placed, shift: [f64; 2]) -> f64 {
    let (vs, r) = outline(&moved(shape, shift));
    let nearest = sides(&vs)
        .into_iter()
        .map(|side| point_to_side(p, side))
        .fold(f64::MAX, f64::min);
    let d = if inside(p, &vs) { -nearest } else { nearest };
    d - r
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Per query (in [`QUERIES`] order), the cases compared.
    pub checked: [usize; 7],
    /// Per query, the disagreements.
    pub flagged: [usize; 7],
    /// Disagreements where kasanari's answer is the reference's.
    pub settled: usize,
    /// The disagreements described: every unsettled one, the first
    /// settled ones.
    pub lines: Vec<String>,
}

impl Report {
    /// The disagreements the reference does not settle in kasanari's
    /// favour.
    pub fn unexplained(&self) -> usize {
        self.flagged.iter().sum::<usize>() - self.settled
    }

    fn flag(&mut self, q: usize, settled: bool, what: String, keep: usize) {
        self.flagged[q] += 1;
        self.settled += usize::from(settled);
        // Every unsettled one (up to a thousand), the first `keep` settled.
        let kept = if settled {
            self.settled <= keep
        } else {
            self.lines.len() < 1000
        };
        if kept {
            let verdict = if settled { "settled" } else { "NOT SETTLED" };
            self.lines
                .push(format!("[{}, {verdict}] {what}", QUERIES[q]));
        }
    }
}

/// A run of `cases` random pairs in precision `$T` against `$parry` (the
/// parry crate of that precision): `$name::run(cases, seed, mode, keep)`,
/// keeping the first `keep` disagreements' descriptions.
macro_rules! peer {
    ($name:ident, $T:ty, $parry:ident, $tol:expr) => {
        pub mod $name {
            use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
            use kasanari::narrowphase::{self, ShapeCastOptions};
            use kasanari::prelude::*;
            use kasanari::shape::Ray;
            use kasanari_benches::Rng;
            use $parry::math::{Pose, Rot2, Vector};
            use $parry::query;
            use $parry::shape as ps;

            use super::{Mode, Placed, Report, Spec, Tolerances, placed};

            type T = $T;
            const TOL: Tolerances = $tol;
            /// Whether ray disagreements are settled by kasanari's f64 rays
            /// (the f32 run; the f64 run's would be the answer under test).
            const RAY_REFERENCE: bool = core::mem::size_of::<T>() == 4;

            fn round(x: f64) -> f64 {
                x as T as f64
            }

            fn l(x: f64) -> T {
                x as T
            }

            pub(super) fn ours(s: &Spec) -> Option<Box<dyn Shape<T>>> {
                let p = |[x, y]: [f64; 2]| Point2::new(l(x), l(y));
                Some(match s {
                    Spec::Ball(r) => Box::new(Circle::new(l(*r)).ok()?),
                    Spec::Cuboid([x, y]) => Box::new(Obb::new(Vector2::new(l(*x), l(*y))).ok()?),
                    Spec::Capsule(h, r) => {
                        Box::new(Capsule::new(p([0.0, -h]), p([0.0, *h]), l(*r)).ok()?)
                    }
                    Spec::Segment(a, b) => Box::new(Segment::new(p(*a), p(*b)).ok()?),
                    Spec::Triangle([a, b, c]) => {
                        Box::new(Triangle::new(p(*a), p(*b), p(*c)).ok()?)
                    }
                    Spec::Polygon(vs) => {
                        let vs: Vec<Point2<T>> = vs.iter().map(|q| p(*q)).collect();
                        Box::new(ConvexPolygon::new(&vs).ok()?)
                    }
                })
            }

            fn v([x, y]: [f64; 2]) -> Vector {
                Vector::new(l(x), l(y))
            }

            fn theirs(s: &Spec) -> Option<Box<dyn ps::Shape>> {
                Some(match s {
                    Spec::Ball(r) => Box::new(ps::Ball::new(l(*r))),
                    Spec::Cuboid(h) => Box::new(ps::Cuboid::new(v(*h))),
                    Spec::Capsule(h, r) => {
                        Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, *h]), l(*r)))
                    }
                    Spec::Segment(a, b) => Box::new(ps::Segment::new(v(*a), v(*b))),
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
                    Spec::Polygon(vs) => Box::new(ps::ConvexPolygon::from_convex_polyline(
                        vs.iter().map(|q| v(*q)).collect(),
                    )?),
                })
            }

            pub(super) fn pose_ours(p: &Placed) -> Isometry2<T> {
                Isometry2::from_parts(
                    Translation2::new(l(p.x), l(p.y)),
                    UnitComplex::from_cos_sin_unchecked(l(p.cos), l(p.sin)),
                )
            }

            fn pose_theirs(p: &Placed) -> Pose {
                Pose::from_parts(v([p.x, p.y]), Rot2::from_cos_sin_unchecked(l(p.cos), l(p.sin)))
            }

            fn f(x: T) -> f64 {
                f64::from(x)
            }

            /// See the macro's notes.
            pub fn run(cases: usize, seed: u64, mode: Mode, keep: usize) -> Report {
                let mut rng = Rng::new(seed);
                let mut report = Report::default();
                for case in 0..cases {
                    let a = placed(&mut rng, mode, 1.0, round);
                    let b = placed(&mut rng, mode, mode.scale_b, round);
                    let (Some(oa), Some(ob), Some(ta), Some(tb)) =
                        (ours(&a.spec), ours(&b.spec), theirs(&a.spec), theirs(&b.spec))
                    else {
                        continue;
                    };
                    let (pa, pb, qa, qb) = (pose_ours(&a), pose_ours(&b), pose_theirs(&a), pose_theirs(&b));
                    let label = || format!("case {case}: {a:?} vs {b:?}");
                    one_case(&mut rng, &mut report, keep, mode, (&a, &*oa, &pa, &*ta, &qa), (&b, &*ob, &pb, &*tb, &qb), &label);
                }
                report
            }

            type Side<'s> = (&'s Placed, &'s dyn Shape<T>, &'s Isometry2<T>, &'s dyn ps::Shape, &'s Pose);

            fn cos(x: [f64; 2], y: [f64; 2]) -> f64 {
                x[0] * y[0] + x[1] * y[1]
            }

            #[allow(clippy::too_many_lines)] // one comparison after another
            fn one_case(
                rng: &mut Rng,
                report: &mut Report,
                keep: usize,
                mode: Mode,
                (a, oa, pa, ta, qa): Side<'_>,
                (b, ob, pb, tb, qb): Side<'_>,
                label: &dyn Fn() -> String,
            ) {
                // What rounding the coordinates' magnitude allows on top of
                // the tolerances: a few units of roundoff of the largest.
                let slack = 8.0 * f64::from(T::EPSILON) * (mode.offset.abs() + 10.0 * mode.scale_b);
                let len_tol = |x: f64| TOL.length * (1.0 + x.abs()) + slack;

                // Distance first: the other comparisons skip touching cases.
                let d_ours = f(narrowphase::distance(oa, pa, ob, pb).unwrap());
                let d_theirs = f(query::distance(qa, ta, qb, tb).unwrap().distance);
                report.checked[1] += 1;
                if (d_ours - d_theirs).abs() > len_tol(d_theirs) {
                    let r = super::brute_distance(a, b);
                    let right = (d_ours - r).abs() <= len_tol(r);
                    report.flag(1, right, format!("{}: ours {d_ours:e}, parry {d_theirs:e}, brute force {r:e}", label()), keep);
                }

                // The closest points: each on its shape's boundary, as far
                // apart as the distance, the normal along them.
                if d_ours > 10.0 * len_tol(0.0) {
                    report.checked[5] += 1;
                    if let narrowphase::ClosestPoints::WithinMargin { point_a, point_b, normal, distance } =
                        narrowphase::closest_points(oa, pa, ob, pb, T::INFINITY).unwrap()
                    {
                        let (qa_, qb_) = ([f(point_a.x), f(point_a.y)], [f(point_b.x), f(point_b.y)]);
                        let (sa, sb) = (super::signed_distance(qa_, a, [0.0; 2]), super::signed_distance(qb_, b, [0.0; 2]));
                        let gap = [qb_[0] - qa_[0], qb_[1] - qa_[1]];
                        let len = gap[0].hypot(gap[1]);
                        let along = cos([f(normal.x), f(normal.y)], [gap[0] / len, gap[1] / len]);
                        if sa.abs() > len_tol(0.0)
                            || sb.abs() > len_tol(0.0)
                            || (len - f(distance)).abs() > len_tol(len)
                            || along < 1.0 - TOL.normal
                        {
                            report.flag(
                                5,
                                false,
                                format!("{}: points {qa_:?} (off A by {sa:e}) and {qb_:?} (off B by {sb:e}), {len:e} apart for a distance {}, normal along them {along}", label(), f(distance)),
                                keep,
                            );
                        }
                    } else {
                        report.flag(5, false, format!("{}: apart by {d_ours:e} but no closest points", label()), keep);
                    }
                }
                let i_ours = narrowphase::intersects(oa, pa, ob, pb).unwrap();
                let i_theirs = query::intersection_test(qa, ta, qb, tb).unwrap().intersecting;
                let c_ours = narrowphase::contact(oa, pa, ob, pb).unwrap();
                // Touching within rounding, either answer is right.
                let near = d_ours.max(d_theirs) <= TOL.touch + slack
                    && c_ours.map_or(true, |c| f(c.depth) <= TOL.touch + slack);
                if !near {
                    report.checked[0] += 1;
                    if i_ours != i_theirs {
                        // The reference: apart, overlapping, or touching
                        // within rounding (either answer right).
                        // Apart, overlapping, or touching within rounding
                        // (then either answer is right).
                        let right = if super::brute_distance(a, b) > TOL.touch + slack {
                            !i_ours
                        } else {
                            super::brute_depth(a, b).0 <= TOL.touch + slack || i_ours
                        };
                        report.flag(
                            0,
                            right,
                            format!("{}: ours {i_ours}, parry {i_theirs} (distance {d_ours:e})", label()),
                            keep,
                        );
                    }
                }

                let c_theirs = query::contact(qa, ta, qb, tb, 0.0).unwrap();
                if let (Some(c), Some(k)) = (c_ours, c_theirs) {
                    let depth = -f(k.dist);
                    if depth > 10.0 * (TOL.touch + slack) {
                        report.checked[2] += 1;
                        let ours_depth = f(c.depth);
                        let (n_ours, n_theirs) = ([f(c.normal.x), f(c.normal.y)], [f(k.normal1.x), f(k.normal1.y)]);
                        if (ours_depth - depth).abs() > len_tol(depth) || cos(n_ours, n_theirs) < 1.0 - TOL.normal {
                            // Right: the least overlap, along a direction
                            // that gives it (two may, within rounding).
                            let (brute, dir) = super::brute_depth(a, b);
                            let right = (ours_depth - brute).abs() <= len_tol(brute)
                                && super::overlap_along(a, b, n_ours) <= brute + len_tol(brute);
                            report.flag(
                                2,
                                right,
                                format!(
                                    "{}: depth ours {ours_depth:e}, parry {depth:e}, brute force {brute:e}; normals ours {n_ours:?}, parry {n_theirs:?}, brute force {dir:?}",
                                    label()
                                ),
                                keep,
                            );
                        }
                    }
                }

                // A ray from far out towards near B's centre.
                let o = [round(mode.offset + rng.range(-8.0, 8.0)), round(mode.offset + rng.range(-8.0, 8.0))];
                let at = [b.x + rng.range(-1.0, 1.0), b.y + rng.range(-1.0, 1.0)];
                let dir = [round(at[0] - o[0]), round(at[1] - o[1])];
                let speed = dir[0].hypot(dir[1]);
                if speed > 1e-3 {
                    let ray = Ray::new(Point2::new(l(o[0]), l(o[1])), Vector2::new(l(dir[0]), l(dir[1])));
                    let r_ours = narrowphase::cast_ray(ob, pb, &ray, T::INFINITY, true)
                        .unwrap()
                        .map(|h| (f(h.toi), [f(h.normal.x), f(h.normal.y)]));
                    let r_theirs = tb
                        .cast_ray_and_get_normal(qb, &query::Ray::new(v(o), v(dir)), T::MAX, true)
                        .map(|k| (f(k.time_of_impact), [f(k.normal.x), f(k.normal.y)]));
                    report.checked[3] += 1;
                    let t_tol = |t: f64| TOL.ray * (1.0 + t) + slack / speed;
                    let same = |x: Option<(f64, [f64; 2])>, y: Option<(f64, [f64; 2])>| match (x, y) {
                        (Some((s, m)), Some((t, n))) => (s - t).abs() <= t_tol(t) && (cos(m, n) >= 1.0 - TOL.normal || s <= 0.0),
                        (None, None) => true,
                        _ => false,
                    };
                    if !same(r_ours, r_theirs) {
                        // (Only the f32 run has a reference: the f64 run's
                        // would be the answer under test.)
                        let r = if RAY_REFERENCE { super::reference::ray(b, o, dir) } else { None };
                        // A graze: a hit where the reference misses, on the
                        // shape's boundary to the tolerance (an f32 ray 1e-5
                        // from a vertex 60 from the origin, three ulps).
                        let graze = match (r_ours, r) {
                            (Some((t, _)), None) => {
                                let p = [o[0] + t * dir[0], o[1] + t * dir[1]];
                                super::signed_distance(p, b, [0.0; 2]).abs() <= len_tol(0.0)
                            }
                            _ => false,
                        };
                        let right = RAY_REFERENCE && (same(r_ours, r) || graze);
                        report.flag(
                            3,
                            right,
                            format!("{} ray {o:?} dir {dir:?}: ours {r_ours:?}, parry {r_theirs:?}, reference {r:?}", label()),
                            keep,
                        );
                    }
                }

                // A linear cast: A flies towards B from farther out.
                if d_ours > 1e-3 && d_theirs > 1e-3 {
                    let vel = [round(b.x - a.x + rng.range(-1.0, 1.0)), round(b.y - a.y + rng.range(-1.0, 1.0))];
                    let max_toi = 2.0;
                    let h_ours = narrowphase::cast_shapes(
                        oa,
                        pa,
                        &Vector2::new(l(vel[0]), l(vel[1])),
                        ob,
                        pb,
                        &Vector2::zeros(),
                        l(max_toi),
                        ShapeCastOptions::default(),
                    )
                    .unwrap();
                    // The witness points: each on its shape at the time of
                    // impact (A moved by `vel · toi`), the two together.
                    if let Some(h) = &h_ours {
                        report.checked[6] += 1;
                        let t = f(h.toi);
                        let (wa, wb) = ([f(h.point_a.x), f(h.point_a.y)], [f(h.point_b.x), f(h.point_b.y)]);
                        let sa = super::signed_distance(wa, a, [vel[0] * t, vel[1] * t]);
                        let sb = super::signed_distance(wb, b, [0.0; 2]);
                        let apart = (wb[0] - wa[0]).hypot(wb[1] - wa[1]);
                        // The motion's rounding scales with its length.
                        let tol = len_tol(0.0) + TOL.length * vel[0].hypot(vel[1]) * t;
                        if sa.abs() > tol || sb.abs() > tol || apart > tol {
                            report.flag(
                                6,
                                false,
                                format!("{} vel {vel:?}: at toi {t:e} the witnesses {wa:?} (off A by {sa:e}) and {wb:?} (off B by {sb:e}) are {apart:e} apart", label()),
                                keep,
                            );
                        }
                    }
                    let h_ours = h_ours.map(|h| f(h.toi));
                    let h_theirs = query::cast_shapes(
                        qa,
                        v(vel),
                        ta,
                        qb,
                        v([0.0, 0.0]),
                        tb,
                        query::ShapeCastOptions::with_max_time_of_impact(l(max_toi)),
                    )
                    .unwrap()
                    .map(|k| f(k.time_of_impact));
                    report.checked[4] += 1;
                    let speed = vel[0].hypot(vel[1]).max(1e-3);
                    let same = |x: Option<f64>, y: Option<f64>| match (x, y) {
                        (Some(s), Some(t)) => (s - t).abs() <= TOL.cast + slack / speed,
                        (None, None) => true,
                        _ => false,
                    };
                    if !same(h_ours, h_theirs) {
                        // A time is right when A, moved to it, touches B
                        // (apart and overlapping by no more than the
                        // tolerance): the first touch, neither early nor
                        // late. A miss is right when the other's hit is not
                        // a touch, or only a graze.
                        let tol = len_tol(0.0) + TOL.length * speed * max_toi;
                        let at = |t: f64| super::moved(a, [vel[0] * t, vel[1] * t]);
                        let touching = |t: f64| {
                            let m = at(t);
                            super::brute_distance(&m, b) <= tol && super::brute_depth(&m, b).0 <= tol
                        };
                        let settled = match (h_ours, h_theirs) {
                            (Some(t), _) => touching(t),
                            (None, Some(t)) => {
                                let m = at(t);
                                super::brute_distance(&m, b) > 0.0 || super::brute_depth(&m, b).0 <= tol
                            }
                            (None, None) => true,
                        };
                        report.flag(
                            4,
                            settled,
                            format!("{} vel {vel:?}: ours {h_ours:?}, parry {h_theirs:?}", label()),
                            keep,
                        );
                    }
                }
            }
        }
    };
}

/// kasanari's f64 ray cast on the same (rounded) inputs: the reference
/// that settles an f32 ray disagreement (the f64 rays are themselves
/// compared with parry's by the f64 runs).
mod reference {
    use kasanari::nalgebra::{Point2, Vector2};
    use kasanari::narrowphase;
    use kasanari::shape::Ray;

    use super::Placed;
    use super::f64_run::{ours, pose_ours};

    pub fn ray(b: &Placed, o: [f64; 2], dir: [f64; 2]) -> Option<(f64, [f64; 2])> {
        let ob = ours(&b.spec).unwrap();
        let ray = Ray::new(Point2::new(o[0], o[1]), Vector2::new(dir[0], dir[1]));
        narrowphase::cast_ray(&*ob, &pose_ours(b), &ray, f64::INFINITY, true)
            .unwrap()
            .map(|h| (h.toi, [h.normal.x, h.normal.y]))
    }
}

peer!(f32_run, f32, parry2d, super::F32);
peer!(f64_run, f64, parry2d_f64, super::F64);
