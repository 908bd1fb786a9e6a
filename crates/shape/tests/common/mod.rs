//! Shared test support: shape parameters drawn in f64, builders for either
//! precision, and slow independent references computed in f64 (dense boundary
//! samples, brute-force projections).

#![allow(dead_code)]

use std::f64::consts::PI;

use nalgebra::{Isometry2, Point2, Vector2};
use proptest::prelude::*;
use shape::prelude::*;

/// A built-in 2D shape described by f64 parameters (always valid).
#[derive(Debug, Clone)]
pub enum Spec {
    Point(f64, f64),
    Segment([f64; 2], [f64; 2]),
    Circle(f64),
    Aabb([f64; 2], [f64; 2]),
    Obb(f64, f64),
    Triangle([[f64; 2]; 3]),
    Polygon(Vec<[f64; 2]>),
    Capsule([f64; 2], [f64; 2], f64),
    Ellipse(f64, f64),
    /// A convex polygon's vertices (counter-clockwise) and a radius.
    RoundedPolygon(Vec<[f64; 2]>, f64),
}

/// Samples per unit of turn for curved boundaries.
pub const CURVE_SAMPLES: usize = 512;

fn size() -> impl Strategy<Value = f64> {
    // Mixed scales: most around 1, some tiny, some large.
    prop_oneof![4 => 0.05f64..5.0, 1 => 0.01f64..0.05, 1 => 5.0f64..50.0]
}

fn coord() -> impl Strategy<Value = f64> {
    -5.0f64..5.0
}

fn local_point() -> impl Strategy<Value = [f64; 2]> {
    [coord(), coord()]
}

/// A convex polygon: 3 to 12 points on an ellipse-like curve at increasing
/// angles, with random gaps (so the polygon is convex and not regular).
fn polygon() -> impl Strategy<Value = Vec<[f64; 2]>> {
    (
        prop::collection::vec(0.2f64..1.0, 3..12),
        size(),
        0.3f64..1.0,
        -PI..PI,
    )
        .prop_map(|(gaps, r, squash, phase)| {
            let total: f64 = gaps.iter().sum();
            let mut a = phase;
            gaps.iter()
                .map(|g| {
                    let p = [r * a.cos(), r * squash * a.sin()];
                    a += 2.0 * PI * g / total;
                    p
                })
                .collect()
        })
}

/// The built-in 2D kinds in canonical order, as `Spec` indices.
pub const KINDS: usize = 10;

/// A random valid shape of kind `k` (0 = point, ..., 8 = ellipse, 9 =
/// rounded polygon).
pub fn spec_of(k: usize) -> BoxedStrategy<Spec> {
    match k {
        0 => local_point().prop_map(|p| Spec::Point(p[0], p[1])).boxed(),
        1 => (local_point(), local_point())
            .prop_filter("distinct", |(a, b)| dist(*a, *b) > 1e-3)
            .prop_map(|(a, b)| Spec::Segment(a, b))
            .boxed(),
        2 => size().prop_map(Spec::Circle).boxed(),
        3 => (local_point(), size(), size())
            .prop_map(|(m, w, h)| Spec::Aabb(m, [m[0] + w, m[1] + h]))
            .boxed(),
        4 => (size(), size()).prop_map(|(x, y)| Spec::Obb(x, y)).boxed(),
        5 => [local_point(), local_point(), local_point()]
            .prop_filter("non-degenerate", |t| tri_area(t).abs() > 1e-2)
            .prop_map(Spec::Triangle)
            .boxed(),
        6 => polygon()
            .prop_filter("valid", |p| {
                ConvexPolygon::<f32>::new(&to_points(p)).is_ok()
            })
            .prop_map(Spec::Polygon)
            .boxed(),
        7 => (local_point(), local_point(), size())
            .prop_filter("distinct", |(a, b, _)| dist(*a, *b) > 1e-3)
            .prop_map(|(a, b, r)| Spec::Capsule(a, b, r))
            .boxed(),
        9 => prop_oneof![
            // A rounded polygon: any polygon of the generator, any radius.
            (polygon(), size())
                .prop_filter("valid", |(p, _)| {
                    ConvexPolygon::<f32>::new(&to_points(p)).is_ok()
                })
                .prop_map(|(p, r)| Spec::RoundedPolygon(p, r)),
            // A rounded box: outer half extents and a radius below both.
            (size(), size(), 0.05f64..0.95).prop_map(|(w, h, k)| {
                let r = w.min(h) * k;
                let (x, y) = (w - r, h - r);
                Spec::RoundedPolygon(vec![[-x, -y], [x, -y], [x, y], [-x, y]], r)
            }),
        ]
        .boxed(),
        _ => (size(), 0.1f64..1.0, any::<bool>())
            .prop_map(|(a, k, swap)| {
                if swap {
                    Spec::Ellipse(a * k, a)
                } else {
                    Spec::Ellipse(a, a * k)
                }
            })
            .boxed(),
    }
}

