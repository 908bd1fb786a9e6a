//! Scene and pairs files with hostile numbers, built into f32 and f64 worlds.
//!
//! JSON holds no NaN or infinity, but it holds 1e308 (which overflows f32),
//! ±MAX, -0, subnormals (5e-324) and numbers out of f64's range (1e309). Every
//! number of every kind of shape is replaced by each of them in turn: the file
//! is refused as malformed (only out-of-range numbers), or the world is built,
//! or a typed error names the shape and says what is wrong, from a set that
//! fits the number's role (a size, a coordinate, an angle). A built world is
//! consistent, its pairs are the narrow phase over all pairs, and no contact
//! holds a NaN. Known cases pin the exact error in each precision.

use crate::support;

use kasanari::nalgebra::Point2;
use kasanari::narrowphase;
use kasanari::prelude::*;
use kasanari::scene::{SceneError, parse_pairs, parse_scene};
use support::TOKENS;

/// What a number stands for in a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Coordinate,
    Size,
    Angle,
}

/// Every kind with its numbers: a JSON template with `{i}` slots, the
/// ordinary values, and the role of each.
fn kinds() -> Vec<(&'static str, Vec<f64>, Vec<Role>)> {
    use Role::{Angle, Coordinate as C, Size};
    vec![
        (
            r#"{"kind":"point","p":[{0},{1}]}"#,
            vec![1.0, 2.0],
            vec![C, C],
        ),
        (
            r#"{"kind":"segment","a":[{0},{1}],"b":[{2},{3}]}"#,
            vec![0.0, 0.0, 1.0, 1.0],
            vec![C, C, C, C],
        ),
        (
            r#"{"kind":"circle","center":[{0},{1}],"radius":{2}}"#,
            vec![0.0, 0.5, 1.0],
            vec![C, C, Size],
        ),
        (
            r#"{"kind":"aabb","min":[{0},{1}],"max":[{2},{3}]}"#,
            vec![0.0, 0.0, 2.0, 1.0],
            vec![C, C, C, C],
        ),
        (
            r#"{"kind":"obb","center":[{0},{1}],"half_extents":[{2},{3}],"angle":{4}}"#,
            vec![0.5, 0.0, 1.0, 0.5, 0.3],
            vec![C, C, Size, Size, Angle],
        ),
        (
            r#"{"kind":"triangle","vertices":[[{0},{1}],[{2},{3}],[{4},{5}]]}"#,
            vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            vec![C; 6],
        ),
        (
            r#"{"kind":"polygon","vertices":[[{0},{1}],[{2},{3}],[{4},{5}],[{6},{7}]]}"#,
            vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0],
            vec![C; 8],
        ),
        (
            r#"{"kind":"capsule","a":[{0},{1}],"b":[{2},{3}],"radius":{4}}"#,
            vec![0.0, 0.0, 0.0, 1.0, 0.25],
            vec![C, C, C, C, Size],
        ),
        (
            r#"{"kind":"ellipse","center":[{0},{1}],"radii":[{2},{3}],"angle":{4}}"#,
            vec![0.5, 0.5, 2.0, 1.0, 1.0],
            vec![C, C, Size, Size, Angle],
        ),
    ]
}

/// A scene of three shapes: a circle, the shape under test (index 1), a box.
fn scene_text(shape: &str) -> String {
    format!(
        r#"{{"version": 1, "shapes": [
            {{"kind":"circle","center":[0,0],"radius":1,"id":"ball"}},
            {shape},
            {{"kind":"obb","center":[1,1],"half_extents":[1,0.25],"angle":0.1}}
        ]}}"#
    )
}

fn fill(template: &str, values: &[String]) -> String {
    let mut s = template.to_string();
    for (i, v) in values.iter().enumerate() {
        s = s.replace(&format!("{{{i}}}"), v);
    }
    s
}

fn number(v: f64) -> String {
    format!("{v:?}")
}

fn contact_has_nan<T: Real>(c: &Contact<T>) -> bool {
    [
        c.normal.x,
        c.normal.y,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_b.x,
        c.point_b.y,
    ]
    .iter()
    .any(|v| v.is_nan())
}

