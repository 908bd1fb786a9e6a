//! Support shared by the file tests: shapes of `common` written as a file
//! would hold them, and the hostile numbers.

#![allow(dead_code)]

use super::common::Spec;
use kasanari::scene::ShapeSpec;

/// Hostile numbers as JSON tokens: beyond f32 (1e39, 1e308), ±MAX, -0,
/// subnormals, and beyond f64 (1e309, a JSON error: JSON holds no NaN or
/// infinity).
pub const TOKENS: [&str; 13] = [
    "1e308",
    "-1e308",
    "1.7976931348623157e308",
    "-1.7976931348623157e308",
    "1e39",
    "3.4028235e38",
    "-0",
    "0",
    "5e-324",
    "-5e-324",
    "1e-310",
    "1e309",
    "-1e309",
];

/// The shape `s` at `pose`, shifted by `o`, described in world coordinates as a
/// file would (in f64).
pub fn world_spec(s: &Spec, pose: [f64; 3], o: [f64; 2]) -> ShapeSpec {
    let angle = if matches!(s, Spec::Aabb(..)) {
        0.0
    } else {
        pose[2]
    };
    let (sn, cs) = angle.sin_cos();
    let at = |p: [f64; 2]| {
        [
            cs * p[0] - sn * p[1] + pose[0] + o[0],
            sn * p[0] + cs * p[1] + pose[1] + o[1],
        ]
    };
    let centre = [pose[0] + o[0], pose[1] + o[1]];
    match s {
        Spec::Point(x, y) => ShapeSpec::Point { p: at([*x, *y]) },
        Spec::Segment(a, b) => ShapeSpec::Segment {
            a: at(*a),
            b: at(*b),
        },
        Spec::Circle(r) => ShapeSpec::Circle {
            center: centre,
            radius: *r,
        },
        Spec::Aabb(a, b) => ShapeSpec::Aabb {
            min: at(*a),
            max: at(*b),
        },
        Spec::Obb(x, y) => ShapeSpec::Obb {
            center: centre,
            half_extents: [*x, *y],
            angle,
        },
        Spec::Triangle(t) => ShapeSpec::Triangle {
            vertices: t.map(at),
        },
        Spec::Polygon(v) => ShapeSpec::Polygon {
            vertices: v.iter().map(|p| at(*p)).collect(),
        },
        Spec::Capsule(a, b, r) => ShapeSpec::Capsule {
            a: at(*a),
            b: at(*b),
            radius: *r,
        },
        Spec::Ellipse(a, b) => ShapeSpec::Ellipse {
            center: centre,
            radii: [*a, *b],
            angle,
        },
        Spec::RoundedPolygon(v, r) => ShapeSpec::RoundedPolygon {
            vertices: v.iter().map(|p| at(*p)).collect(),
            radius: *r,
        },
    }
}
