//! `kasanari pairs` on a file holding regular 200,000-gons (written to a
//! temporary directory, not kept in the repository): every pair answers,
//! with the values known by construction (circumradius along a vertex,
//! inradius `R cos(π/n)` across an edge). Before the core kernel's
//! linear-time paths, one such pair took the command over half a minute.

use std::f64::consts::{PI, TAU};
use std::process::Command;

const N: usize = 200_000;

fn regular(n: usize, r: f64, cx: f64, cy: f64, turn: f64) -> serde_json::Value {
    let v: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let t = turn + TAU * k as f64 / n as f64;
            [cx + r * t.cos(), cy + r * t.sin()]
        })
        .collect();
    serde_json::json!({"kind": "polygon", "vertices": v})
}

#[test]
fn pairs_with_200k_vertex_polygons() {
    let (c, s) = ((PI / N as f64).cos(), (PI / N as f64).sin());
    let big = regular(N, 10.0, 0.0, 0.0, 0.0);
    let circle =
        |x: f64, y: f64| serde_json::json!({"kind": "circle", "center": [x, y], "radius": 1.0});
    let file = serde_json::json!({
        "version": 1,
        "pairs": [
            // Off the vertex on +x: 12 − 10 − 1 apart.
            {"a": big, "b": circle(12.0, 0.0)},
            // Across the middle of edge 0, inside by 0.5: depth 1.5.
            {"a": big, "b": circle(9.5 * c, 9.5 * s)},
            // A copy turned half a turn, face to face, 0.25 apart.
            {"a": big, "b": regular(N, 10.0, (20.0 * c + 0.25) * c, (20.0 * c + 0.25) * s, PI)},
        ]
    });
    let dir = std::env::temp_dir().join(format!("kasanari-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pairs.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_kasanari"))
        .args(["pairs", path.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 3);
    let num = |x: &serde_json::Value| x.as_f64().unwrap();
    assert_eq!(a[0]["intersects"], false);
    assert!((num(&a[0]["distance"]) - 1.0).abs() < 1e-9, "{}", a[0]);
    assert_eq!(a[1]["intersects"], true);
    let inradius = 10.0 * c;
    assert!(
        (num(&a[1]["depth"]) - (inradius - 9.5 + 1.0)).abs() < 1e-9,
        "{}",
        a[1]
    );
    let n = &a[1]["normal"];
    assert!(
        (num(&n[0]) - c).abs() < 1e-9 && (num(&n[1]) - s).abs() < 1e-9,
        "{}",
        a[1]
    );
    assert_eq!(a[2]["intersects"], false);
    assert!((num(&a[2]["distance"]) - 0.25).abs() < 1e-9, "{}", a[2]);
}
