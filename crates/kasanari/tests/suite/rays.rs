//! Rays files: parsing and defaults, the rays' errors in each precision, the
//! example file's known answers, every answer against a brute-force oracle
//! and an independent f64 march along the ray on random files, and hostile
//! numbers in every ray field.
//!
//! The oracle casts the ray at every shape of the file, built from the file's
//! own specs, and takes the hit with the smallest `(toi, index)`: the answer
//! [`RaysWorld::first_hit`] must give whatever search it uses. The march
//! checks, from the shapes' parameters alone (`common::signed_distance`), that
//! the hit lies on the boundary of the shape it names and that no point of the
//! ray before it is inside any shape.

use crate::common;
use crate::support;

use common::*;
use kasanari::nalgebra::{Point2, Vector2};
use kasanari::prelude::*;
use kasanari::scene::{
    Entry, RayError, RayQuery, RaySpec, RaysFile, RaysWorld, SceneError, parse_rays, read_rays,
};
use proptest::prelude::*;
use support::{TOKENS, world_spec};

fn example() -> RaysFile {
    read_rays(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/rays.json"),
    )
    .unwrap()
}

/// The brute-force oracle: every shape's own hit, the smallest `(toi, index)`.
fn oracle<T: Real>(file: &RaysFile, q: &RayQuery<T>) -> Option<(usize, RayHit<T>)> {
    let mut hits = Vec::new();
    for (j, e) in file.shapes.iter().enumerate() {
        if e.membership == Some(0) || e.mask == Some(0) {
            continue;
        }
        let (shape, pose) = e.shape.to_shape::<T>().unwrap();
        if let Some(hit) =
            narrowphase::cast_ray(shape.as_ref(), &pose, &q.ray, q.max_toi, q.solid).unwrap()
        {
            hits.push((j, hit));
        }
    }
    hits.into_iter()
        .min_by(|(i, a), (j, b)| a.toi.partial_cmp(&b.toi).unwrap().then_with(|| i.cmp(j)))
}

/// The example file's answers: exact (every number is representable).
fn example_known_values<T: Real>() {
    let file = example();
    let rays = file.world::<T>().unwrap();
    let answers = rays.answers().unwrap();
    let t = T::lit;
    let hit = |shape: usize, toi: f64, p: [f64; 2], n: [f64; 2]| {
        Some((
            shape,
            toi,
            Point2::new(t(p[0]), t(p[1])),
            Vector2::new(t(n[0]), t(n[1])),
        ))
    };
    let expected = [
        // From (-5, 0) along +x into the unit ball at the origin.
        hit(2, 4.0, [-1.0, 0.0], [-1.0, 0.0]),
        // Along (-2, 0) into the ellipse's right end (-3, 3): toi in units of dir.
        hit(4, 1.5, [-3.0, 3.0], [1.0, 0.0]),
        // Up and to the right, into nothing.
        None,
        // Inside the capsule, solid: at once, normal -dir.
        hit(3, 0.0, [4.0, 2.0], [0.0, -1.0]),
        // The same, hollow: where it leaves, the inward normal.
        hit(3, 0.5, [4.0, 2.5], [0.0, -1.0]),
        // Through the crate's corner (2, -2) alone: grazing counts, the
        // normal of the lower axis.
        hit(5, 2.0, [2.0, -2.0], [-1.0, 0.0]),
        // Down towards the floor (toi 3) with max_toi 2: stops short.
        None,
        // The same with max_toi 3: a hit at exactly max_toi counts.
        hit(0, 3.0, [-5.0, -5.0], [0.0, 1.0]),
        // Into the wall's left face.
        hit(1, 3.5, [8.5, 0.0], [-1.0, 0.0]),
        // Through the corner where the wall stands on the floor: both at toi
        // 3, the floor (index 0) wins the tie.
        hit(0, 3.0, [9.5, -5.0], [0.0, 1.0]),
    ];
    assert_eq!(answers.len(), expected.len());
    for (k, (got, want)) in answers.iter().zip(&expected).enumerate() {
        let got = got.map(|(i, h)| (i, h.toi.as_f64(), h.point, h.normal.into_inner()));
        assert_eq!(got, *want, "ray {k}");
    }
    // The tie is real: the wall alone is hit at the same time.
    let (wall, pose) = file.shapes[1].shape.to_shape::<T>().unwrap();
    let q = &rays.rays[9];
    let h = narrowphase::cast_ray(wall.as_ref(), &pose, &q.ray, q.max_toi, q.solid)
        .unwrap()
        .unwrap();
    assert_eq!(h.toi, t(3.0));
    // And the answers are the oracle's.
    for (q, a) in rays.rays.iter().zip(&answers) {
        assert_eq!(*a, oracle(&file, q));
    }
}
shape::for_each_precision!(example_file, example_known_values);

