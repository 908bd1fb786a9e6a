//! Big convex polygons (17 to 5,000 vertices, and regular 100,000-gons):
//! the linear-time paths of the core kernel (`sat/linear.rs`: extremes
//! climbed to along turning normals, the walk round the Minkowski
//! difference) and of the ellipse kernel, through the table, against slow
//! independent references computed in f64 on the very vertices and poses the
//! kernels see:
//!
//! - the cores' distance by brute force over every (vertex, edge) pair, and
//!   whether they meet by vertex containment and edge crossings;
//! - the cores' penetration depth as the least two-sided overlap over every
//!   candidate axis (both polygons' edge normals, a segment's normal);
//!
//! then the boolean, the contact's depth (and that the shapes overlap by
//! that depth along its normal), the distance and the closest points, exact
//! symmetry, invariance under a rigid motion, both precisions; and known
//! values for regular 100,000-gons (circumradius and inradius).

use std::f64::consts::{PI, TAU};

use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::{ClosestPoints, Contact};
use proptest::prelude::*;
use shape::prelude::*;
use shape::testing::{cases, test_tolerance};

type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}
fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}
fn norm(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// A core in the world frame, in f64: a point, a segment, or a
/// counter-clockwise convex polygon; and the radius it is grown by.
#[derive(Debug, Clone)]
struct Core {
    v: Vec<P>,
    r: f64,
}

impl Core {
    fn edges(&self) -> Vec<(P, P)> {
        match self.v.len() {
            1 => vec![],
            2 => vec![(self.v[0], self.v[1])],
            n => (0..n).map(|i| (self.v[i], self.v[(i + 1) % n])).collect(),
        }
    }

    fn contains(&self, p: P) -> bool {
        self.v.len() >= 3
            && self
                .edges()
                .iter()
                .all(|(a, b)| cross(sub(*b, *a), sub(p, *a)) >= 0.0)
    }

    /// Unit directions whose two-sided projections decide the cores.
    fn axes(&self) -> Vec<P> {
        self.edges()
            .iter()
            .map(|(a, b)| {
                let e = sub(*b, *a);
                let l = norm(e);
                [e[1] / l, -e[0] / l]
            })
            .collect()
    }

    fn project(&self, u: P) -> (f64, f64) {
        self.v
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                let d = dot(*p, u);
                (lo.min(d), hi.max(d))
            })
    }
}

fn segment_distance(p: P, a: P, b: P) -> f64 {
    let e = sub(b, a);
    let t = (dot(sub(p, a), e) / dot(e, e)).clamp(0.0, 1.0);
    norm(sub(p, [a[0] + e[0] * t, a[1] + e[1] * t]))
}