/// A built world: consistent, every object's box finite, pairs the narrow
/// phase over all pairs, no NaN.
fn check_world<T: Real>(mut w: kasanari::scene::SceneWorld<T>, n: usize, what: &str) {
    let world = &mut w.world;
    world.validate().unwrap();
    assert_eq!(world.len(), n);
    assert_eq!(w.handles.len(), n);
    let table = DispatchTable::<T>::new();
    let mut hits = Vec::new();
    for (i, &a) in w.handles.iter().enumerate() {
        let oa = world.get(a).unwrap();
        assert!(oa.shape().bounding_box(oa.pose()).is_valid());
        for &b in &w.handles[i + 1..] {
            let ob = world.get(b).unwrap();
            if table
                .intersects(oa.shape(), oa.pose(), ob.shape(), ob.pose())
                .unwrap()
            {
                hits.push((a, b));
            }
        }
    }
    let desc = format!(
        "{what}: {:?}",
        world
            .handles()
            .map(|h| world.get(h).unwrap())
            .collect::<Vec<_>>()
    );
    let c = world.collisions();
    let got: Vec<(Handle, Handle)> = c.pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(got, hits, "{desc}");
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert!(c.pairs.iter().all(|p| !contact_has_nan(&p.contact)));
}

/// Whether an error fits the role of the number that was made hostile.
fn error_fits(role: Role, e: &SceneError) -> bool {
    match (role, e) {
        (Role::Size, SceneError::Shape { error, .. }) => matches!(
            error,
            ShapeError::NonFinite { .. }
                | ShapeError::NonPositiveSize { .. }
                | ShapeError::TooLarge { .. }
        ),
        (Role::Coordinate, SceneError::Shape { error, .. }) => matches!(
            error,
            ShapeError::NonFinite { .. }
                | ShapeError::TooLarge { .. }
                | ShapeError::NonFiniteVertex { .. }
                | ShapeError::NonPositiveSize { .. }
                | ShapeError::CoincidentEndpoints
                | ShapeError::DuplicateVertex { .. }
                | ShapeError::CollinearVertices { .. }
                | ShapeError::NotConvex { .. }
        ),
        (Role::Angle, SceneError::Shape { .. }) => false,
        (_, SceneError::World { error, .. }) => matches!(
            error,
            WorldError::NonFinitePose | WorldError::NonFiniteBounds
        ),
        _ => false,
    }
}

/// Every number of every kind replaced by every hostile token, in f32 and f64.
#[test]
fn every_number_of_every_kind() {
    let (mut built, mut refused) = ([0usize; 2], [0usize; 2]);
    for (template, base, roles) in kinds() {
        for (slot, role) in roles.iter().enumerate() {
            for token in TOKENS {
                let mut values: Vec<String> = base.iter().map(|v| number(*v)).collect();
                values[slot] = token.to_string();
                let text = scene_text(&fill(template, &values));
                let scene = match parse_scene(text.as_bytes()) {
                    Ok(s) => s,
                    Err(SceneError::Json(e)) => {
                        assert!(token.ends_with("e309"), "{text}: {e}");
                        assert!(e.to_string().contains("out of range"), "{e}");
                        continue;
                    }
                    Err(e) => panic!("{text}: {e}"),
                };
                assert!(!token.ends_with("e309"), "{text} parsed");
                for (k, r) in [
                    scene.world::<f32>(None).map(|w| check_world(w, 3, &text)),
                    scene.world::<f64>(None).map(|w| check_world(w, 3, &text)),
                ]
                .into_iter()
                .enumerate()
                {
                    match r {
                        Ok(()) => built[k] += 1,
                        Err(e) => {
                            refused[k] += 1;
                            assert!(error_fits(*role, &e), "{text}: {role:?}: {e:?}");
                            assert!(e.to_string().starts_with("shapes[1] ("), "{e}");
                        }
                    }
                }
            }
        }
    }
    // Both answers occur in both precisions, and f32 refuses more.
    assert!(built[0] > 0 && built[1] > 0 && refused[0] > 0 && refused[1] > 0);
    assert!(refused[0] > refused[1], "{refused:?}");
}