#[test]
fn defaults_and_refusals() {
    let file = parse_rays(
        &br#"{"shapes": [], "rays": [
        {"origin": [0, 0], "dir": [1, 0]},
        {"origin": [0, 0], "dir": [1, 0], "max_toi": null, "solid": false},
        {"origin": [0, 0], "dir": [1, 0], "max_toi": 2.5}
    ]}"#[..],
    )
    .unwrap();
    assert_eq!(file.version, 1);
    let r = &file.rays;
    assert_eq!((r[0].max_toi, r[0].solid), (None, true));
    assert_eq!((r[1].max_toi, r[1].solid), (None, false));
    assert_eq!(r[2].max_toi, Some(2.5));
    let q = file.world::<f32>().unwrap();
    assert_eq!(q.rays[0].max_toi, f32::INFINITY);
    assert_eq!(q.rays[2].max_toi, 2.5);
    assert!(q.answers().unwrap().iter().all(Option::is_none));
    // A round trip through serde keeps the file.
    let text = serde_json::to_string(&file).unwrap();
    assert_eq!(parse_rays(text.as_bytes()).unwrap(), file);

    let err = |text: &str| parse_rays(text.as_bytes()).unwrap_err().to_string();
    let circle = r#"{"kind": "circle", "center": [0, 0], "radius": 1}"#;
    for (text, says) in [
        (
            format!(
                r#"{{"shapes": [{circle}], "rays": [{{"origin": [0, 0], "dir": [1, 0], "length": 1}}]}}"#
            ),
            "unknown field `length`",
        ),
        (
            format!(r#"{{"shapes": [{circle}], "rays": [{{"origin": [0, 0]}}]}}"#),
            "missing field `dir`",
        ),
        (
            format!(r#"{{"shapes": [{circle}]}}"#),
            "missing field `rays`",
        ),
        (
            format!(r#"{{"shapes": [{circle}], "rays": [], "extra": 1}}"#),
            "unknown field `extra`",
        ),
        (
            format!(r#"{{"shapes": [{circle}], "rays": [{{"origin": [0], "dir": [1, 0]}}]}}"#),
            "invalid length 1",
        ),
        (
            format!(
                r#"{{"shapes": [{circle}], "rays": [{{"origin": [0, 0], "dir": [1, 0], "max_toi": 1e400}}]}}"#
            ),
            "number out of range",
        ),
        (
            format!(
                r#"{{"shapes": [{circle}], "rays": [{{"origin": [0, 0], "dir": [1, 0], "solid": 1}}]}}"#
            ),
            "expected a boolean",
        ),
        (
            format!(r#"{{"version": 2, "shapes": [{circle}], "rays": []}}"#),
            "unsupported format version 2",
        ),
        (
            r#"{"shapes": [{"kind": "circle", "center": [0, 0]}], "rays": []}"#.to_string(),
            "missing field `radius`",
        ),
    ] {
        let e = err(&text);
        assert!(e.contains(says), "{text}: {e}");
    }
}

fn ray(origin: [f64; 2], dir: [f64; 2], max_toi: Option<f64>) -> RaySpec {
    RaySpec {
        origin,
        dir,
        max_toi,
        solid: true,
    }
}

#[test]
fn ray_errors_in_each_precision() {
    // Zero in both precisions; a direction that rounds to zero in f32 only.
    for v in [[0.0, 0.0], [-0.0, 0.0], [0.0, -0.0]] {
        let s = ray([0.0, 0.0], v, None);
        assert!(matches!(
            s.to_query::<f32>(),
            Err(RayError::ZeroDirection { .. })
        ));
        assert!(matches!(
            s.to_query::<f64>(),
            Err(RayError::ZeroDirection { .. })
        ));
    }
    let s = ray([0.0, 0.0], [1e-50, 5e-324], None);
    assert_eq!(
        s.to_query::<f32>().unwrap_err().to_string(),
        "dir [1e-50, 5e-324] rounds to zero in f32: a ray needs a direction"
    );
    assert_eq!(s.to_query::<f64>().unwrap().ray.dir.x, 1e-50);
    // Beyond f32, within f64.
    let s = ray([1e39, 0.0], [1.0, 0.0], None);
    assert_eq!(
        s.to_query::<f32>().unwrap_err(),
        RayError::NonFinite {
            field: "origin",
            value: [1e39, 0.0],
            precision: "f32"
        }
    );
    assert!(s.to_query::<f64>().is_ok());
    let s = ray([0.0, 0.0], [1.0, -1e300], None);
    assert_eq!(
        s.to_query::<f32>().unwrap_err().to_string(),
        "dir [1.0, -1e300] is beyond the range of f32"
    );
    // max_toi: negative refused, -0 is 0, beyond the range rounds to +inf.
    let s = ray([0.0, 0.0], [1.0, 0.0], Some(-1.0));
    assert_eq!(
        s.to_query::<f64>().unwrap_err(),
        RayError::NegativeMaxToi { value: -1.0 }
    );
    assert_eq!(
        s.to_query::<f32>().unwrap_err().to_string(),
        "max_toi must be >= 0 (omit it, or null, for no limit), got -1.0"
    );
    assert!(matches!(
        ray([0.0, 0.0], [1.0, 0.0], Some(-5e-324)).to_query::<f64>(),
        Err(RayError::NegativeMaxToi { .. })
    ));
    assert!(matches!(
        ray([0.0, 0.0], [1.0, 0.0], Some(f64::NAN)).to_query::<f64>(),
        Err(RayError::NegativeMaxToi { .. })
    ));
    assert_eq!(
        ray([0.0, 0.0], [1.0, 0.0], Some(-0.0))
            .to_query::<f32>()
            .unwrap()
            .max_toi,
        0.0
    );
    let s = ray([0.0, 0.0], [1.0, 0.0], Some(1e300));
    assert_eq!(s.to_query::<f32>().unwrap().max_toi, f32::INFINITY);
    assert_eq!(s.to_query::<f64>().unwrap().max_toi, 1e300);

    // Through the file: which ray, after the shapes are checked.
    let file = parse_rays(
        &br#"{"shapes": [{"kind": "circle", "center": [0, 0], "radius": 1}],
        "rays": [{"origin": [-5, 0], "dir": [1, 0]}, {"origin": [0, 0], "dir": [0, 0]}]}"#[..],
    )
    .unwrap();
    let e = file.world::<f64>().unwrap_err();
    assert!(
        matches!(e, SceneError::Ray { ref at, error: RayError::ZeroDirection { .. } } if at == "rays[1]")
    );
    assert_eq!(
        e.to_string(),
        "rays[1]: dir is zero: a ray needs a direction"
    );
    let mut bad = file.clone();
    bad.shapes[0].shape = kasanari::scene::ShapeSpec::Circle {
        center: [0.0, 0.0],
        radius: -1.0,
    };
    assert_eq!(
        bad.world::<f32>().unwrap_err().to_string(),
        "shapes[0] (circle): radius must be positive, got -1"
    );
    // An origin too far from a shape it aims at: the narrow phase refuses,
    // naming the ray and the shape; aimed elsewhere, no hit.
    let far = parse_rays(
        &br#"{"shapes": [{"kind": "circle", "center": [0, 0], "radius": 1, "id": "ball"}],
        "rays": [{"origin": [1e200, 0], "dir": [1, 0]}, {"origin": [1e200, 0], "dir": [-1, 0]}]}"#
            [..],
    )
    .unwrap();
    let rays = far.world::<f64>().unwrap();
    assert_eq!(rays.first_hit(&rays.rays[0]).unwrap(), None);
    let e = rays.answers().unwrap_err();
    assert!(matches!(
        e,
        SceneError::Query {
            error: DispatchError::QueryOutOfRange,
            ..
        }
    ));
    assert!(
        e.to_string()
            .starts_with("rays[1], shapes[0] (id ball, circle): the ray origin"),
        "{e}"
    );
}

/// A shape that collides with nothing (membership or mask 0) is not seen;
/// other filter bits play no part.
#[test]
fn filters() {
    let file = parse_rays(
        &br#"{"shapes": [
        {"kind": "circle", "center": [0, 0], "radius": 1, "membership": 0},
        {"kind": "circle", "center": [3, 0], "radius": 1, "mask": 0},
        {"kind": "circle", "center": [6, 0], "radius": 1, "membership": 4, "mask": 2},
        {"kind": "circle", "center": [9, 0], "radius": 1}
    ], "rays": [{"origin": [-5, 0], "dir": [1, 0]}]}"#[..],
    )
    .unwrap();
    let rays = file.world::<f64>().unwrap();
    let (i, h) = rays.first_hit(&rays.rays[0]).unwrap().unwrap();
    assert_eq!((i, h.toi), (2, 10.0));
    assert_eq!(rays.answers().unwrap()[0], oracle(&file, &rays.rays[0]));
}

