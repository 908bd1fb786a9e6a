//! The `kasanari` command as a user runs it: the example files, every bad file
//! of `docs/examples/bad/` (exit status 2 and a message, never a panic), flags.

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
    assert_eq!(a.len(), 5);
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
    for k in ["distance", "closest_a", "closest_b"] {
        rest.as_object_mut().unwrap().remove(k);
    }
    assert_eq!(
        rest,
        serde_json::json!({"intersects": false, "depth": null, "normal": null, "point_a": null, "point_b": null})
    );
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
    assert!(
        out.contains("objects                   300")
            && out.contains("all pairs (nC2)           44850"),
        "{out}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("fill=\"#f4a261\""));
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
