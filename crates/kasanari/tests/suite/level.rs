//! Composite shapes in files (issue 14): the `compound`, `polyline`,
//! `concave_polygon` and `tile_map` kinds parse, build, name their errors
//! (field and index), round-trip through a World byte for byte, and the
//! level example (`docs/examples/level.json`) answers with its parts in
//! both precisions through the library and the command (`scene`, `pairs`,
//! `rays`, `casts`, `--json` and `--svg`).

use std::path::PathBuf;
use std::process::{Command, Output};

use kasanari::prelude::*;
use kasanari::scene::{Scene, SceneError, ShapeSpec, parse_casts, parse_rays, read_scene};
use serde_json::json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kasanari"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn level() -> Scene {
    read_scene(&root().join("docs/examples/level.json")).unwrap()
}

/// The level's colliding pairs and their parts: the tile ids under each
/// body (row · 16 + col, rows from the bottom), the cart's wheel, the
/// ledge's first segment; the touching pairs (depth 0) count.
fn level_pairs<T: Real>() {
    let scene = level();
    let mut sw = scene.world::<T>(None).unwrap();
    sw.world.collisions();
    let frame = sw.world.last_collisions();
    assert!(frame.errors.is_empty());
    let name = |h: Handle| {
        let i = sw.handles.iter().position(|x| *x == h).unwrap();
        scene.shapes[i].label(i)
    };
    let got: Vec<_> = frame
        .pairs
        .iter()
        .map(|p| {
            (
                name(p.a),
                name(p.b),
                p.parts.a,
                p.parts.b,
                p.contact.depth.as_f64(),
            )
        })
        .collect();
    let s = |x: &str| x.to_string();
    assert_eq!(
        got,
        vec![
            // Touching along y = 0; tile 17 (col 1) touches the rock's corner
            // at x = −6 and ties go to the lowest id.
            (s("ground"), s("rock"), Some(17), Some(0), 0.0),
            (s("ground"), s("cart"), Some(23), Some(1), 0.0625),
            (s("ground"), s("ball"), Some(45), None, 0.125),
            (s("ground"), s("player"), Some(21), None, 0.0),
            (s("ledge"), s("crate"), Some(0), None, 0.125),
        ]
    );
    for p in &frame.pairs {
        assert_eq!(p.contact.normal.y, T::one(), "{p:?}");
    }
}

shape::for_each_precision!(level_pairs_name_parts, level_pairs);

/// Every composite kind parses, builds, and is saved back from a World as
/// it was written (integer coordinates: exactly), and saving the saved
/// scene again gives the same bytes.
#[test]
fn level_round_trips_byte_for_byte() {
    let scene = level();
    let text = serde_json::to_string(&scene).unwrap();
    assert_eq!(serde_json::from_str::<Scene>(&text).unwrap(), scene);
    for saved in [
        Scene::from_world(&scene.world::<f64>(None).unwrap().world).unwrap(),
        Scene::from_world(&scene.world::<f32>(None).unwrap().world).unwrap(),
    ] {
        let specs: Vec<&ShapeSpec> = saved.shapes.iter().map(|e| &e.shape).collect();
        let want: Vec<&ShapeSpec> = scene.shapes.iter().map(|e| &e.shape).collect();
        assert_eq!(specs, want);
        let once = serde_json::to_string(&saved).unwrap();
        let again = Scene::from_world(
            &serde_json::from_str::<Scene>(&once)
                .unwrap()
                .world::<f64>(None)
                .unwrap()
                .world,
        )
        .unwrap();
        assert_eq!(serde_json::to_string(&again).unwrap(), once);
    }
    // The saved form: flags written out, rows as strings, parts as SHAPEs.
    let saved = Scene::from_world(&scene.world::<f64>(None).unwrap().world).unwrap();
    let v = serde_json::to_value(&saved).unwrap();
    assert_eq!(
        v["shapes"][0]["rows"],
        json!(["...........#####", "################", "################"])
    );
    assert_eq!(v["shapes"][1]["one_sided"], json!(true));
    assert_eq!(v["shapes"][1]["closed"], json!(false));
    assert_eq!(v["shapes"][3]["parts"][1]["kind"], json!("circle"));
}