// ---------------------------------------------------------------------------
// Random files against the oracle and the march.

/// How a random ray is drawn: an origin (anywhere, or at a shape's position,
/// usually inside it), a direction (any, aimed at a shape's position, or
/// along an axis), a limit and solidity.
#[derive(Debug, Clone)]
struct RayDraw {
    origin: [f64; 2],
    at_shape: Option<prop::sample::Index>,
    dir: [f64; 2],
    aim: Option<prop::sample::Index>,
    max_toi: Option<f64>,
    solid: bool,
}

fn ray_draw() -> impl Strategy<Value = RayDraw> {
    let angle = -std::f64::consts::PI..std::f64::consts::PI;
    let dir = prop_oneof![
        (angle, 0.1f64..10.0).prop_map(|(a, l)| [l * a.cos(), l * a.sin()]),
        (0usize..4, 0.25f64..4.0).prop_map(|(k, l)| match k {
            0 => [l, 0.0],
            1 => [-l, 0.0],
            2 => [0.0, l],
            _ => [0.0, -l],
        }),
    ];
    (
        [-12.0f64..12.0, -12.0f64..12.0],
        prop::option::weighted(0.25, any::<prop::sample::Index>()),
        dir,
        prop::option::weighted(0.5, any::<prop::sample::Index>()),
        prop::option::weighted(0.3, 0.0f64..15.0),
        prop::bool::weighted(0.7),
    )
        .prop_map(|(origin, at_shape, dir, aim, max_toi, solid)| RayDraw {
            origin,
            at_shape,
            dir,
            aim,
            max_toi,
            solid,
        })
}