/// A random valid shape of any kind.
pub fn spec() -> impl Strategy<Value = Spec> {
    (0..KINDS).prop_flat_map(spec_of)
}

/// A random pair of shapes, the kinds drawn uniformly among the 45 unordered
/// pairs (then in either order).
pub fn spec_pair() -> impl Strategy<Value = (Spec, Spec)> {
    (0..KINDS, 0..KINDS).prop_flat_map(|(i, j)| (spec_of(i), spec_of(j)))
}

/// A pose with translation in `[-range, range]²` and any angle.
pub fn pose(range: f64) -> impl Strategy<Value = [f64; 3]> {
    (-range..range, -range..range, -PI..PI).prop_map(|(x, y, a)| [x, y, a])
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn tri_area(t: &[[f64; 2]; 3]) -> f64 {
    0.5 * ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]))
}

fn to_points<T: Real>(p: &[[f64; 2]]) -> Vec<Point2<T>> {
    p.iter().map(|q| pt(*q)).collect()
}

pub fn pt<T: Real>(p: [f64; 2]) -> Point2<T> {
    Point2::new(T::lit(p[0]), T::lit(p[1]))
}

pub fn iso<T: Real>(p: [f64; 3]) -> Isometry2<T> {
    Isometry2::new(Vector2::new(T::lit(p[0]), T::lit(p[1])), T::lit(p[2]))
}

/// Builds the shape in precision `T`.
pub fn build<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
    match s {
        Spec::Point(x, y) => Box::new(Point::new(pt([*x, *y])).unwrap()),
        Spec::Segment(a, b) => Box::new(Segment::new(pt(*a), pt(*b)).unwrap()),
        Spec::Circle(r) => Box::new(Circle::new(T::lit(*r)).unwrap()),
        Spec::Aabb(a, b) => Box::new(Aabb::new(pt(*a), pt(*b)).unwrap()),
        Spec::Obb(x, y) => Box::new(Obb::new(Vector2::new(T::lit(*x), T::lit(*y))).unwrap()),
        Spec::Triangle(t) => Box::new(Triangle::new(pt(t[0]), pt(t[1]), pt(t[2])).unwrap()),
        Spec::Polygon(p) => Box::new(ConvexPolygon::new(&to_points::<T>(p)).unwrap()),
        Spec::Capsule(a, b, r) => Box::new(Capsule::new(pt(*a), pt(*b), T::lit(*r)).unwrap()),
        Spec::Ellipse(a, b) => {
            Box::new(Ellipse::new(Vector2::new(T::lit(*a), T::lit(*b))).unwrap())
        }
        Spec::RoundedPolygon(p, r) => {
            Box::new(RoundedPolygon::new(&to_points::<T>(p), T::lit(*r)).unwrap())
        }
    }
}

/// The largest distance of the shape from its local origin: a scale for
/// tolerances.
pub fn extent(s: &Spec) -> f64 {
    local_boundary(s)
        .iter()
        .map(|p| (p[0] * p[0] + p[1] * p[1]).sqrt())
        .fold(0.0, f64::max)
}