/// A clockwise concave polygon is saved counter-clockwise (same first
/// vertex); a rotated compound keeps its angle and its parts' frame; a
/// closed polyline; a tile map far from the origin in f32 keeps its tiles.
#[test]
fn composites_saved_in_their_own_forms() {
    let scene: Scene = serde_json::from_str(
        r###"{"shapes": [
        {"kind":"concave_polygon","vertices":[[0,0],[0,2],[1,2],[1,1],[2,1],[2,0]]},
        {"kind":"compound","center":[10,0],"angle":0.5,"parts":[
            {"kind":"capsule","a":[0,0],"b":[1,0],"radius":0.25},
            {"kind":"aabb","min":[-1,-1],"max":[0,0]}]},
        {"kind":"polyline","points":[[0,10],[4,10],[4,14]],"closed":true},
        {"kind":"tile_map","origin":[1000000,0],"tile_size":[0.5,0.25],"rows":["#.","##"]}
    ]}"###,
    )
    .unwrap();
    let saved = Scene::from_world(&scene.world::<f32>(None).unwrap().world).unwrap();
    assert_eq!(
        saved.shapes[0].shape,
        ShapeSpec::ConcavePolygon {
            vertices: vec![
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0]
            ]
        }
    );
    let ShapeSpec::Compound { center, parts, .. } = &saved.shapes[1].shape else {
        panic!("{:?}", saved.shapes[1]);
    };
    assert_eq!(*center, [10.0, 0.0]);
    assert_eq!(parts.len(), 2);
    let f64_saved = Scene::from_world(&scene.world::<f64>(None).unwrap().world).unwrap();
    assert_eq!(f64_saved.shapes[1].shape, scene.shapes[1].shape);
    assert_eq!(saved.shapes[2].shape, scene.shapes[2].shape);
    assert_eq!(saved.shapes[3].shape, scene.shapes[3].shape);
}