/// The file: shapes in world coordinates (some repeated, so that ties
/// occur), then the rays placed and aimed.
fn rays_file(
    shapes: &[(Spec, [f64; 3])],
    copies: &[prop::sample::Index],
    draws: &[RayDraw],
) -> RaysFile {
    let mut placed: Vec<(Spec, [f64; 3])> = shapes.to_vec();
    for c in copies {
        placed.push(c.get(shapes).clone());
    }
    let entries = placed
        .iter()
        .map(|(s, p)| Entry {
            id: None,
            membership: None,
            mask: None,
            shape: world_spec(s, *p, [0.0, 0.0]),
        })
        .collect();
    let rays = draws
        .iter()
        .map(|d| {
            let origin = d.at_shape.as_ref().map_or(d.origin, |i| {
                let p = i.get(&placed).1;
                [p[0], p[1]]
            });
            let dir = match &d.aim {
                Some(i) => {
                    let p = i.get(&placed).1;
                    let v = [p[0] - origin[0], p[1] - origin[1]];
                    if v[0].hypot(v[1]) > 1e-3 { v } else { d.dir }
                }
                None => d.dir,
            };
            RaySpec {
                origin,
                dir,
                max_toi: d.max_toi,
                solid: d.solid,
            }
        })
        .collect();
    RaysFile {
        version: 1,
        shapes: entries,
        rays,
    }
}

