//! Turns criterion's results (`target/criterion`) into `docs/benchmarks.md` and
//! its plots (`docs/benchmarks-broadphase.svg`, `docs/benchmarks-frame.svg`,
//! the vertex-count plots `docs/benchmarks-vertices-{intersects,contact,distance}.svg`).
//!
//! Run after the benchmarks:
//!
//! ```sh
//! cargo bench -p kasanari-benches
//! cargo run -p kasanari-benches --bin report --release
//! ```
//!
//! Groups are read by name (`narrow_bool_f32/circle_obb` with functions
//! `kasanari` and `parry`, `distance_f32/ball_ball` and `ray_cast_f32/ball`
//! with `kasanari`, `typed`
//! and `parry`, `broad_update_uniform_f32` with `grid`/`bvh` and a
//! parameter N, `world_ray_f32/short` with `kasanari`/`parry` and N,
//! `composite_contact_f32/box_polyline1000` with `kasanari` and `parry`, ...);
//! a missing result is shown as "—", never invented. The hand-written
//! analysis in `benches/notes.md` is appended as it is.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One measurement: mean time per iteration, in nanoseconds.
#[derive(Debug, Clone, Copy)]
struct Estimate {
    mean_ns: f64,
}

/// (group, function, parameter) → estimate.
type Results = BTreeMap<(String, String, String), Estimate>;

fn main() {
    let root = workspace_root();
    let criterion = std::env::var_os("CRITERION_DIR")
        .map_or_else(|| root.join("target/criterion"), PathBuf::from);
    let results = load(&criterion);
    if results.is_empty() {
        eprintln!(
            "no criterion results under {}: run `cargo bench -p kasanari-benches` first",
            criterion.display()
        );
        std::process::exit(1);
    }
    let notes = std::fs::read_to_string(root.join("benches/notes.md")).unwrap_or_default();
    let md = report(&results, &notes);
    let docs = root.join("docs");
    write(&docs.join("benchmarks.md"), &md);
    write(
        &docs.join("benchmarks-broadphase.svg"),
        &broad_phase_plot(&results),
    );
    write(&docs.join("benchmarks-frame.svg"), &frame_plot(&results));
    for query in VERTEX_QUERIES {
        write(
            &docs.join(format!("benchmarks-vertices-{query}.svg")),
            &vertices_plot(&results, query),
        );
    }
    eprintln!(
        "wrote docs/benchmarks.md and its plots (docs/benchmarks-*.svg) from {} results",
        results.len()
    );
}

fn write(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}

fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map_or(here.clone(), Path::to_path_buf)
}

/// Reads every `new/benchmark.json` + `new/estimates.json` pair below `dir`.
fn load(dir: &Path) -> Results {
    let mut out = Results::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "new") {
                    if let Some((key, est)) = read_result(&p) {
                        out.insert(key, est);
                    }
                } else {
                    stack.push(p);
                }
            }
        }
    }
    out
}

fn read_result(dir: &Path) -> Option<((String, String, String), Estimate)> {
    let bench: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("benchmark.json")).ok()?).ok()?;
    let est: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("estimates.json")).ok()?).ok()?;
    let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    let key = (
        s(&bench["group_id"]),
        s(&bench["function_id"]),
        s(&bench["value_str"]),
    );
    let mean_ns = est["mean"]["point_estimate"].as_f64()?;
    Some((key, Estimate { mean_ns }))
}

fn get(r: &Results, group: &str, function: &str, param: &str) -> Option<f64> {
    r.get(&(group.to_string(), function.to_string(), param.to_string()))
        .map(|e| e.mean_ns)
}

/// A time in adaptive units.
fn time(ns: Option<f64>) -> String {
    match ns {
        None => "—".into(),
        Some(t) if t < 1e3 => format!("{t:.1} ns"),
        Some(t) if t < 1e6 => format!("{:.2} µs", t / 1e3),
        Some(t) if t < 1e9 => format!("{:.2} ms", t / 1e6),
        Some(t) => format!("{:.2} s", t / 1e9),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b?)
}

fn ratio_cell(r: Option<f64>) -> String {
    r.map_or("—".into(), |r| format!("{r:.2}×"))
}

fn met(r: Option<f64>, goal: f64) -> &'static str {
    match r {
        None => "not measured",
        Some(r) if r <= goal => "met",
        Some(_) => "**missed**",
    }
}