/// Whether the shape's boundary is curved somewhere (sampling then approximates).
pub fn is_curved(s: &Spec) -> bool {
    matches!(
        s,
        Spec::Circle(_) | Spec::Capsule(..) | Spec::Ellipse(..) | Spec::RoundedPolygon(..)
    )
}

/// The largest distance between the true boundary and the sampled polygon.
pub fn sampling_error(s: &Spec) -> f64 {
    let r = match s {
        Spec::Circle(r) | Spec::Capsule(_, _, r) | Spec::RoundedPolygon(_, r) => *r,
        Spec::Ellipse(a, b) => a.max(*b) * a.max(*b) / a.min(*b),
        _ => 0.0,
    };
    r * (1.0 - (PI / CURVE_SAMPLES as f64).cos()) * 1.01
}

/// Points of the boundary in the local frame, computed from the parameters alone
/// (vertices exactly; curves at CURVE_SAMPLES angles).
pub fn local_boundary(s: &Spec) -> Vec<[f64; 2]> {
    let circle = |c: [f64; 2], r: f64| -> Vec<[f64; 2]> {
        (0..CURVE_SAMPLES)
            .map(|k| {
                let a = 2.0 * PI * k as f64 / CURVE_SAMPLES as f64;
                [c[0] + r * a.cos(), c[1] + r * a.sin()]
            })
            .collect()
    };
    match s {
        Spec::Point(x, y) => vec![[*x, *y]],
        Spec::Segment(a, b) => (0..=16).map(|k| lerp(*a, *b, k as f64 / 16.0)).collect(),
        Spec::Circle(r) => circle([0.0, 0.0], *r),
        Spec::Aabb(a, b) => vec![*a, [b[0], a[1]], *b, [a[0], b[1]]],
        Spec::Obb(x, y) => vec![[-x, -y], [*x, -y], [*x, *y], [-x, *y]],
        Spec::Triangle(t) => t.to_vec(),
        Spec::Polygon(p) => p.clone(),
        Spec::Capsule(a, b, r) => {
            let mut v = circle(*a, *r);
            v.extend(circle(*b, *r));
            v
        }
        Spec::Ellipse(a, b) => circle([0.0, 0.0], 1.0)
            .into_iter()
            .map(|p| [a * p[0], b * p[1]])
            .collect(),
        Spec::RoundedPolygon(p, r) => rounded_boundary(p, *r),
    }
}

/// The boundary of a counter-clockwise polygon grown by `r`, in order: at
/// each vertex the arc from the previous edge's outward normal to the next
/// edge's, sampled at CURVE_SAMPLES per turn with both ends (the offset
/// edges are the chords between consecutive arcs).
fn rounded_boundary(p: &[[f64; 2]], r: f64) -> Vec<[f64; 2]> {
    let n = p.len();
    let normal_angle = |i: usize| {
        let (a, b) = (p[i], p[(i + 1) % n]);
        (a[0] - b[0]).atan2(b[1] - a[1])
    };
    let mut out = Vec::new();
    for (i, v) in p.iter().enumerate() {
        let from = normal_angle((i + n - 1) % n);
        let mut to = normal_angle(i);
        if to < from {
            to += 2.0 * PI;
        }
        let steps = (((to - from) / (2.0 * PI)) * CURVE_SAMPLES as f64).ceil() as usize;
        for k in 0..=steps.max(1) {
            let a = from + (to - from) * k as f64 / steps.max(1) as f64;
            out.push([v[0] + r * a.cos(), v[1] + r * a.sin()]);
        }
    }
    out
}

fn lerp(a: [f64; 2], b: [f64; 2], t: f64) -> [f64; 2] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// `local_boundary` placed at the pose, in f64. An Aabb ignores the rotation.
pub fn world_boundary(s: &Spec, pose: [f64; 3]) -> Vec<[f64; 2]> {
    let angle = if matches!(s, Spec::Aabb(..)) {
        0.0
    } else {
        pose[2]
    };
    let (sn, cs) = angle.sin_cos();
    local_boundary(s)
        .into_iter()
        .map(|p| {
            [
                cs * p[0] - sn * p[1] + pose[0],
                sn * p[0] + cs * p[1] + pose[1],
            ]
        })
        .collect()
}