/// Writes the file, reads it back, answers every ray in precision `T`, and
/// checks each answer against the oracle and the march. Returns the number
/// of hits.
fn check_file<T: Real>(
    placed: &[(Spec, [f64; 3])],
    file: &RaysFile,
    path: &std::path::Path,
) -> Result<usize, TestCaseError> {
    std::fs::write(path, serde_json::to_string(file).unwrap()).unwrap();
    let read = read_rays(path).unwrap();
    prop_assert_eq!(&read, file);
    let rays: RaysWorld<T> = read.world::<T>().unwrap();
    let answers = rays.answers().unwrap();
    let mut hits = 0;
    for (k, (q, a)) in rays.rays.iter().zip(&answers).enumerate() {
        prop_assert_eq!(*a, oracle(&read, q), "ray {}", k);
        march(placed, q, a.as_ref(), k)?;
        hits += usize::from(a.is_some());
    }
    Ok(hits)
}

/// The f64 reference from the shapes' parameters: the hit lies on the
/// boundary of the shape it names (inside or on it for a start inside a
/// solid shape), and for a solid ray no point before the hit (or before
/// `max_toi`, or within the scene, when there is none) is inside a shape.
fn march<T: Real>(
    placed: &[(Spec, [f64; 3])],
    q: &RayQuery<T>,
    a: Option<&(usize, RayHit<T>)>,
    k: usize,
) -> Result<(), TestCaseError> {
    let o = [q.ray.origin.x.as_f64(), q.ray.origin.y.as_f64()];
    let d = [q.ray.dir.x.as_f64(), q.ray.dir.y.as_f64()];
    let len = d[0].hypot(d[1]);
    let tol = |s: &Spec, t: f64| {
        reference_tolerance::<T>(16.0 + extent(s) + o[0].hypot(o[1]) + t * len) + sampling_error(s)
    };
    if let Some((i, h)) = a {
        let (s, pose) = &placed[*i];
        let p = [h.point.x.as_f64(), h.point.y.as_f64()];
        let sd = common::signed_distance(s, *pose, p);
        let toi = h.toi.as_f64();
        prop_assert!(
            toi >= 0.0 && toi <= q.max_toi.as_f64(),
            "ray {}: toi {}",
            k,
            toi
        );
        let n = h.normal.into_inner();
        prop_assert!(
            (n.norm().as_f64() - 1.0).abs() < 1e-3,
            "ray {}: normal {:?}",
            k,
            n
        );
        if toi == 0.0 && q.solid {
            prop_assert!(
                sd <= tol(s, toi),
                "ray {}: starts outside {:?} by {}",
                k,
                s,
                sd
            );
        } else {
            prop_assert!(
                sd.abs() <= tol(s, toi),
                "ray {}: {:?} at {:?} is {} off {:?}",
                k,
                h,
                p,
                sd,
                s
            );
        }
    }
    if !q.solid {
        return Ok(());
    }
    let end = match a {
        Some((_, h)) => h.toi.as_f64(),
        None => q.max_toi.as_f64().min(40.0 / len),
    };
    const STEPS: usize = 32;
    // Strictly before the hit: a ray starting in a shape hits it at 0.
    for step in 0..STEPS {
        let t = end * step as f64 / STEPS as f64;
        if t >= end {
            break;
        }
        let p = [o[0] + t * d[0], o[1] + t * d[1]];
        for (j, (s, pose)) in placed.iter().enumerate() {
            let sd = common::signed_distance(s, *pose, p);
            prop_assert!(
                sd >= -tol(s, t),
                "ray {}: at t = {} inside shape {} ({:?}) by {}, answer {:?}",
                k,
                t,
                j,
                s,
                -sd,
                a
            );
        }
    }
    Ok(())
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "kasanari-rays-{}-{name}-{:?}.json",
        std::process::id(),
        std::thread::current().id()
    ))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: shape::testing::cases(128),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_files_f32(
        shapes in prop::collection::vec((spec(), pose(8.0)), 1..7),
        copies in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        draws in prop::collection::vec(ray_draw(), 1..8),
    ) {
        let file = rays_file(&shapes, &copies, &draws);
        let placed: Vec<_> = shapes.iter().cloned().chain(copies.iter().map(|c| c.get(&shapes).clone())).collect();
        let path = temp_file("f32");
        let r = check_file::<f32>(&placed, &file, &path);
        std::fs::remove_file(&path).ok();
        r?;
    }

    #[test]
    fn random_files_f64(
        shapes in prop::collection::vec((spec(), pose(8.0)), 1..7),
        copies in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        draws in prop::collection::vec(ray_draw(), 1..8),
    ) {
        let file = rays_file(&shapes, &copies, &draws);
        let placed: Vec<_> = shapes.iter().cloned().chain(copies.iter().map(|c| c.get(&shapes).clone())).collect();
        let path = temp_file("f64");
        let r = check_file::<f64>(&placed, &file, &path);
        std::fs::remove_file(&path).ok();
        r?;
    }
}

