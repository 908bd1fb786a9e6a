//! The `kasanari` command as a user runs it: the example files, every bad file
//! of `docs/examples/bad/`, `docs/examples/bad-rays/` and `docs/examples/bad-casts/` (exit status 2 and a
//! message, never a panic), flags, pictures.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kasanari"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn scene_file_lists_colliding_pairs() {
    let o = run(&["scene", "docs/examples/scene.json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("wall × ball: normal (0.0000, 1.0000), depth 0.250000"),
        "{out}"
    );
    // Filtered: the two bullets never pair.
    assert!(!out.contains("bullet × bullet2"));
    let o = run(&[
        "scene",
        "docs/examples/scene.json",
        "--json",
        "--precision",
        "f32",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .any(|p| p["a"] == "wall" && p["b"] == "ball")
    );
}

#[test]
fn pairs_file_answers_in_order() {
    let o = run(&["pairs", "docs/examples/pairs.json", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 7);
    assert_eq!(a[0]["intersects"], true);
    assert_eq!(a[0]["depth"], 0.5);
    assert_eq!(a[0]["normal"], serde_json::json!([1.0, 0.0]));
    // Seed 004's miss: exact says they collide (depth 1 - 0.6717).
    assert_eq!(a[2]["intersects"], true);
    assert!((a[2]["depth"].as_f64().unwrap() - (1.0 - 0.671_711_218)).abs() < 1e-6);
    for p in &a[..4] {
        assert_eq!(p["distance"], 0.0);
        assert!(p["closest_a"].is_null() && p["closest_b"].is_null());
    }
    // The square's right side (x = 4) faces the capsule's core (x = 5,
    // radius 0.5): 0.5 apart, the closest points straight across.
    let (ca, cb) = (&a[4]["closest_a"], &a[4]["closest_b"]);
    assert_eq!(a[4]["distance"], 0.5);
    assert_eq!((ca[0].as_f64(), cb[0].as_f64()), (Some(4.0), Some(4.5)));
    assert_eq!(ca[1], cb[1]);
    assert!((0.0..=4.0).contains(&ca[1].as_f64().unwrap()));
    let mut rest = a[4].clone();
    for k in ["distance", "closest_a", "closest_b", "manifold"] {
        rest.as_object_mut().unwrap().remove(k);
    }
    assert_eq!(
        rest,
        serde_json::json!({"intersects": false, "depth": null, "normal": null, "point_a": null, "point_b": null})
    );
    // Within its prediction (1), the capsule's flat side along the square's
    // right side: two speculative points, 0.5 apart, under the capsule's
    // core ends clipped to the square's side.
    let m = &a[4]["manifold"];
    assert_eq!(m["normal"], serde_json::json!([1.0, 0.0]));
    let points = m["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        assert_eq!(p["separation"], 0.5);
        assert_eq!(p["point_a"][0], 4.0);
    }
    // A crate sunk 1/16 into a floor: both bottom corners, the floor's top
    // edge under each.
    let m = &a[5]["manifold"];
    assert_eq!(m["normal"], serde_json::json!([0.0, 1.0]));
    let points = m["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["separation"], -0.0625);
    assert_eq!(points[1]["separation"], -0.0625);
    assert_eq!(points[0]["id"], serde_json::json!(["edge 2", "vertex 0"]));
    assert_eq!(points[1]["id"], serde_json::json!(["edge 2", "vertex 1"]));
    // Apart by 0.121 with prediction 0.5, tilted by 0.2: only the low corner
    // is within it (the other is 2 sin 0.2 higher).
    assert_eq!(a[6]["manifold"]["points"].as_array().unwrap().len(), 1);
    // Apart beyond the prediction (0, omitted): no manifold.
    assert!(a[2]["manifold"].is_object() && a[3]["manifold"].is_object());
}

#[test]
fn bad_files_exit_2_with_a_message() {
    let dir = root().join("docs/examples/bad");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let o = run(&["scene", path.to_str().unwrap()]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", path.display());
        assert!(
            err.starts_with("kasanari: ") && !err.contains("panicked"),
            "{err}"
        );
        seen += 1;
    }
    assert!(seen >= 6);
    for args in [
        &["--n", "-3"][..],
        &["--precision", "f16"],
        &["scene"],
        &["frobnicate"],
        &["pairs", "missing.json"],
        &["--cell-size", "0"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!text(&o).1.contains("panicked"));
    }
}

#[test]
fn rays_file_answers_in_order() {
    for precision in ["f32", "f64"] {
        let o = run(&[
            "rays",
            "docs/examples/rays.json",
            "--json",
            "--precision",
            precision,
        ]);
        assert!(o.status.success(), "{}", text(&o).1);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 10);
        // From (-5, 0) along +x into the unit ball (shapes[2]) at the origin.
        assert_eq!(
            a[0],
            serde_json::json!({"hit": true, "shape": 2, "toi": 4.0, "point": [-1.0, 0.0], "normal": [-1.0, 0.0]})
        );
        // Nothing up there; and the floor beyond max_toi.
        let miss = serde_json::json!({"hit": false, "shape": null, "toi": null, "point": null, "normal": null});
        assert_eq!((&a[2], &a[6]), (&miss, &miss));
        // Inside the capsule: solid at once, hollow where it leaves.
        assert_eq!(a[3]["toi"], 0.0);
        assert_eq!(a[3]["point"], serde_json::json!([4.0, 2.0]));
        assert_eq!(a[4]["toi"], 0.5);
        assert_eq!(a[4]["normal"], serde_json::json!([0.0, -1.0]));
        // The tie at the wall's foot goes to the floor, shapes[0].
        assert_eq!(a[9]["shape"], 0);
    }
    let o = run(&["rays", "docs/examples/rays.json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("10 rays, 8 hit"), "{out}");
    assert!(
        out.contains(
            "ray 0: hits ball (circle, shapes[2]) at toi 4.000000, point (-1.0000, 0.0000), normal (-1.0000, 0.0000)"
        ),
        "{out}"
    );
    assert!(out.contains("ray 2: no hit"), "{out}");
}

#[test]
fn bad_rays_files_exit_2_with_their_message() {
    let expected = [
        (
            "bad-shape.json",
            "shapes[0] (id rock, circle): radius must be positive, got -1",
        ),
        ("extra-field.json", "unknown field `length`"),
        ("malformed.json", "invalid file: EOF while parsing"),
        ("missing-dir.json", "missing field `dir`"),
        ("missing-rays.json", "missing field `rays`"),
        ("negative-max-toi.json", "rays[0]: max_toi must be >= 0"),
        ("not-a-bool.json", "expected a boolean"),
        ("out-of-range.json", "number out of range"),
        // f64 holds the origin, 1e200, but cannot cast from there; f32
        // cannot even hold it (below).
        (
            "too-far.json",
            "rays[0], shapes[0] (circle): the ray origin or query point is too far",
        ),
        ("version.json", "unsupported format version 2"),
        ("zero-dir.json", "rays[0]: dir is zero"),
    ];
    let dir = root().join("docs/examples/bad-rays");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        expected
            .iter()
            .map(|(f, _)| f.to_string())
            .collect::<Vec<_>>()
    );
    for (name, says) in expected {
        let path = dir.join(name);
        for precision in ["f32", "f64"] {
            let o = run(&["rays", path.to_str().unwrap(), "--precision", precision]);
            let (_, err) = text(&o);
            let says = match (name, precision) {
                ("too-far.json", "f32") => {
                    "rays[0]: origin [1e200, 0.0] is beyond the range of f32"
                }
                _ => says,
            };
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(
                err.starts_with("kasanari: ") && err.contains(says) && !err.contains("panicked"),
                "{name}: {err}"
            );
        }
    }
    for args in [
        &["rays"][..],
        &["rays", "docs/examples/rays.json", "--cell-size", "1"],
        &["rays", "docs/examples/rays.json", "extra.json"],
        &["rays", "docs/examples/rays.json", "--svg"],
        &["rays", "missing.json"],
        // A scene is not a rays file.
        &["rays", "docs/examples/scene.json"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!text(&o).1.contains("panicked"));
    }
}

#[test]
fn rays_and_pairs_draw() {
    let dir = std::env::temp_dir().join(format!("kasanari-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rays = dir.join("rays.svg");
    for precision in ["f32", "f64"] {
        let o = run(&[
            "rays",
            "docs/examples/rays.json",
            "--svg",
            rays.to_str().unwrap(),
            "--precision",
            precision,
        ]);
        assert!(o.status.success(), "{}", text(&o).1);
        let picture = std::fs::read_to_string(&rays).unwrap();
        assert!(picture.starts_with("<svg") && picture.ends_with("</svg>\n"));
        // Hit shapes filled, hit points as red dots, the rays in blue.
        assert!(picture.contains("fill=\"#f4a261\""));
        assert!(picture.matches("fill=\"#c1121f\"/>").count() >= 8);
        assert!(picture.contains("stroke=\"#1d4ed8\""));
        assert!(!picture.contains("NaN") && !picture.contains("inf"));
        std::fs::remove_file(&rays).unwrap();
    }
    let pairs = dir.join("pairs.svg");
    let o = run(&[
        "pairs",
        "docs/examples/pairs.json",
        "--svg",
        pairs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let picture = std::fs::read_to_string(&pairs).unwrap();
    assert!(picture.starts_with("<svg") && picture.ends_with("</svg>\n"));
    // One panel per pair; the separated pair's dashed segment and distance.
    assert_eq!(picture.matches("<svg x=").count(), 7);
    assert!(picture.contains("pair 4: polygon × capsule, distance 0.5"));
    assert!(picture.contains("stroke-dasharray"));
    assert!(picture.contains(">0.5</text>"));
    assert!(!picture.contains("NaN") && !picture.contains("inf"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn small_arena_runs_and_draws() {
    let svg = std::env::temp_dir().join(format!("kasanari-arena-{}.svg", std::process::id()));
    let o = run(&[
        "--n",
        "300",
        "--frames",
        "12",
        "--seed",
        "7",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // 300 shapes, 3 compound bodies (one per hundred, at least three) and
    // the tile-map floor.
    assert!(
        out.contains("objects                   304")
            && out.contains("all pairs (nC2)           46056")
            && out.contains("with a composite / frame"),
        "{out}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("fill=\"#f4a261\""));
    // The floor's merged bottom row, as wide as the arena (⌈√1800⌉ = 43 tiles).
    assert!(picture.contains("width=\"43\" height=\"1\""), "no floor");
    std::fs::remove_file(&svg).ok();
    let o = run(&[
        "--n",
        "200",
        "--frames",
        "5",
        "--dim",
        "3",
        "--precision",
        "f64",
    ]);
    assert!(o.status.success());
    assert!(run(&["--help"]).status.success());
}

/// `|a − b|` for JSON numbers.
fn off(a: &serde_json::Value, b: f64) -> f64 {
    (a.as_f64().unwrap() - b).abs()
}

#[test]
fn casts_file_answers_in_order() {
    for (precision, tol) in [("f32", 1e-4), ("f64", 1e-9)] {
        let o = run(&[
            "casts",
            "docs/examples/casts.json",
            "--json",
            "--precision",
            precision,
        ]);
        assert!(o.status.success(), "{}", text(&o).1);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 8);
        // A unit ball 9 units left of a wall's face at 2 per second: 4.25.
        assert_eq!(a[0]["hit"], true);
        assert_eq!(a[0]["status"], "hit");
        assert!(off(&a[0]["toi"], 4.25) <= tol, "{}", a[0]);
        assert!(off(&a[0]["normal"][0], 1.0) <= tol && off(&a[0]["normal"][1], 0.0) <= tol);
        for p in ["point_a", "point_b"] {
            assert!(
                off(&a[0][p][0], -0.5) <= tol && off(&a[0][p][1], 0.0) <= tol,
                "{}",
                a[0]
            );
        }
        // Two balls head on: the gap of 8 closes at 4; they meet at x = 3.
        assert!(off(&a[1]["toi"], 2.0) <= tol);
        assert!(off(&a[1]["point_a"][0], 3.0) <= tol);
        // Stopped short by max_toi; rolling along the floor; passing over the wall.
        let miss = serde_json::json!({"hit": false, "toi": null, "normal": null, "point_a": null, "point_b": null, "status": null});
        assert_eq!((&a[2], &a[4], &a[7]), (&miss, &miss, &miss));
        // The triangle's tip falls from y = 3 onto the capsule's top at y = 0.5.
        assert!(off(&a[3]["toi"], 2.5) <= tol);
        assert!(off(&a[3]["normal"][1], 1.0) <= tol);
        // Resting on the floor: in contact at 0.
        assert_eq!(a[5]["status"], "penetrating");
        assert_eq!(a[5]["toi"], 0.0);
        // The segment meets the turned ellipse at its highest point.
        assert_eq!(a[6]["hit"], true);
        let toi = a[6]["toi"].as_f64().unwrap();
        // The ellipse's support height along +y: sqrt((2 sin .5)^2 + (cos .5)^2).
        let top = ((2.0 * 0.5f64.sin()).powi(2) + 0.5f64.cos().powi(2)).sqrt();
        assert!((toi - (6.0 - top) / 2.0).abs() <= 10.0 * tol, "{toi}");
    }
    let o = run(&["casts", "docs/examples/casts.json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("8 casts, 5 hit"), "{out}");
    assert!(out.contains("cast 2 (aabb × polygon): no hit"), "{out}");
}

#[test]
fn bad_casts_files_exit_2_with_their_message() {
    let expected = [
        (
            "bad-shape.json",
            "casts[0].a (circle): radius must be positive, got -1",
        ),
        ("extra-field.json", "unknown field `speed`"),
        ("malformed.json", "invalid file: EOF while parsing"),
        ("missing-casts.json", "unknown field `shapes`"),
        ("missing-vel.json", "missing field `vel_b`"),
        (
            "negative-max-toi.json",
            "casts[0].max_toi: max_toi must be >= 0",
        ),
        ("out-of-range.json", "number out of range"),
        ("version.json", "unsupported format version 2"),
    ];
    let dir = root().join("docs/examples/bad-casts");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        expected
            .iter()
            .map(|(f, _)| f.to_string())
            .collect::<Vec<_>>()
    );
    for (name, says) in expected {
        let path = dir.join(name);
        for precision in ["f32", "f64"] {
            let o = run(&["casts", path.to_str().unwrap(), "--precision", precision]);
            let (_, err) = text(&o);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(
                err.starts_with("kasanari: ") && err.contains(says) && !err.contains("panicked"),
                "{name}: {err}"
            );
        }
    }
    // A velocity that f64 holds but f32 does not.
    let tmp = std::env::temp_dir().join(format!("kasanari-cast-{}.json", std::process::id()));
    std::fs::write(
        &tmp,
        r#"{"casts": [{"a": {"kind": "point", "p": [0, 0]}, "vel_a": [1e39, 0], "b": {"kind": "point", "p": [1, 0]}, "vel_b": [0, 0]}]}"#,
    )
    .unwrap();
    let o = run(&["casts", tmp.to_str().unwrap(), "--precision", "f32"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("casts[0].vel_a: vel_a [1e39, 0.0] is beyond the range of f32"),
        "{err}"
    );
    let o = run(&["casts", tmp.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o).1);
    std::fs::remove_file(&tmp).ok();
    for args in [
        &["casts"][..],
        &["casts", "docs/examples/casts.json", "--cell-size", "1"],
        &["casts", "docs/examples/casts.json", "extra.json"],
        &["casts", "missing.json"],
        // A rays file is not a casts file.
        &["casts", "docs/examples/rays.json"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!text(&o).1.contains("panicked"));
    }
}

#[test]
fn casts_draw() {
    let svg = std::env::temp_dir().join(format!("kasanari-casts-{}.svg", std::process::id()));
    let o = run(&[
        "casts",
        "docs/examples/casts.json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(
        picture.starts_with("<svg") || picture.starts_with("<?xml"),
        "{}",
        &picture[..60]
    );
    assert!(
        picture.contains("cast 0: circle × obb, hit at 4.2500"),
        "no caption"
    );
    assert!(picture.contains("in contact at 0"));
    std::fs::remove_file(&svg).ok();
}