/// Validation names the shape, the field and the index; a convex kind in
/// a compound only; a row of `#` and `.` only.
#[test]
fn composite_errors_name_field_and_index() {
    let world_error = |text: &str| {
        let scene: Scene = serde_json::from_str(text).unwrap();
        match scene.world::<f64>(None).unwrap_err() {
            SceneError::Shape { at, error } => format!("{at}: {error}"),
            e => panic!("{e}"),
        }
    };
    let e = world_error(
        r###"{"shapes":[{"id":"bowtie","kind":"concave_polygon","vertices":[[0,0],[2,2],[2,0],[0,2]]}]}"###,
    );
    assert!(
        e.starts_with("shapes[0] (id bowtie, concave_polygon) vertices[0]: edge 0"),
        "{e}"
    );
    // A non-convex (but simple) polygon is fine.
    let scene: Scene = serde_json::from_str(
        r###"{"shapes":[{"kind":"concave_polygon","vertices":[[0,0],[2,0],[1,1],[2,2],[0,2]]}]}"###,
    )
    .unwrap();
    assert!(scene.world::<f32>(None).is_ok());
    let e = world_error(r###"{"shapes":[{"kind":"polyline","points":[[0,0],[1,0],[1,0]]}]}"###);
    assert!(e.starts_with("shapes[0] (polyline) points[2]: "), "{e}");
    let e = world_error(
        r###"{"shapes":[{"kind":"tile_map","origin":[0,0],"tile_size":[1,1],"rows":["#","##"]}]}"###,
    );
    assert!(
        e.starts_with("shapes[0] (tile_map) rows[1]: row 1 has 2"),
        "{e}"
    );
    let e = world_error(
        r###"{"shapes":[{"kind":"tile_map","origin":[0,0],"tile_size":[1,-1],"rows":["#"]}]}"###,
    );
    assert!(e.starts_with("shapes[0] (tile_map) tile_size: "), "{e}");
    let e = world_error(
        r###"{"shapes":[{"kind":"tile_map","origin":[0,0],"tile_size":[1,1],"rows":["..",".."]}]}"###,
    );
    assert!(e.starts_with("shapes[0] (tile_map) rows: "), "{e}");
    let e = world_error(
        r###"{"shapes":[{"kind":"compound","center":[0,0],"angle":0,"parts":[
            {"kind":"circle","center":[0,0],"radius":1},
            {"kind":"polygon","vertices":[[0,0],[2,0],[1,0.5],[1,2]]}]}]}"###,
    );
    assert!(
        e.starts_with("shapes[0] (compound) parts[1].vertices[2]: ")
            || e.starts_with("shapes[0] (compound) parts[1]"),
        "{e}"
    );
    let e =
        world_error(r###"{"shapes":[{"kind":"compound","center":[0,0],"angle":0,"parts":[]}]}"###);
    assert!(e.starts_with("shapes[0] (compound) parts: "), "{e}");
    // Refused while reading, with the place in the file.
    let read = |text: &str| serde_json::from_str::<Scene>(text).unwrap_err().to_string();
    let e = read(
        r###"{"shapes":[{"kind":"compound","center":[0,0],"angle":0,"parts":[{"kind":"tile_map","origin":[0,0],"tile_size":[1,1],"rows":["#"]}]}]}"###,
    );
    assert!(e.contains("must be a convex kind, not `tile_map`"), "{e}");
    let e = read(
        r###"{"shapes":[{"kind":"tile_map","origin":[0,0],"tile_size":[1,1],"rows":["#1"]}]}"###,
    );
    assert!(e.contains("'1' at column 1"), "{e}");
    let e = read(r###"{"shapes":[{"kind":"polyline","points":[[0,0],[1,0]],"loop":true}]}"###);
    assert!(e.contains("unknown field `loop`"), "{e}");
}

/// `kasanari scene --json` names the parts of composite pairs only; `pairs`,
/// `rays` and `casts` accept the new kinds and name parts; every picture is
/// drawn.
#[test]
fn command_names_parts() {
    let o = run(&["scene", "docs/examples/level.json", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 5);
    assert_eq!(a[1]["b"], json!("cart"));
    assert_eq!(a[1]["parts"], json!([23, 1]));
    assert_eq!(a[2]["parts"], json!([45, null]));
    // A scene without composites prints no `parts`.
    let o = run(&["scene", "docs/examples/scene.json", "--json"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("parts"));

    let dir = std::env::temp_dir().join(format!("kasanari-level-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, v: serde_json::Value| {
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_str().unwrap().to_string()
    };
    let scene = level();
    let shape = |id: &str| {
        serde_json::to_value(
            &scene
                .shapes
                .iter()
                .find(|e| e.label(0) == id)
                .unwrap()
                .shape,
        )
        .unwrap()
    };
    let pairs = file(
        "pairs.json",
        json!({"pairs": [
            {"a": shape("ground"), "b": shape("cart"), "prediction": 0.1},
            {"a": shape("ledge"), "b": {"kind": "circle", "center": [-5, 6], "radius": 0.5}},
            {"a": {"kind": "circle", "center": [0, 0], "radius": 1}, "b": {"kind": "circle", "center": [3, 0], "radius": 1}}
        ]}),
    );
    let o = run(&["pairs", &pairs, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["parts"]["contact"], json!([23, 1]));
    assert_eq!(v[0]["parts"]["closest"], json!(null));
    // The manifold's deepest part pair: the tile under the left wheel, as
    // for the contact (a speculative neighbour once took it: see
    // `composites::speculative_tile_manifold_points_lie_on_the_shapes` in
    // the broadphase tests).
    assert_eq!(v[0]["parts"]["manifold"][0], json!(23), "{v}");
    assert_eq!(v[0]["parts"]["manifold"][1], json!(1));
    // Apart above the ledge's second segment (x from -2 to -4, at x = -5 the
    // third): the closest points' parts.
    assert_eq!(v[1]["intersects"], json!(false));
    assert_eq!(v[1]["parts"]["closest"], json!([2, null]));
    assert!(v[2].get("parts").is_none());
    let svg = dir.join("pairs.svg");
    assert!(
        run(&["pairs", &pairs, "--svg", svg.to_str().unwrap()])
            .status
            .success()
    );

    let rays = file(
        "rays.json",
        json!({"shapes": serde_json::to_value(&scene).unwrap()["shapes"],
               "rays": [{"origin": [5.5, 10], "dir": [0, -1]},
                        {"origin": [-20, 0.5], "dir": [1, 0]},
                        {"origin": [4, 20], "dir": [0, 1]}]}),
    );
    let o = run(&["rays", &rays, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Onto the ball (not a composite: no part), into the rock's foot
    // (part 0 or 1 of the L), a miss.
    assert_eq!(v[0]["shape"], json!(4));
    assert!(v[0].get("part").is_none());
    assert_eq!(v[1]["shape"], json!(2));
    assert_eq!(v[1]["toi"], json!(14.0));
    assert!(v[1]["part"].is_u64());
    assert_eq!(v[2]["hit"], json!(false));
    let svg = dir.join("rays.svg");
    assert!(
        run(&["rays", &rays, "--svg", svg.to_str().unwrap()])
            .status
            .success()
    );

    let casts = file(
        "casts.json",
        json!({"casts": [
            {"a": {"kind": "circle", "center": [5.5, 6], "radius": 0.5}, "vel_a": [0, -1],
             "b": shape("ground"), "vel_b": [0, 0]},
            {"a": {"kind": "circle", "center": [0, 0], "radius": 1}, "vel_a": [1, 0],
             "b": {"kind": "circle", "center": [5, 0], "radius": 1}, "vel_b": [0, 0]}
        ]}),
    );
    let o = run(&["casts", &casts, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["parts"], json!([null, 45]));
    assert!((v[0]["toi"].as_f64().unwrap() - 4.5).abs() < 1e-9);
    assert!(v[1].get("parts").is_none());
    let svg = dir.join("casts.svg");
    assert!(
        run(&["casts", &casts, "--svg", svg.to_str().unwrap()])
            .status
            .success()
    );

    let svg = dir.join("level.svg");
    assert!(
        run(&[
            "scene",
            "docs/examples/level.json",
            "--svg",
            svg.to_str().unwrap()
        ])
        .status
        .success()
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    // The chain as a polyline, the tile map's merged rows, the L's parts.
    assert!(picture.contains("<polyline"), "no chain");
    assert!(
        picture.contains("width=\"5\" height=\"1\""),
        "no merged run"
    );
    assert!(picture.contains("stroke-dasharray"), "no diagonals");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library's rays and casts name parts too.
#[test]
fn library_rays_and_casts_name_parts() {
    let scene = serde_json::to_value(level()).unwrap();
    let file = parse_rays(
        json!({"shapes": scene["shapes"], "rays": [{"origin": [-1.5, 9], "dir": [0, -1]}]})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let rays = file.world::<f32>().unwrap();
    let (i, hit) = rays.first_hit(&rays.rays[0]).unwrap().unwrap();
    // The crate on the ledge, above it.
    assert_eq!((i, hit.toi), (5, 3.125));
    let below = parse_rays(
        json!({"shapes": scene["shapes"], "rays": [{"origin": [-3, 9], "dir": [0, -1]}]})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let rays = below.world::<f64>().unwrap();
    let (i, hit) = rays.first_hit(&rays.rays[0]).unwrap().unwrap();
    // The ledge's second segment, from (-2, 5) to (-4, 4): y = 4.5 at x = -3.
    assert_eq!(i, 1);
    assert!((hit.toi - 4.5).abs() < 1e-12, "{hit:?}");
    assert_eq!(rays.hit_part(&rays.rays[0], i), Some(1));
    assert_eq!(rays.hit_part(&rays.rays[0], 7), None);
    let casts = parse_casts(
        json!({"casts": [{"a": {"kind": "compound", "center": [0, 10], "angle": 0,
                                 "parts": [{"kind": "circle", "center": [1, 0], "radius": 0.5},
                                           {"kind": "circle", "center": [-1, -1], "radius": 0.5}]},
                          "vel_a": [0, -1],
                          "b": {"kind": "polyline", "points": [[-5, 0], [0, 0], [5, 0]]},
                          "vel_b": [0, 0]}]})
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    let (hit, parts) = casts.casts[0].answer_with_parts::<f64>().unwrap();
    let hit = hit.unwrap();
    assert!((hit.toi - 8.5).abs() < 1e-9, "{hit:?}");
    assert_eq!((parts.a, parts.b), (Some(1), Some(0)));
}