/// The random files are not trivial: many rays hit, some miss, some tie.
#[test]
fn random_files_hit_miss_and_tie() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        prop::collection::vec((spec(), pose(8.0)), 1..7),
        prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        prop::collection::vec(ray_draw(), 1..8),
    );
    let (mut hits, mut misses, mut ties, mut inside) = (0, 0, 0, 0);
    for _ in 0..64 {
        let (shapes, copies, draws) = strategy.new_tree(&mut runner).unwrap().current();
        let file = rays_file(&shapes, &copies, &draws);
        let rays = file.world::<f64>().unwrap();
        for (q, a) in rays.rays.iter().zip(rays.answers().unwrap()) {
            let Some((i, h)) = a else {
                misses += 1;
                continue;
            };
            hits += 1;
            inside += usize::from(h.toi == 0.0);
            // A tie: another shape is hit at the same time, after this one.
            ties += usize::from(file.shapes.iter().enumerate().skip(i + 1).any(|(_, e)| {
                let (s, p) = e.shape.to_shape::<f64>().unwrap();
                narrowphase::cast_ray(s.as_ref(), &p, &q.ray, q.max_toi, q.solid)
                    .unwrap()
                    .is_some_and(|o| o.toi == h.toi)
            }));
        }
    }
    assert!(
        hits > 50 && misses > 20 && ties > 3 && inside > 10,
        "{hits} {misses} {ties} {inside}"
    );
}

// ---------------------------------------------------------------------------
// Hostile numbers in the ray fields.

/// What a ray field is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Origin,
    Dir,
    MaxToi,
}

const SHAPES: &str = r#"[
    {"kind": "circle", "center": [0, 0], "radius": 1},
    {"kind": "obb", "center": [4, 0], "half_extents": [1, 2], "angle": 0.3},
    {"kind": "ellipse", "center": [-4, 3], "radii": [2, 1], "angle": 0.5},
    {"kind": "capsule", "a": [0, 5], "b": [3, 6], "radius": 0.5},
    {"kind": "segment", "a": [-3, -3], "b": [3, -4]},
    {"kind": "point", "p": [-6, 0]},
    {"kind": "circle", "center": [1e30, -1e30], "radius": 1e15}
]"#;

fn hostile_file(values: &[String]) -> String {
    format!(
        r#"{{"version": 1, "shapes": {SHAPES}, "rays": [
            {{"origin": [{}, {}], "dir": [{}, {}], "max_toi": {}}},
            {{"origin": [{}, {}], "dir": [{}, {}], "max_toi": {}, "solid": false}}
        ]}}"#,
        values[0],
        values[1],
        values[2],
        values[3],
        values[4],
        values[0],
        values[1],
        values[2],
        values[3],
        values[4]
    )
}