/// Slow containment reference in f64: the signed distance from `p` (world) to
/// the shape's boundary, negative inside, computed from the parameters by a
/// method independent of the shapes' code (inverse rotation by hand, then
/// distances to sampled or exact geometry).
pub fn signed_distance(s: &Spec, pose: [f64; 3], p: [f64; 2]) -> f64 {
    let angle = if matches!(s, Spec::Aabb(..)) {
        0.0
    } else {
        pose[2]
    };
    let (sn, cs) = angle.sin_cos();
    let d = [p[0] - pose[0], p[1] - pose[1]];
    let q = [cs * d[0] + sn * d[1], -sn * d[0] + cs * d[1]];
    let seg_dist = |a: [f64; 2], b: [f64; 2]| -> f64 {
        let ab = [b[0] - a[0], b[1] - a[1]];
        let t = (((q[0] - a[0]) * ab[0] + (q[1] - a[1]) * ab[1]) / (ab[0] * ab[0] + ab[1] * ab[1]))
            .clamp(0.0, 1.0);
        dist(q, lerp(a, b, t))
    };
    let poly = |v: &[[f64; 2]]| -> f64 {
        let n = v.len();
        let edge = (0..n)
            .map(|i| seg_dist(v[i], v[(i + 1) % n]))
            .fold(f64::INFINITY, f64::min);
        // Crossing-number parity: independent of orientation and of cross products.
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (v[i], v[(i + 1) % n]);
            if (a[1] > q[1]) != (b[1] > q[1])
                && q[0] < a[0] + (q[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            {
                inside = !inside;
            }
        }
        if inside { -edge } else { edge }
    };
    match s {
        Spec::Point(x, y) => dist(q, [*x, *y]),
        Spec::Segment(a, b) => seg_dist(*a, *b),
        Spec::Circle(r) => dist(q, [0.0, 0.0]) - r,
        Spec::Capsule(a, b, r) => seg_dist(*a, *b) - r,
        // The signed distance of a convex set grown by `r` is the set's
        // minus `r` (inside the core too).
        Spec::RoundedPolygon(v, r) => poly(v) - r,
        Spec::Ellipse(a, b) => {
            // Dense polygonal approximation; callers keep a margin above the
            // sampling error.
            poly(&local_boundary(&Spec::Ellipse(*a, *b)))
        }
        _ => poly(&local_boundary(s)),
    }
}

/// Tolerance for values of magnitude `scale` computed in `T` and compared with
/// an f64 reference: `8 × 256 ε × scale` (f32 ≈ 2.4e-4 · scale, f64 ≈ 4.5e-13 · scale).
pub fn reference_tolerance<T: Real>(scale: f64) -> f64 {
    shape::testing::test_tolerance::<T>(T::lit(scale)).as_f64() * 8.0
}

/// Brute force: the overlap of the sampled projections on direction `d`.
pub fn sampled_overlap(a: &[[f64; 2]], b: &[[f64; 2]], d: [f64; 2]) -> f64 {
    let proj = |w: &[[f64; 2]]| {
        w.iter()
            .map(|p| p[0] * d[0] + p[1] * d[1])
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let (a0, a1) = proj(a);
    let (b0, b1) = proj(b);
    (a1 - b0).min(b1 - a0)
}

pub const DIRECTIONS: usize = 4096;

/// The minimum sampled overlap over DIRECTIONS uniform directions, the
/// shapes' exact edge normals, and `extra`.
pub fn reference_min_overlap(
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    pb: [f64; 3],
    extra: Option<[f64; 2]>,
) -> f64 {
    let (a, b) = (world_boundary(sa, pa), world_boundary(sb, pb));
    let mut dirs: Vec<[f64; 2]> = (0..DIRECTIONS)
        .map(|k| {
            let t = PI * k as f64 / DIRECTIONS as f64;
            [t.cos(), t.sin()]
        })
        .collect();
    for (s, w, pose) in [(sa, &a, pa), (sb, &b, pb)] {
        // A capsule's flat sides: their normal is exact, not sampled (near a
        // flat side the overlap varies linearly with the angle, so the uniform
        // directions alone could miss the minimum by length × step).
        if let Spec::Capsule(p, q, _) = s {
            let (sn, cs) = pose[2].sin_cos();
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            let (dx, dy) = (cs * dx - sn * dy, sn * dx + cs * dy);
            let n = (dx * dx + dy * dy).sqrt();
            if n > 0.0 {
                dirs.push([dy / n, -dx / n]);
            }
        }
        // A rounded polygon's flat sides likewise: its core's edge normals.
        if let Spec::RoundedPolygon(v, _) = s {
            let (sn, cs) = pose[2].sin_cos();
            for i in 0..v.len() {
                let (p, q) = (v[i], v[(i + 1) % v.len()]);
                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                let (dx, dy) = (cs * dx - sn * dy, sn * dx + cs * dy);
                let n = (dx * dx + dy * dy).sqrt();
                if n > 0.0 {
                    dirs.push([dy / n, -dx / n]);
                }
            }
        }
        if !is_curved(s) && w.len() >= 2 {
            for i in 0..w.len() {
                let (p, q) = (w[i], w[(i + 1) % w.len()]);
                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                let n = (dx * dx + dy * dy).sqrt();
                if n > 0.0 {
                    dirs.push([dy / n, -dx / n]);
                    dirs.push([dx / n, dy / n]);
                }
            }
        }
    }
    dirs.extend(extra);
    dirs.into_iter()
        .map(|d| sampled_overlap(&a, &b, d))
        .fold(f64::INFINITY, f64::min)
}

/// How far the reference may be from the truth: sampling of curves, the
/// angular step on curved minima, and rounding in `T`.
pub fn slack<T: Real>(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3]) -> f64 {
    let scale =
        extent(sa) + extent(sb) + pa[0].abs() + pa[1].abs() + pb[0].abs() + pb[1].abs() + 1.0;
    let step = PI / DIRECTIONS as f64;
    let curved = if is_curved(sa) || is_curved(sb) {
        (extent(sa) + extent(sb)) * step * step
    } else {
        0.0
    };
    sampling_error(sa) + sampling_error(sb) + curved + reference_tolerance::<T>(scale)
}

/// The rigid motion `m = [x, y, angle]` as a map on poses, for invariance
/// tests. An `Aabb` does not turn with its pose, so a rotation is not a
/// symmetry of a pair with one: for such pairs the motion keeps only its
/// translation.
pub fn rigid_motion_for(sa: &Spec, sb: &Spec, m: [f64; 3]) -> impl Fn([f64; 3]) -> [f64; 3] {
    let angle = if matches!(sa, Spec::Aabb(..)) || matches!(sb, Spec::Aabb(..)) {
        0.0
    } else {
        m[2]
    };
    let (s, c) = angle.sin_cos();
    move |p: [f64; 3]| {
        [
            c * p[0] - s * p[1] + m[0],
            s * p[0] + c * p[1] + m[1],
            p[2] + angle,
        ]
    }
}

/// The largest offset the far-from-origin tests try in precision `T`: 1e5 for
/// f32, 1e12 for f64 (`docs/conventions.md`, "Far from the origin").
pub fn max_offset<T: Real>() -> f64 {
    if T::epsilon().as_f64() > 1e-10 {
        1e5
    } else {
        1e12
    }
}

/// The spacing of `T`'s floats at magnitude `m` (one ulp, at least that of 1).
pub fn spacing<T: Real>(m: f64) -> f64 {
    2f64.powf(m.abs().max(1.0).log2().floor()) * T::epsilon().as_f64()
}