/// The distinct second halves of groups `prefix/<case>`, in order of first use.
fn cases(r: &Results, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = r
        .keys()
        .filter_map(|(g, _, _)| {
            g.strip_prefix(prefix)
                .and_then(|c| c.strip_prefix('/'))
                .map(str::to_string)
        })
        .collect();
    v.dedup();
    v.sort();
    v.dedup();
    v
}

/// The parameters measured for a group and function, numerically sorted.
fn params(r: &Results, group: &str, function: &str) -> Vec<String> {
    let mut v: Vec<String> = r
        .keys()
        .filter(|(g, f, _)| g == group && f == function)
        .map(|(_, _, p)| p.clone())
        .collect();
    v.sort_by_key(|p| p.parse::<u64>().unwrap_or(u64::MAX));
    v
}

const BATCH: f64 = 1024.0;

/// Queries per iteration of the world-query benchmarks.
const WORLD_BATCH: f64 = 256.0;

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let rustc = std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let date = std::process::Command::new("date")
        .arg("-u")
        .arg("+%Y-%m-%d %H:%M UTC")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores; {rustc}; generated {date}")
}

fn report(r: &Results, notes: &str) -> String {
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Benchmarks: kasanari beside parry2d\n");
    let _ = writeln!(
        w,
        "Generated by `benches/src/bin/report.rs` from criterion's results; do not edit by hand \
         (the analysis at the end comes from `benches/notes.md`).\n"
    );
    let _ = writeln!(w, "- Machine: {}", machine());
    let _ = writeln!(
        w,
        "- Reproduce: `cargo bench -p kasanari-benches && cargo run -p kasanari-benches --bin report --release`"
    );
    let _ = writeln!(
        w,
        "- Ratios are kasanari time / parry time measured in the same run on the same inputs: \
         below 1 kasanari is faster. Shared 2-core machines are noisy; ratios are what to read.\n"
    );

    // 1. Narrow phase.
    let _ = writeln!(
        w,
        "## 1. Narrow phase (per pair; batches of 1024 prebuilt pairs)\n"
    );
    for (kind, goal) in [("bool", 0.7), ("contact", 0.5), ("manifold", 0.5)] {
        for prec in ["f32", "f64"] {
            let prefix = format!("narrow_{kind}_{prec}");
            let all = cases(r, &prefix);
            if all.is_empty() {
                continue;
            }
            let peer = if prec == "f32" {
                "parry2d"
            } else {
                "parry2d-f64"
            };
            let _ = writeln!(
                w,
                "### {} ({prec}, vs {peer}; goal ≤ {goal}×)\n",
                match kind {
                    "bool" => "Boolean",
                    "contact" => "Contact",
                    _ => "Contact manifold (prediction 0; parry's persistent `contact_manifolds`)",
                }
            );
            let _ = writeln!(
                w,
                "| pair | kasanari | parry | ratio | goal |\n|---|---|---|---|---|"
            );
            for c in all.iter().filter(|c| !c.starts_with("ellipse")) {
                let g = format!("{prefix}/{c}");
                let (k, p) = (get(r, &g, "kasanari", ""), get(r, &g, "parry", ""));
                let rt = ratio(k, p);
                let _ = writeln!(
                    w,
                    "| {c} | {} | {} | {} | {} |",
                    time(k.map(|t| t / BATCH)),
                    time(p.map(|t| t / BATCH)),
                    ratio_cell(rt),
                    met(rt, goal)
                );
            }
            let ellipses: Vec<&String> = all.iter().filter(|c| c.starts_with("ellipse")).collect();
            if !ellipses.is_empty() {
                let cc = get(r, &format!("{prefix}/circle_circle"), "kasanari", "");
                let _ = writeln!(
                    w,
                    "\nEllipse pairs (no parry equivalent), beside kasanari's circle–circle ({}):\n",
                    time(cc.map(|t| t / BATCH))
                );
                let _ = writeln!(w, "| pair | kasanari | × circle–circle |\n|---|---|---|");
                for c in ellipses {
                    let k = get(r, &format!("{prefix}/{c}"), "kasanari", "");
                    let _ = writeln!(
                        w,
                        "| {c} | {} | {} |",
                        time(k.map(|t| t / BATCH)),
                        ratio_cell(ratio(k, cc))
                    );
                }
            }
            let _ = writeln!(w);
        }
    }

    // 1b. Distance and closest points (benches/benches/distance.rs).
    for query in ["distance", "closest_points"] {
        for prec in ["f32", "f64"] {
            let prefix = format!("{query}_{prec}");
            let all = cases(r, &prefix);
            if all.is_empty() {
                continue;
            }
            let _ = writeln!(
                w,
                "### {} ({prec}, vs {}; goal ≤ 0.5×)\n",
                if query == "distance" {
                    "Distance"
                } else {
                    "Closest points"
                },
                if prec == "f32" {
                    "parry2d"
                } else {
                    "parry2d-f64"
                }
            );
            let _ = writeln!(
                w,
                "| pair | kasanari | typed kernel | parry | ratio | typed ratio | goal |\n\
                 |---|---|---|---|---|---|---|"
            );
            for c in &all {
                let g = format!("{prefix}/{c}");
                let (k, t, p) = (
                    get(r, &g, "kasanari", ""),
                    get(r, &g, "typed", ""),
                    get(r, &g, "parry", ""),
                );
                let _ = writeln!(
                    w,
                    "| {c} | {} | {} | {} | {} | {} | {} |",
                    time(k.map(|x| x / BATCH)),
                    time(t.map(|x| x / BATCH)),
                    time(p.map(|x| x / BATCH)),
                    ratio_cell(ratio(k, p)),
                    ratio_cell(ratio(t, p)),
                    met(ratio(k, p), 0.5)
                );
            }
            let _ = writeln!(w);
        }
    }

    // 1c. Ray casts against one shape (benches/benches/rays.rs).
    for prec in ["f32", "f64"] {
        let prefix = format!("ray_cast_{prec}");
        let all = cases(r, &prefix);
        if all.is_empty() {
            continue;
        }
        let _ = writeln!(
            w,
            "### Ray casts ({prec}, vs {}; goal ≤ 0.7×)\n",
            if prec == "f32" {
                "parry2d"
            } else {
                "parry2d-f64"
            }
        );
        let _ = writeln!(
            w,
            "| shape | kasanari | typed | parry | ratio | typed ratio | goal |\n\
             |---|---|---|---|---|---|---|"
        );
        for c in &all {
            let g = format!("{prefix}/{c}");
            let (k, t, p) = (
                get(r, &g, "kasanari", ""),
                get(r, &g, "typed", ""),
                get(r, &g, "parry", ""),
            );
            let _ = writeln!(
                w,
                "| {c} | {} | {} | {} | {} | {} | {} |",
                time(k.map(|x| x / BATCH)),
                time(t.map(|x| x / BATCH)),
                time(p.map(|x| x / BATCH)),
                ratio_cell(ratio(k, p)),
                ratio_cell(ratio(t, p)),
                met(ratio(k, p), 0.7)
            );
        }
        let _ = writeln!(w);
    }

    // 1d. Linear shape casts (benches/benches/casts.rs).
    for prec in ["f32", "f64"] {
        let prefix = format!("cast_shapes_{prec}");
        let all = cases(r, &prefix);
        if all.is_empty() {
            continue;
        }
        let _ = writeln!(
            w,
            "### Shape casts ({prec}, vs {}; goal ≤ 0.5×)\n",
            if prec == "f32" {
                "parry2d"
            } else {
                "parry2d-f64"
            }
        );
        let _ = writeln!(
            w,
            "| pair | kasanari | parry | ratio | goal |\n|---|---|---|---|---|"
        );
        for c in &all {
            let g = format!("{prefix}/{c}");
            let (k, p) = (get(r, &g, "kasanari", ""), get(r, &g, "parry", ""));
            let _ = writeln!(
                w,
                "| {c} | {} | {} | {} | {} |",
                time(k.map(|x| x / BATCH)),
                time(p.map(|x| x / BATCH)),
                ratio_cell(ratio(k, p)),
                met(ratio(k, p), 0.5)
            );
        }
        let _ = writeln!(w);
    }

    // 1e. Time of impact with rotation (benches/benches/toi.rs).
    let toi: Vec<&str> = ["f32", "f64"]
        .into_iter()
        .filter(|prec| get(r, &format!("toi_{prec}/cuboid_cuboid"), "kasanari", "").is_some())
        .collect();
    if !toi.is_empty() {
        let _ = writeln!(
            w,
            "### Time of impact with rotation (cuboid–cuboid, vs parry's `cast_shapes_nonlinear`; goal ≤ 0.7×)\n"
        );
        let _ = writeln!(
            w,
            "| precision | kasanari | parry | ratio | goal |\n|---|---|---|---|---|"
        );
        for prec in toi {
            let g = format!("toi_{prec}/cuboid_cuboid");
            let (k, p) = (get(r, &g, "kasanari", ""), get(r, &g, "parry", ""));
            let _ = writeln!(
                w,
                "| {prec} | {} | {} | {} | {} |",
                time(k.map(|x| x / BATCH)),
                time(p.map(|x| x / BATCH)),
                ratio_cell(ratio(k, p)),
                met(ratio(k, p), 0.7)
            );
        }
        let _ = writeln!(w);
    }

    composites_section(r, w);

    // 2. Seed 002.
    let _ = writeln!(
        w,
        "## 2. Point in a rotated box: local frame vs cross products (seed 002)\n"
    );
    let _ = writeln!(
        w,
        "Seed 002 measured the local-frame method about 6× faster.\n"
    );
    let _ = writeln!(
        w,
        "| precision | local frame | cross product | cross / local |\n|---|---|---|---|"
    );
    for prec in ["f32", "f64"] {
        let g = format!("point_obb_methods_{prec}");
        let (l, c) = (
            get(r, &g, "local_frame", ""),
            get(r, &g, "cross_product", ""),
        );
        let _ = writeln!(
            w,
            "| {prec} | {} | {} | {} |",
            time(l.map(|t| t / BATCH)),
            time(c.map(|t| t / BATCH)),
            ratio_cell(ratio(c, l))
        );
    }
    let _ = writeln!(w);

    // 3. Dispatch overhead.
    let _ = writeln!(
        w,
        "## 3. Dispatch overhead: the table vs the typed kernel (goal: within a few ns)\n"
    );
    let _ = writeln!(
        w,
        "| pair | table | free function | typed | overhead per call (table, free) |\n|---|---|---|---|---|"
    );
    for prec in ["f32", "f64"] {
        for c in cases(r, &format!("dispatch_{prec}")) {
            let g = format!("dispatch_{prec}/{c}");
            let (t, k) = (get(r, &g, "table", ""), get(r, &g, "typed", ""));
            // `free` is absent for user kinds (the free functions know none).
            let f = get(r, &g, "free", "");
            let over = |x: Option<f64>| {
                x.zip(k)
                    .map_or("—".into(), |(x, k)| format!("{:.1} ns", (x - k) / BATCH))
            };
            let _ = writeln!(
                w,
                "| {c} ({prec}) | {} | {} | {} | {}, {} |",
                time(t.map(|x| x / BATCH)),
                time(f.map(|x| x / BATCH)),
                time(k.map(|x| x / BATCH)),
                over(t),
                over(f)
            );
        }
    }
    let _ = writeln!(w);

    // 4. Broad phase.
    let _ = writeln!(w, "## 4. Broad phase (f32): grid vs parry's BVH\n");
    let _ = writeln!(
        w,
        "![broad phase time against N](benchmarks-broadphase.svg)\n"
    );
    for (what, goal, label) in [
        ("update", 0.5, "every object moved a little, then all pairs"),
        ("build", 0.5, "built from scratch, then all pairs"),
    ] {
        let _ = writeln!(w, "### {label} (goal ≤ {goal}×)\n");
        let _ = writeln!(
            w,
            "| scene | N | grid | BVH | ratio | goal |\n|---|---|---|---|---|---|"
        );
        // `uniform_far`: every object moves several fat-box margins a frame
        // (the grid's worst case; update only).
        for scene in ["uniform", "clustered", "uniform_far"] {
            let g = format!("broad_{what}_{scene}_f32");
            for n in params(r, &g, "grid") {
                let (k, p) = (get(r, &g, "grid", &n), get(r, &g, "bvh", &n));
                let rt = ratio(k, p);
                let _ = writeln!(
                    w,
                    "| {scene} | {n} | {} | {} | {} | {} |",
                    time(k),
                    time(p),
                    ratio_cell(rt),
                    met(rt, goal)
                );
            }
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(w, "### Brute-force nC2 vs the grid (seed 003's sizes)\n");
    let _ = writeln!(
        w,
        "| N | nC2 | brute force | grid | grid / brute |\n|---|---|---|---|---|"
    );
    for n in params(r, "broad_brute_f32", "brute_force") {
        let nn: u64 = n.parse().unwrap_or(0);
        let (b, g) = (
            get(r, "broad_brute_f32", "brute_force", &n),
            get(r, "broad_brute_f32", "grid", &n),
        );
        let _ = writeln!(
            w,
            "| {n} | {} | {} | {} | {} |",
            nn * nn.saturating_sub(1) / 2,
            time(b),
            time(g),
            ratio_cell(ratio(g, b))
        );
    }
    let _ = writeln!(w);

    // 5. Frame.
    let _ = writeln!(
        w,
        "## 5. A whole frame: update every pose, find colliding pairs with contacts (goal ≤ 0.6×)\n"
    );
    let _ = writeln!(w, "![frame time against N](benchmarks-frame.svg)\n");
    let _ = writeln!(
        w,
        "| precision | N | kasanari | parry | ratio | goal | share of a 16.7 ms frame (kasanari) |\n|---|---|---|---|---|---|---|"
    );
    for prec in ["f32", "f64"] {
        let g = format!("frame_{prec}");
        for n in params(r, &g, "kasanari") {
            let (k, p) = (get(r, &g, "kasanari", &n), get(r, &g, "parry", &n));
            let rt = ratio(k, p);
            let share = k.map_or("—".into(), |k| format!("{:.0}%", k / 16.7e6 * 100.0));
            let _ = writeln!(
                w,
                "| {prec} | {n} | {} | {} | {} | {} | {share} |",
                time(k),
                time(p),
                ratio_cell(rt),
                met(rt, 0.6)
            );
        }
    }
    let _ = writeln!(w);
    let g = "frame_threads_f32";
    let ns = params(r, g, "kasanari_1t");
    if !ns.is_empty() {
        let _ = writeln!(
            w,
            "With the `rayon` feature (`cargo bench -p kasanari-benches --features rayon --bench \
             frame`), kasanari's f32 frame on one thread and on two, output checked identical \
             (goal: two threads ≤ 0.6× one at 100k):\n"
        );
        let _ = writeln!(
            w,
            "| N | 1 thread | 2 threads | 2 / 1 | goal |\n|---|---|---|---|---|"
        );
        for n in ns {
            let (one, two) = (get(r, g, "kasanari_1t", &n), get(r, g, "kasanari_2t", &n));
            let rt = ratio(two, one);
            let _ = writeln!(
                w,
                "| {n} | {} | {} | {} | {} |",
                time(one),
                time(two),
                ratio_cell(rt),
                met(rt, 0.6)
            );
        }
        let _ = writeln!(w);
    }

    // 5b. World queries (benches/benches/world_queries.rs).
    let rays = cases(r, "world_ray_f32");
    if !rays.is_empty() || r.keys().any(|(g, _, _)| g == "world_project_point_f32") {
        let _ = writeln!(
            w,
            "## 5b. World queries (f32, per query; batches of {WORLD_BATCH})\n"
        );
        let _ = writeln!(
            w,
            "`World::cast_ray` against parry2d's `Bvh::cast_ray` with a leaf callback \
             casting on parry's shapes, on the same circles and boxes (goal ≤ 0.5× at 10k \
             and 100k); kasanari alone at 1k and 1M, to show the cost does not grow with \
             the world.\n"
        );
        let _ = writeln!(
            w,
            "| ray | N | kasanari | parry | ratio | goal |\n|---|---|---|---|---|---|"
        );
        let order = ["short", "medium", "long", "across"];
        let mut named: Vec<&String> = rays.iter().collect();
        named.sort_by_key(|c| order.iter().position(|o| o == c).unwrap_or(order.len()));
        for c in named {
            let g = format!("world_ray_f32/{c}");
            for n in params(r, &g, "kasanari") {
                let (k, p) = (get(r, &g, "kasanari", &n), get(r, &g, "parry", &n));
                let rt = ratio(k, p);
                let _ = writeln!(
                    w,
                    "| {c} | {n} | {} | {} | {} | {} |",
                    time(k.map(|t| t / WORLD_BATCH)),
                    time(p.map(|t| t / WORLD_BATCH)),
                    ratio_cell(rt),
                    if p.is_some() { met(rt, 0.5) } else { "" }
                );
            }
        }
        let g = "world_project_point_f32";
        let _ = writeln!(
            w,
            "\n`World::project_point` beside parry's `Bvh::project_point` (no goal):\n"
        );
        let _ = writeln!(w, "| N | kasanari | parry | ratio |\n|---|---|---|---|");
        for n in params(r, g, "kasanari") {
            let (k, p) = (get(r, g, "kasanari", &n), get(r, g, "parry", &n));
            let _ = writeln!(
                w,
                "| {n} | {} | {} | {} |",
                time(k.map(|t| t / WORLD_BATCH)),
                time(p.map(|t| t / WORLD_BATCH)),
                ratio_cell(ratio(k, p))
            );
        }
        let _ = writeln!(w);
    }

    // 5c. World shape casts (benches/benches/world_casts.rs).
    let casts = cases(r, "world_cast_shape_f32");
    if !casts.is_empty() {
        let _ = writeln!(
            w,
            "### `World::cast_shape` (f32, per cast; batches of {WORLD_BATCH}; no parry equivalent)\n"
        );
        let _ = writeln!(w, "| cast | N | kasanari |\n|---|---|---|");
        for c in &casts {
            let g = format!("world_cast_shape_f32/{c}");
            for n in params(r, &g, "kasanari") {
                let k = get(r, &g, "kasanari", &n);
                let _ = writeln!(w, "| {c} | {n} | {} |", time(k.map(|t| t / WORLD_BATCH)));
            }
        }
        let _ = writeln!(w);
    }

    // 6. Precision.
    let _ = writeln!(w, "## 6. The price of precision: kasanari f64 / f32\n");
    let _ = writeln!(
        w,
        "| benchmark | f32 | f64 | f64 / f32 |\n|---|---|---|---|"
    );
    for kind in ["bool", "contact"] {
        for c in cases(r, &format!("narrow_{kind}_f32")) {
            let a = get(r, &format!("narrow_{kind}_f32/{c}"), "kasanari", "");
            let b = get(r, &format!("narrow_{kind}_f64/{c}"), "kasanari", "");
            if a.is_some() && b.is_some() {
                let _ = writeln!(
                    w,
                    "| {kind} {c} | {} | {} | {} |",
                    time(a.map(|t| t / BATCH)),
                    time(b.map(|t| t / BATCH)),
                    ratio_cell(ratio(b, a))
                );
            }
        }
    }
    for n in params(r, "frame_f32", "kasanari") {
        let (a, b) = (
            get(r, "frame_f32", "kasanari", &n),
            get(r, "frame_f64", "kasanari", &n),
        );
        if b.is_some() {
            let _ = writeln!(
                w,
                "| frame N = {n} | {} | {} | {} |",
                time(a),
                time(b),
                ratio_cell(ratio(b, a))
            );
        }
    }
    let _ = writeln!(w);
    vertices_section(r, w);
    if !notes.trim().is_empty() {
        let _ = writeln!(w, "{}", notes.trim_end());
    }
    md
}

/// The queries of the composite-shape benchmark (`benches/composites.rs`),
/// as in its group names `composite_<query>_<prec>/<case>`, with their
/// headings.
const COMPOSITE_QUERIES: [(&str, &str); 5] = [
    ("bool", "intersects"),
    ("contact", "contact"),
    ("distance", "distance"),
    ("manifold", "manifold"),
    ("ray", "ray cast"),
];

/// Section 1f: composite shapes, one table per precision, every case and
/// query of `benches/composites.rs` beside parry (goal ≤ 0.7×).
fn composites_section(r: &Results, w: &mut String) {
    for prec in ["f32", "f64"] {
        let rows: Vec<(&str, &str, String)> = COMPOSITE_QUERIES
            .iter()
            .flat_map(|(q, heading)| {
                cases(r, &format!("composite_{q}_{prec}"))
                    .into_iter()
                    .map(move |c| (*q, *heading, c))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(
            w,
            "### Composite shapes ({prec}, vs {}; per query, batches of 1024; goal ≤ 0.7×)\n",
            if prec == "f32" {
                "parry2d"
            } else {
                "parry2d-f64"
            }
        );
        if prec == "f32" {
            let _ = writeln!(
                w,
                "Compounds of 4 to 8 convex parts; `polyline100` and `polyline1000` are \
                 open chains of 100 and 1000 segments (rolling ground); `box_polyline1000` \
                 rests a box on the chain; `tilemap64` is a 64 × 64 tile map with gaps and \
                 platforms, which parry does not have: its side is a `Compound` of one \
                 `Cuboid` per solid tile. parry's composites use their default flags (no \
                 internal-edge fixing); kasanari always applies its admissible normals. \
                 Manifolds: prediction 0, beside parry's persistent `contact_manifolds` (each \
                 pair keeping its manifolds and workspace from call to call). Rays: solid, \
                 `max_toi = +∞`.\n"
            );
        }
        let _ = writeln!(
            w,
            "| query | case | kasanari | parry | ratio | goal |\n|---|---|---|---|---|---|"
        );
        for (q, heading, c) in rows {
            let g = format!("composite_{q}_{prec}/{c}");
            let (k, p) = (get(r, &g, "kasanari", ""), get(r, &g, "parry", ""));
            let rt = ratio(k, p);
            let _ = writeln!(
                w,
                "| {heading} | {c} | {} | {} | {} | {} |",
                time(k.map(|x| x / BATCH)),
                time(p.map(|x| x / BATCH)),
                ratio_cell(rt),
                met(rt, 0.7)
            );
        }
        let _ = writeln!(w);
    }
}

/// A plotted line: label, colour, dashed, (x, ns) points.
type Series<'a> = (String, &'a str, bool, Vec<(f64, f64)>);

/// Points of `(group, function)` against its numeric parameter, as plotted
/// series.
fn series_of<'a>(r: &Results, lines: &[(&'a str, &str, &str, &'a str)]) -> Vec<Series<'a>> {
    lines
        .iter()
        .map(|(label, g, f, colour)| {
            let pts = params(r, g, f)
                .iter()
                .filter_map(|n| Some((n.parse::<f64>().ok()?, get(r, g, f, n)?)))
                .collect();
            ((*label).to_string(), *colour, false, pts)
        })
        .collect()
}

/// A log-log plot of broad-phase time against N: grid and BVH (update and
/// build, uniform scene) and brute force.
fn broad_phase_plot(r: &Results) -> String {
    let lines = [
        (
            "grid, update + pairs",
            "broad_update_uniform_f32",
            "grid",
            "#1f77b4",
        ),
        (
            "BVH, update + pairs",
            "broad_update_uniform_f32",
            "bvh",
            "#d62728",
        ),
        (
            "grid, build + pairs",
            "broad_build_uniform_f32",
            "grid",
            "#2ca02c",
        ),
        (
            "BVH, build + pairs",
            "broad_build_uniform_f32",
            "bvh",
            "#ff7f0e",
        ),
        (
            "brute force nC2",
            "broad_brute_f32",
            "brute_force",
            "#7f7f7f",
        ),
    ];
    log_log_plot(
        "Broad phase (f32, uniform scene): time per frame against N, log–log",
        "N (objects)",
        &series_of(r, &lines),
    )
}

/// A log-log plot of the whole frame's time against N, both libraries and
/// both precisions.
fn frame_plot(r: &Results) -> String {
    let lines = [
        ("kasanari f32", "frame_f32", "kasanari", "#1f77b4"),
        ("parry2d f32", "frame_f32", "parry", "#d62728"),
        ("kasanari f64", "frame_f64", "kasanari", "#2ca02c"),
        ("parry2d-f64", "frame_f64", "parry", "#ff7f0e"),
    ];
    log_log_plot(
        "A whole frame (update every pose, pairs, contacts): time against N, log–log",
        "N (objects)",
        &series_of(r, &lines),
    )
}

/// A log-log plot of the series (x and y positive), with a legend.
fn log_log_plot(title: &str, x_label: &str, points: &[Series<'_>]) -> String {
    let all: Vec<(f64, f64)> = points
        .iter()
        .flat_map(|(_, _, _, p)| p.iter().copied())
        .collect();
    let (w, h, m) = (720.0, 460.0, 70.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    if all.is_empty() {
        svg.push_str("<text x=\"20\" y=\"40\">no results</text>\n</svg>\n");
        return svg;
    }
    let lx = |v: f64| v.log10();
    let (x0, x1) = (
        all.iter()
            .map(|p| lx(p.0))
            .fold(f64::INFINITY, f64::min)
            .floor(),
        all.iter()
            .map(|p| lx(p.0))
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil(),
    );
    let (y0, y1) = (
        all.iter()
            .map(|p| lx(p.1))
            .fold(f64::INFINITY, f64::min)
            .floor(),
        all.iter()
            .map(|p| lx(p.1))
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil(),
    );
    let (x1, y1) = (x1.max(x0 + 1.0), y1.max(y0 + 1.0));
    let sx = |v: f64| m + (lx(v) - x0) / (x1 - x0) * (w - 2.0 * m);
    let sy = |v: f64| h - m - (lx(v) - y0) / (y1 - y0) * (h - 2.0 * m);
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{title}</text>",
        w / 2.0
    );
    for e in (x0 as i32)..=(x1 as i32) {
        let x = sx(10f64.powi(e));
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{m}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#ddd\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">10^{e}</text>",
            h - m,
            h - m + 18.0
        );
    }
    for e in (y0 as i32)..=(y1 as i32) {
        let y = sy(10f64.powi(e));
        let label = time(Some(10f64.powi(e)));
        let _ = writeln!(
            svg,
            "<line x1=\"{m}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            w - m,
            m - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{x_label}</text>",
        w / 2.0,
        h - 20.0
    );
    for (i, (label, colour, dashed, pts)) in points.iter().enumerate() {
        if pts.is_empty() {
            continue;
        }
        let dash = if *dashed {
            " stroke-dasharray=\"6 4\""
        } else {
            ""
        };
        let path: Vec<String> = pts
            .iter()
            .map(|(n, t)| format!("{:.1},{:.1}", sx(*n), sy(*t)))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{}\"/>",
            path.join(" ")
        );
        for (n, t) in pts {
            let _ = writeln!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>",
                sx(*n),
                sy(*t)
            );
        }
        let ly = m + 8.0 + 16.0 * i as f64;
        let _ = writeln!(
            svg,
            "<line x1=\"{}\" y1=\"{ly:.1}\" x2=\"{}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/><text x=\"{}\" y=\"{:.1}\">{label}</text>",
            m + 10.0,
            m + 30.0,
            m + 36.0,
            ly + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

// ---------------------------------------------------------------------------
// Cost against vertex count (benches/benches/vertices.rs).
// ---------------------------------------------------------------------------

/// The queries of the vertex-count benchmark, as in its group names.
const VERTEX_QUERIES: [&str; 3] = ["intersects", "contact", "distance"];

/// The pairs of the vertex-count benchmark, each with its plot colour.
const VERTEX_PAIRS: [(&str, &str); 4] = [
    ("circle_polygon", "#1f77b4"),
    ("capsule_polygon", "#2ca02c"),
    ("polygon_polygon", "#d62728"),
    ("ellipse_polygon", "#9467bd"),
];

/// Placements answered per iteration of the vertex-count benchmark.
const VERTEX_BATCH: f64 = 8.0;

/// The vertex-count section of the report, appended after the others: per
/// query, a table of time per query against `n` for each pair, and the plot.
fn vertices_section(r: &Results, md: &mut String) {
    if !r.keys().any(|(g, _, _)| g.starts_with("vertices_")) {
        return;
    }
    let w = md;
    let _ = writeln!(
        w,
        "## 7. Cost against vertex count (f64, per query; one regular n-gon against a partner)\n"
    );
    let _ = writeln!(
        w,
        "Goal: every pair `O(n + m)` or better in the vertex counts, and a 40,000-vertex \
         polygon against a circle in under 1 ms. `polygon_polygon` is two n-gons; \
         `ellipse_polygon` has no parry equivalent.\n"
    );
    for query in VERTEX_QUERIES {
        let _ = writeln!(
            w,
            "### {query}\n\n![{query} time against vertex count](benchmarks-vertices-{query}.svg)\n"
        );
        let _ = writeln!(
            w,
            "| pair | n | kasanari | parry | ratio |\n|---|---|---|---|---|"
        );
        for (pair, _) in VERTEX_PAIRS {
            let g = format!("vertices_{query}/{pair}");
            for n in params(r, &g, "kasanari") {
                let (k, p) = (get(r, &g, "kasanari", &n), get(r, &g, "parry", &n));
                let _ = writeln!(
                    w,
                    "| {pair} | {n} | {} | {} | {} |",
                    time(k.map(|t| t / VERTEX_BATCH)),
                    time(p.map(|t| t / VERTEX_BATCH)),
                    ratio_cell(ratio(k, p))
                );
            }
        }
        let _ = writeln!(w);
    }
}

/// A log–log plot of time per query against the vertex count for one query:
/// kasanari solid, parry dashed, one colour per pair.
fn vertices_plot(r: &Results, query: &str) -> String {
    let mut lines: Vec<Series<'_>> = Vec::new();
    for (pair, colour) in VERTEX_PAIRS {
        let g = format!("vertices_{query}/{pair}");
        for (f, dashed) in [("kasanari", false), ("parry", true)] {
            let pts: Vec<(f64, f64)> = params(r, &g, f)
                .iter()
                .filter_map(|n| Some((n.parse::<f64>().ok()?, get(r, &g, f, n)? / VERTEX_BATCH)))
                .collect();
            if !pts.is_empty() {
                lines.push((format!("{pair}, {f}"), colour, dashed, pts));
            }
        }
    }
    log_log_plot(
        &format!("{query} (f64): time per query against the polygon's vertex count, log–log"),
        "n (vertices)",
        &lines,
    )
}