/// The answers of a file in `T`, checked: a valid answer (the oracle's, all
/// finite, within `max_toi`) or a typed error fitting the field.
fn hostile_in<T: Real>(file: &RaysFile, field: Field, text: &str) -> bool {
    let rays = match file.world::<T>() {
        Ok(r) => r,
        Err(SceneError::Ray { at, error }) => {
            assert!(at.starts_with("rays["), "{at}");
            let fits = match (field, error) {
                (Field::Origin, RayError::NonFinite { field, .. }) => field == "origin",
                (Field::Dir, RayError::NonFinite { field, .. }) => field == "dir",
                (Field::Dir, RayError::ZeroDirection { .. }) => true,
                (Field::MaxToi, RayError::NegativeMaxToi { .. }) => true,
                _ => false,
            };
            assert!(fits, "{text}: {field:?}: {error:?}");
            return false;
        }
        Err(e) => panic!("{text}: {e}"),
    };
    match rays.answers() {
        Ok(answers) => {
            for (q, a) in rays.rays.iter().zip(&answers) {
                assert_eq!(*a, oracle(file, q), "{text}");
                if let Some((i, h)) = a {
                    assert!(*i < file.shapes.len());
                    assert!(h.toi >= T::zero() && h.toi <= q.max_toi, "{text}: {h:?}");
                    assert!(h.point.iter().chain(h.normal.iter()).all(|v| v.is_finite()));
                }
            }
            true
        }
        Err(SceneError::Query { at, error }) => {
            // Only an origin (or, through the direction's scale, nothing
            // else) far beyond the shapes is refused by the narrow phase.
            assert_eq!(error, DispatchError::QueryOutOfRange, "{text}");
            assert!(at.starts_with("rays["), "{at}");
            false
        }
        Err(e) => panic!("{text}: {e}"),
    }
}

#[test]
fn every_ray_number_hostile() {
    let base = ["-5", "0.25", "1", "0", "20"];
    let fields = [
        Field::Origin,
        Field::Origin,
        Field::Dir,
        Field::Dir,
        Field::MaxToi,
    ];
    let (mut answered, mut refused) = ([0usize; 2], [0usize; 2]);
    for (slot, field) in fields.iter().enumerate() {
        for token in TOKENS {
            let mut values: Vec<String> = base.iter().map(ToString::to_string).collect();
            values[slot] = token.to_string();
            let text = hostile_file(&values);
            let file = match parse_rays(text.as_bytes()) {
                Ok(f) => f,
                Err(SceneError::Json(e)) => {
                    assert!(token.ends_with("e309"), "{text}: {e}");
                    assert!(e.to_string().contains("out of range"), "{e}");
                    continue;
                }
                Err(e) => panic!("{text}: {e}"),
            };
            for (k, ok) in [
                hostile_in::<f32>(&file, *field, &text),
                hostile_in::<f64>(&file, *field, &text),
            ]
            .into_iter()
            .enumerate()
            {
                if ok {
                    answered[k] += 1;
                } else {
                    refused[k] += 1;
                }
            }
        }
    }
    // Both outcomes in both precisions; f32 refuses more.
    assert!(
        answered.iter().chain(&refused).all(|n| *n > 0),
        "{answered:?} {refused:?}"
    );
    assert!(refused[0] > refused[1], "{refused:?}");
}

/// The command itself on hostile files: exit status 0 or 2, never a panic.
#[test]
fn command_on_hostile_rays() {
    let dir = std::env::temp_dir().join(format!("kasanari-hostile-rays-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut statuses = std::collections::BTreeSet::new();
    for (slot, token) in [
        (0, "1e308"),
        (0, "1e39"),
        (2, "5e-324"),
        (2, "-1e308"),
        (4, "-0"),
        (4, "1e309"),
        (4, "-5e-324"),
    ] {
        let mut values: Vec<String> = ["-5", "0.25", "1", "0", "20"]
            .iter()
            .map(ToString::to_string)
            .collect();
        values[slot] = token.to_string();
        let path = dir.join(format!("{slot}-{token}.json"));
        std::fs::write(&path, hostile_file(&values)).unwrap();
        for precision in ["f32", "f64"] {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_kasanari"))
                .args([
                    "rays",
                    path.to_str().unwrap(),
                    "--json",
                    "--precision",
                    precision,
                ])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            let code = o.status.code();
            assert!(
                matches!(code, Some(0 | 2)),
                "{token} {precision}: {code:?} {err}"
            );
            assert!(!err.contains("panicked"), "{err}");
            if code == Some(0) {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                assert_eq!(v.as_array().unwrap().len(), 2);
            } else {
                assert!(err.starts_with("kasanari: "), "{err}");
            }
            statuses.insert(code);
        }
    }
    assert_eq!(statuses.len(), 2, "{statuses:?}");
    std::fs::remove_dir_all(&dir).ok();
}