fn one_shape(shape: &str) -> kasanari::scene::Scene {
    parse_scene(format!(r#"{{"shapes": [{shape}]}}"#).as_bytes()).unwrap()
}

fn shape_error<T: Real>(shape: &str) -> ShapeError {
    match one_shape(shape).world::<T>(None) {
        Err(SceneError::Shape { error, .. }) => error,
        r => panic!("{shape}: {r:?}"),
    }
}

fn world_error<T: Real>(shape: &str) -> WorldError {
    match one_shape(shape).world::<T>(None) {
        Err(SceneError::World { error, .. }) => error,
        r => panic!("{shape}: {r:?}"),
    }
}

fn builds<T: Real>(shape: &str) -> kasanari::scene::SceneWorld<T> {
    let w = one_shape(shape).world::<T>(None).unwrap();
    w.world.validate().unwrap();
    w
}

/// The exact error, precision by precision.
#[test]
fn known_hostile_shapes() {
    // A radius beyond f32.
    let s = r#"{"kind":"circle","center":[0,0],"radius":1e39}"#;
    assert_eq!(
        shape_error::<f32>(s),
        ShapeError::NonFinite { field: "radius" }
    );
    builds::<f64>(s);
    // The smallest subnormal: zero in f32, a valid tiny circle in f64.
    let s = r#"{"kind":"circle","center":[0,0],"radius":5e-324}"#;
    assert_eq!(
        shape_error::<f32>(s),
        ShapeError::NonPositiveSize {
            field: "radius",
            value: 0.0
        }
    );
    let w = builds::<f64>(s);
    let c = w.world.get(w.handles[0]).unwrap();
    assert_eq!(c.shape().bounding_box(c.pose()).max.x, 5e-324);
    // -0 is not positive, and is reported as given.
    match shape_error::<f64>(r#"{"kind":"circle","center":[0,0],"radius":-0}"#) {
        ShapeError::NonPositiveSize {
            field: "radius",
            value,
        } => {
            assert!(value == 0.0 && value.is_sign_negative());
        }
        e => panic!("{e:?}"),
    }
    // A centre beyond f32: the pose is not finite there.
    let s = r#"{"kind":"circle","center":[1e39,0],"radius":1}"#;
    assert_eq!(world_error::<f32>(s), WorldError::NonFinitePose);
    builds::<f64>(s);
    // A radius beyond the largest size (√MAX / 16) of f64.
    let s = r#"{"kind":"circle","center":[1e308,0],"radius":1e308}"#;
    assert_eq!(
        shape_error::<f64>(s),
        ShapeError::TooLarge {
            field: "radius",
            value: 1e308
        }
    );
    assert_eq!(
        shape_error::<f32>(s),
        ShapeError::NonFinite { field: "radius" }
    );
    // An angle beyond f32 (a NaN rotation there).
    let s = r#"{"kind":"obb","center":[0,0],"half_extents":[1,1],"angle":1e308}"#;
    assert_eq!(world_error::<f32>(s), WorldError::NonFinitePose);
    builds::<f64>(s);
    // A point at ±MAX.
    let s = r#"{"kind":"point","p":[1.7976931348623157e308,-1.7976931348623157e308]}"#;
    assert_eq!(world_error::<f32>(s), WorldError::NonFinitePose);
    let w = builds::<f64>(s);
    assert_eq!(
        w.world.query_point(&Point2::new(f64::MAX, -f64::MAX)).0,
        w.handles
    );
    // A box from -1e308 to 1e308: too large in f64, its corners beyond f32.
    let s = r#"{"kind":"aabb","min":[-1e308,-1e308],"max":[1e308,1e308]}"#;
    assert_eq!(
        shape_error::<f64>(s),
        ShapeError::TooLarge {
            field: "min",
            value: -1e308
        }
    );
    assert_eq!(
        shape_error::<f32>(s),
        ShapeError::NonFinite { field: "min" }
    );
    // A segment from -MAX to MAX: too large.
    let s = r#"{"kind":"segment","a":[-1.7976931348623157e308,0],"b":[1.7976931348623157e308,0]}"#;
    assert_eq!(
        shape_error::<f64>(s),
        ShapeError::TooLarge {
            field: "a",
            value: -f64::MAX
        }
    );
    assert_eq!(shape_error::<f32>(s), ShapeError::NonFinite { field: "a" });
    // A triangle far out whose coordinates add up beyond f64 (the sum of its
    // vertices overflows, their mean does not): the centroid is found, and
    // the triangle is too large (distinct f64 numbers near 1e308 are 2e292
    // apart, far beyond the size limit).
    let s = r#"{"kind":"triangle","vertices":[[1e308,0],[1.5e308,0],[1.5e308,1e308]]}"#;
    assert!(matches!(
        shape_error::<f64>(s),
        ShapeError::TooLarge {
            field: "vertex",
            ..
        }
    ));
    assert!(matches!(
        shape_error::<f32>(s),
        ShapeError::NonFiniteVertex { .. }
    ));
    // Subnormal triangles: their area underflows (collinear in f64), their
    // vertices round to zero in f32 (a repeated vertex).
    let s = r#"{"kind":"triangle","vertices":[[0,0],[5e-324,0],[0,5e-324]]}"#;
    assert!(matches!(
        shape_error::<f64>(s),
        ShapeError::CollinearVertices { .. }
    ));
    assert!(matches!(
        shape_error::<f32>(s),
        ShapeError::DuplicateVertex { .. }
    ));
    // An ellipse as wide as f64 allows: too large; at the size limit: valid.
    let s = r#"{"kind":"ellipse","center":[0,0],"radii":[1.7976931348623157e308,1],"angle":0}"#;
    assert!(matches!(
        shape_error::<f64>(s),
        ShapeError::TooLarge {
            field: "radii.x",
            ..
        }
    ));
    let limit = shape::tolerance::max_size::<f64>();
    let w = builds::<f64>(&format!(
        r#"{{"kind":"ellipse","center":[0,0],"radii":[{limit:e},1],"angle":0}}"#
    ));
    let e = w.world.get(w.handles[0]).unwrap();
    assert_eq!(e.shape().bounding_box(e.pose()).max.x, limit);
    assert_eq!(
        shape_error::<f32>(s),
        ShapeError::NonFinite { field: "radii.x" }
    );
    // -0 coordinates are the origin.
    let w = builds::<f32>(r#"{"kind":"point","p":[-0,-0]}"#);
    assert_eq!(w.world.query_point(&Point2::origin()).0, w.handles);
}

/// Cell sizes: every hostile value is refused with the grid's reason, or used.
#[test]
fn hostile_cell_sizes() {
    let scene = one_shape(r#"{"kind":"circle","center":[0,0],"radius":1}"#);
    for v in [
        f64::NAN,
        f64::INFINITY,
        -f64::INFINITY,
        0.0,
        -0.0,
        5e-324,
        -1.0,
        f64::MAX,
        f64::MIN_POSITIVE,
    ] {
        let check = |r: Result<(), SceneError>, valid: bool| match r {
            Ok(()) => assert!(valid, "{v}"),
            Err(SceneError::World { at, error }) => {
                assert!(!valid, "{v}");
                assert_eq!(at, "cell size");
                assert!(matches!(error, WorldError::Grid(_)), "{error:?}");
            }
            Err(e) => panic!("{v}: {e}"),
        };
        let (v32, v64) = (v as f32, v);
        let ok = |x: f64| x.is_finite() && x > 0.0 && (1.0 / x).is_finite();
        check(
            scene.world::<f32>(Some(v32)).map(|w| check_world(w, 1, "")),
            ok(f64::from(v32)) && (1.0 / v32).is_finite(),
        );
        check(
            scene.world::<f64>(Some(v64)).map(|w| check_world(w, 1, "")),
            ok(v64),
        );
    }
}

/// Pairs files: each pair is built in both precisions and answered by the
/// narrow phase with a typed error or a contact without NaN.
#[test]
fn pairs_with_hostile_numbers() {
    let shapes = [
        r#"{"kind":"circle","center":[1e308,0],"radius":1}"#,
        r#"{"kind":"circle","center":[-1e308,0],"radius":1}"#,
        r#"{"kind":"point","p":[1.7976931348623157e308,0]}"#,
        r#"{"kind":"obb","center":[1e308,1],"half_extents":[2,1],"angle":1e308}"#,
        r#"{"kind":"ellipse","center":[-0,5e-324],"radii":[1e300,1e-300],"angle":0}"#,
        r#"{"kind":"capsule","a":[0,-1e308],"b":[0,1e308],"radius":5e-324}"#,
        r#"{"kind":"polygon","vertices":[[1e308,0],[1.5e308,0],[1.5e308,1e308]]}"#,
    ];
    let mut pairs = Vec::new();
    for a in shapes {
        for b in shapes {
            pairs.push(format!(r#"{{"a":{a},"b":{b}}}"#));
        }
    }
    let text = format!(r#"{{"version":1,"pairs":[{}]}}"#, pairs.join(","));
    let file = parse_pairs(text.as_bytes()).unwrap();
    let (mut answered, mut hits) = (0, 0);
    for p in &file.pairs {
        fn run<T: Real>(p: &kasanari::scene::PairSpec) -> Option<bool> {
            let ((a, pa), (b, pb)) = (p.a.to_shape::<T>().ok()?, p.b.to_shape::<T>().ok()?);
            match narrowphase::contact(a.as_ref(), &pa, b.as_ref(), &pb) {
                Ok(c) => {
                    assert!(c.is_none_or(|c| !contact_has_nan(&c)), "{p:?}: {c:?}");
                    assert_eq!(
                        narrowphase::intersects(a.as_ref(), &pa, b.as_ref(), &pb),
                        Ok(c.is_some())
                    );
                    Some(c.is_some())
                }
                Err(e) => {
                    assert_eq!(e, DispatchError::NonFinitePose, "{p:?}");
                    None
                }
            }
        }
        for r in [run::<f32>(p), run::<f64>(p)].into_iter().flatten() {
            answered += 1;
            hits += usize::from(r);
        }
    }
    assert!(answered > 0 && hits > 0 && hits < answered);
}