fn segments_cross(a: (P, P), b: (P, P)) -> bool {
    let s = |p: P, q: P, r: P| cross(sub(q, p), sub(r, p));
    let (d1, d2) = (s(b.0, b.1, a.0), s(b.0, b.1, a.1));
    let (d3, d4) = (s(a.0, a.1, b.0), s(a.0, a.1, b.1));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// The cores' distance (zero when they meet), by brute force.
fn core_distance(a: &Core, b: &Core) -> f64 {
    let meet = a.v.iter().any(|p| b.contains(*p))
        || b.v.iter().any(|p| a.contains(*p))
        || a.edges()
            .iter()
            .any(|ea| b.edges().iter().any(|eb| segments_cross(*ea, *eb)));
    if meet {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for p in &a.v {
        for (s, t) in b.edges() {
            best = best.min(segment_distance(*p, s, t));
        }
        for q in &b.v {
            best = best.min(norm(sub(*q, *p)));
        }
    }
    for q in &b.v {
        for (s, t) in a.edges() {
            best = best.min(segment_distance(*q, s, t));
        }
    }
    best
}

/// The cores' penetration depth: the least two-sided overlap over the
/// candidate axes (the Minkowski difference's face normals are among them).
fn core_depth(a: &Core, b: &Core) -> f64 {
    a.axes()
        .iter()
        .chain(b.axes().iter())
        .map(|u| {
            let ((a0, a1), (b0, b1)) = (a.project(*u), b.project(*u));
            (a1 - b0).min(b1 - a0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// A partner for the big polygon.
#[derive(Debug, Clone)]
enum Partner {
    Circle(f64),
    Point,
    Capsule(f64, f64),
    Segment(f64),
    Obb(f64, f64),
    Polygon(Vec<P>),
}

fn as_f64<T: Real>(p: &Point2<T>) -> P {
    [p.x.as_f64(), p.y.as_f64()]
}

fn pose_f64<T: Real>(m: &Isometry2<T>, p: &Point2<T>) -> P {
    let (c, s) = (m.rotation.re.as_f64(), m.rotation.im.as_f64());
    let (x, y) = (p.x.as_f64(), p.y.as_f64());
    [
        c * x - s * y + m.translation.x.as_f64(),
        s * x + c * y + m.translation.y.as_f64(),
    ]
}

fn polygon<T: Real>(v: &[P]) -> ConvexPolygon<T> {
    let pts: Vec<Point2<T>> = v
        .iter()
        .map(|p| Point2::new(T::lit(p[0]), T::lit(p[1])))
        .collect();
    ConvexPolygon::from_hull(&pts).unwrap()
}

/// The partner as a shape, and its core in its local frame (f64).
fn partner<T: Real>(p: &Partner) -> (Box<dyn Shape<T>>, Vec<Point2<T>>, f64) {
    let l = T::lit;
    match p {
        Partner::Circle(r) => (
            Box::new(Circle::new(l(*r)).unwrap()),
            vec![Point2::origin()],
            l(*r).as_f64(),
        ),
        Partner::Point => (Box::new(Point::origin()), vec![Point2::origin()], 0.0),
        Partner::Capsule(h, r) => {
            let (a, b) = (
                Point2::new(-l(*h), T::zero()),
                Point2::new(l(*h), T::zero()),
            );
            (
                Box::new(Capsule::new(a, b, l(*r)).unwrap()),
                vec![a, b],
                l(*r).as_f64(),
            )
        }
        Partner::Segment(h) => {
            let (a, b) = (
                Point2::new(-l(*h), T::zero()),
                Point2::new(l(*h), T::zero()),
            );
            (Box::new(Segment::new(a, b).unwrap()), vec![a, b], 0.0)
        }
        Partner::Obb(x, y) => {
            let o = Obb::new(Vector2::new(l(*x), l(*y))).unwrap();
            let h = o.half_extents();
            let v = vec![
                Point2::new(-h.x, -h.y),
                Point2::new(h.x, -h.y),
                Point2::new(h.x, h.y),
                Point2::new(-h.x, h.y),
            ];
            (Box::new(o), v, 0.0)
        }
        Partner::Polygon(v) => {
            let q = polygon::<T>(v);
            let vs = q.vertices().to_vec();
            (Box::new(q), vs, 0.0)
        }
    }
}

/// `n` points on an ellipse at sorted random angles: a strictly convex
/// polygon once hulled (the hull drops points too close to their
/// neighbours' chord for the precision).
fn ellipse_polygon(n: usize, r: f64, squash: f64, seed: u64) -> Vec<P> {
    let mut s = seed | 1;
    let mut next = move || {
        // SplitMix64.
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut angles: Vec<f64> = (0..n).map(|_| next() * TAU).collect();
    angles.sort_by(f64::total_cmp);
    angles
        .iter()
        .map(|t| [r * t.cos(), r * squash * t.sin()])
        .collect()
}

fn partner_strategy() -> impl Strategy<Value = Partner> {
    prop_oneof![
        2 => (0.05f64..2.0).prop_map(Partner::Circle),
        1 => Just(Partner::Point),
        1 => (0.05f64..2.0, 0.05f64..1.0).prop_map(|(h, r)| Partner::Capsule(h, r)),
        1 => (0.05f64..2.0).prop_map(Partner::Segment),
        1 => (0.05f64..2.0, 0.05f64..2.0).prop_map(|(x, y)| Partner::Obb(x, y)),
        3 => (17usize..400, 0.2f64..3.0, 0.3f64..1.0, any::<u64>())
            .prop_map(|(n, r, q, s)| Partner::Polygon(ellipse_polygon(n, r, q, s))),
    ]
}

fn pose3() -> impl Strategy<Value = [f64; 3]> {
    (-6.0f64..6.0, -6.0f64..6.0, -PI..PI).prop_map(|(x, y, a)| [x, y, a])
}

fn iso<T: Real>(p: [f64; 3]) -> Isometry2<T> {
    Isometry2::new(Vector2::new(T::lit(p[0]), T::lit(p[1])), T::lit(p[2]))
}

/// The shapes' overlap along a unit normal `n` (A → B): how far B must move
/// along `n` to be apart, from the cores' projections and the radii.
fn overlap_along(a: &Core, b: &Core, n: P) -> f64 {
    a.project(n).1 + a.r - (b.project(n).0 - b.r)
}

fn check<T: Real>(
    big: &[P],
    pa: [f64; 3],
    other: &Partner,
    pb: [f64; 3],
) -> Result<(), TestCaseError> {
    let a = polygon::<T>(big);
    let (b, b_core, rb) = partner::<T>(other);
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let ca = Core {
        v: a.vertices().iter().map(|p| pose_f64(&ia, p)).collect(),
        r: 0.0,
    };
    let cb = Core {
        v: b_core.iter().map(|p| pose_f64(&ib, p)).collect(),
        r: rb,
    };
    let scale = 1.0
        + [pa[0], pa[1], pb[0], pb[1]]
            .iter()
            .fold(0.0f64, |m, x| m.max(x.abs()))
        + ca.v
            .iter()
            .chain(&cb.v)
            .fold(0.0f64, |m, p| m.max(norm(*p)));
    let tol = 16.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
    let core_d = core_distance(&ca, &cb);
    let radii = ca.r + cb.r;
    let hit = narrowphase::intersects(&a, &ia, &*b, &ib).unwrap();
    prop_assert_eq!(hit, narrowphase::intersects(&*b, &ib, &a, &ia).unwrap());
    if (core_d - radii).abs() > tol {
        prop_assert_eq!(
            hit,
            core_d <= radii,
            "core distance {} radii {}",
            core_d,
            radii
        );
    }
    // The contact: present exactly when they meet, the reference depth, and
    // the shapes overlapping by that depth along its normal.
    let c: Option<Contact<T>> = narrowphase::contact(&a, &ia, &*b, &ib).unwrap();
    prop_assert_eq!(c.is_some(), hit);
    if let Some(c) = &c {
        let depth = if core_d > 0.0 {
            radii - core_d
        } else {
            radii + core_depth(&ca, &cb)
        };
        let d = c.depth.as_f64();
        prop_assert!((d - depth).abs() <= tol, "depth {} reference {}", d, depth);
        let n = [c.normal.x.as_f64(), c.normal.y.as_f64()];
        let along = overlap_along(&ca, &cb, n);
        prop_assert!(
            (along - d).abs() <= tol,
            "overlap along the normal {} depth {}",
            along,
            d
        );
        let m = narrowphase::contact(&*b, &ib, &a, &ia).unwrap().unwrap();
        prop_assert_eq!(m.depth, c.depth);
        prop_assert_eq!(m.normal.into_inner(), -c.normal.into_inner());
    }
    // The closest points.
    let cp = narrowphase::closest_points(&a, &ia, &*b, &ib, T::infinity()).unwrap();
    match cp {
        ClosestPoints::Intersecting => prop_assert!(hit),
        ClosestPoints::WithinMargin {
            point_a,
            point_b,
            distance,
            ..
        } => {
            prop_assert!(!hit);
            let d = distance.as_f64();
            prop_assert!(
                (d - (core_d - radii)).abs() <= tol,
                "distance {} reference {}",
                d,
                core_d - radii
            );
            let gap = norm(sub(as_f64(&point_b), as_f64(&point_a)));
            prop_assert!(
                (gap - d).abs() <= tol,
                "points {} apart, distance {}",
                gap,
                d
            );
            let mirror = narrowphase::distance(&*b, &ib, &a, &ia).unwrap();
            prop_assert_eq!(mirror, distance);
        }
        ClosestPoints::Farther => prop_assert!(false, "nothing is farther than infinity"),
    }
    Ok(())
}

/// The same pair moved rigidly: the answers move with it (to rounding).
fn invariant<T: Real>(
    big: &[P],
    pa: [f64; 3],
    other: &Partner,
    pb: [f64; 3],
    m: [f64; 3],
) -> Result<(), TestCaseError> {
    let a = polygon::<T>(big);
    let (b, _, _) = partner::<T>(other);
    let motion = iso::<T>(m);
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let (ja, jb) = (motion * ia, motion * ib);
    let scale = 1.0
        + [pa[0], pa[1], pb[0], pb[1], m[0], m[1]]
            .iter()
            .fold(0.0f64, |s, x| s.max(x.abs()))
        + 8.0;
    let tol = 64.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
    let d0 = narrowphase::distance(&a, &ia, &*b, &ib).unwrap().as_f64();
    let d1 = narrowphase::distance(&a, &ja, &*b, &jb).unwrap().as_f64();
    prop_assert!((d0 - d1).abs() <= tol, "distance {} moved {}", d0, d1);
    let c0 = narrowphase::contact(&a, &ia, &*b, &ib).unwrap();
    let c1 = narrowphase::contact(&a, &ja, &*b, &jb).unwrap();
    if let (Some(x), Some(y)) = (c0, c1) {
        prop_assert!((x.depth.as_f64() - y.depth.as_f64()).abs() <= tol);
    }
    Ok(())
}

fn big_polygon() -> impl Strategy<Value = Vec<P>> {
    (17usize..5000, 0.5f64..4.0, 0.3f64..1.0, any::<u64>())
        .prop_map(|(n, r, q, s)| ellipse_polygon(n, r, q, s))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn against_references_f64(big in big_polygon(), pa in pose3(), other in partner_strategy(), pb in pose3()) {
        check::<f64>(&big, pa, &other, pb)?;
    }

    #[test]
    fn against_references_f32(big in big_polygon(), pa in pose3(), other in partner_strategy(), pb in pose3()) {
        check::<f32>(&big, pa, &other, pb)?;
    }

    #[test]
    fn rigid_motion_f64(big in big_polygon(), pa in pose3(), other in partner_strategy(), pb in pose3(), m in pose3()) {
        invariant::<f64>(&big, pa, &other, pb, m)?;
    }

    #[test]
    fn rigid_motion_f32(big in big_polygon(), pa in pose3(), other in partner_strategy(), pb in pose3(), m in pose3()) {
        invariant::<f32>(&big, pa, &other, pb, m)?;
    }

    /// The ellipse kernel's contact against a big polygon: the overlap along
    /// its normal is its depth, and it is never below the true depth (the
    /// least overlap over many directions, sampled).
    #[test]
    fn ellipse_against_big_polygon(big in big_polygon(), pb in pose3(), rx in 0.1f64..2.0, ry in 0.1f64..2.0) {
        let a = polygon::<f64>(&big);
        let e = Ellipse::new(Vector2::new(rx, ry)).unwrap();
        let ib = iso::<f64>(pb);
        let id = Isometry2::identity();
        let support_e = |u: P| {
            let (cs, sn) = (ib.rotation.re, ib.rotation.im);
            let l = [cs * u[0] + sn * u[1], -sn * u[0] + cs * u[1]];
            (rx * rx * l[0] * l[0] + ry * ry * l[1] * l[1]).sqrt()
        };
        let t = [ib.translation.x, ib.translation.y];
        // How far the shapes overlap along the unit `u` (negative: apart).
        let overlap = |u: P| {
            let ha = a.vertices().iter().map(|p| p.x * u[0] + p.y * u[1]).fold(f64::NEG_INFINITY, f64::max);
            ha + support_e([-u[0], -u[1]]) - dot(t, u)
        };
        if let Some(c) = narrowphase::contact(&a, &id, &e, &ib).unwrap() {
            let n = [c.normal.x, c.normal.y];
            prop_assert!((overlap(n) - c.depth).abs() <= 1e-9 * (1.0 + c.depth), "{} {}", overlap(n), c.depth);
            for k in 0..720 {
                let th = TAU * f64::from(k) / 720.0;
                prop_assert!(overlap([th.cos(), th.sin()]) >= c.depth - 1e-9);
            }
        } else {
            prop_assert!(!narrowphase::intersects(&a, &id, &e, &ib).unwrap());
            // Apart: the distance, certified both ways by the closest
            // points. At most it: a point of each shape that far apart. At
            // least it: along their normal the shapes' projections are
            // that far apart (A's support and the ellipse's in closed
            // form), and no two points can be nearer than a gap along any
            // unit direction. A sampled distance from the ellipse's
            // boundary (360 points) can only be farther. (A fixed sag
            // bound on the sampling once stood for the lower side; it
            // ignored a polygon vertex facing the ellipse, where the
            // samples' distances rise by `δ²/2d`, and failed on an exact
            // answer.)
            let d = narrowphase::distance(&a, &id, &e, &ib).unwrap();
            let ClosestPoints::WithinMargin { point_a, point_b, normal, distance } =
                narrowphase::closest_points(&a, &id, &e, &ib, f64::INFINITY).unwrap()
            else {
                return Err(TestCaseError::fail("apart but no closest points"));
            };
            let tol = 1e-9 * (1.0 + d);
            prop_assert!((distance - d).abs() <= tol, "{} {}", distance, d);
            prop_assert!(((point_b - point_a).norm() - d).abs() <= tol);
            prop_assert!((a.project_point(&id, &point_a, true).point - point_a).norm() <= tol, "point_a off A");
            let q = ib.inverse() * point_b;
            prop_assert!(((q.x / rx).hypot(q.y / ry) - 1.0).abs() <= 1e-9, "point_b off the ellipse");
            let gap = -overlap([normal.x, normal.y]);
            prop_assert!(gap >= d - tol, "gap along the normal {} distance {}", gap, d);
            let sampled = (0..360)
                .map(|k| {
                    let th = TAU * f64::from(k) / 360.0;
                    let q = ib * Point2::new(rx * th.cos(), ry * th.sin());
                    (a.project_point(&id, &q, true).point - q).norm()
                })
                .fold(f64::INFINITY, f64::min);
            prop_assert!(d <= sampled + 1e-9, "{} {}", d, sampled);
        }
    }
}

/// A regular `n`-gon of circumradius `r`, vertex 0 on `+x`.
fn regular<T: Real>(n: usize, r: f64) -> ConvexPolygon<T> {
    let v: Vec<Point2<T>> = (0..n)
        .map(|k| {
            let t = TAU * k as f64 / n as f64;
            Point2::new(T::lit(r * t.cos()), T::lit(r * t.sin()))
        })
        .collect();
    ConvexPolygon::new(&v).unwrap()
}

/// Known values for regular polygons: the circumradius along a vertex, the
/// inradius `r cos(π/n)` across an edge; a circle, and a copy turned half
/// a turn (vertex to vertex, face to face).
fn regular_known_values<T: Real>(n: usize, tol: f64) {
    let big = regular::<T>(n, 1.0);
    let inradius = (PI / n as f64).cos();
    let (c, s) = ((PI / n as f64).cos(), (PI / n as f64).sin());
    let circle = Circle::new(T::lit(0.25)).unwrap();
    let id = Isometry2::identity();
    let at = |x: f64, y: f64, angle: f64| iso::<T>([x, y, angle]);
    let dist = |a: &dyn Shape<T>, b: &dyn Shape<T>, m: &Isometry2<T>| {
        narrowphase::distance(a, &id, b, m).unwrap().as_f64()
    };
    // A circle off the vertex on +x, and off the middle of edge 0.
    let d = dist(&big, &circle, &at(3.0, 0.0, 0.0));
    assert!((d - 1.75).abs() <= tol, "{d}");
    let d = dist(&big, &circle, &at(3.0 * c, 3.0 * s, 0.0));
    assert!((d - (3.0 - inradius - 0.25)).abs() <= tol, "{d}");
    // Inside, near edge 0: pushed out through it.
    let k = narrowphase::contact(&big, &id, &circle, &at(0.9 * c, 0.9 * s, 0.0))
        .unwrap()
        .unwrap();
    assert!(
        (k.depth.as_f64() - (inradius - 0.9 + 0.25)).abs() <= tol,
        "{k:?}"
    );
    assert!((k.normal.x.as_f64() - c).abs() <= tol && (k.normal.y.as_f64() - s).abs() <= tol);
    // The polygon against its copy turned half a turn: vertex to vertex.
    let d = dist(&big, &big, &at(2.5, 0.0, PI));
    assert!((d - 0.5).abs() <= tol, "{d}");
    // Face to face: apart, and overlapping by 0.1.
    let d = dist(&big, &big, &at(2.5 * c, 2.5 * s, PI));
    assert!((d - (2.5 - 2.0 * inradius)).abs() <= tol, "{d}");
    let depth_at = 2.0 * inradius - 0.1;
    let k = narrowphase::contact(&big, &id, &big, &at(depth_at * c, depth_at * s, PI))
        .unwrap()
        .unwrap();
    assert!((k.depth.as_f64() - 0.1).abs() <= tol, "{k:?}");
    assert!((k.normal.x.as_f64() - c).abs() <= tol && (k.normal.y.as_f64() - s).abs() <= tol);
    assert!(narrowphase::intersects(&big, &id, &big, &at(depth_at * c, depth_at * s, PI)).unwrap());
    assert!(!narrowphase::intersects(&big, &id, &circle, &at(1.3, 0.0, 0.0)).unwrap());
    // Touching vertex 0 = (1, 0) exactly: closed sets, so they meet.
    let touch = at(1.25, 0.0, 0.0);
    assert!(narrowphase::intersects(&big, &id, &circle, &touch).unwrap());
    assert!(narrowphase::intersects(&circle, &touch, &big, &id).unwrap());
    let k = narrowphase::contact(&big, &id, &circle, &touch)
        .unwrap()
        .unwrap();
    assert_eq!(k.depth, T::zero());
    assert_eq!(
        narrowphase::closest_points(&big, &id, &circle, &touch, T::one()).unwrap(),
        ClosestPoints::Intersecting
    );
}

#[test]
fn regular_100k_gon_f64() {
    regular_known_values::<f64>(100_000, 1e-12);
}

#[test]
fn regular_1024_gon_f32() {
    regular_known_values::<f32>(1024, 2e-5);
}
