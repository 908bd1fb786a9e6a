//! The arena: mixed shapes moving in a world, frame after frame.

use std::collections::HashSet;
use std::time::Instant;

use kasanari::demo::{Arena, Rng};
use kasanari::nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
use kasanari::prelude::*;

use crate::args::{ArenaOptions, Precision};
use crate::svg::Canvas;

const DT: f64 = 1.0 / 60.0;
const BUDGET_MS: f64 = 1000.0 / 60.0;

pub fn run(o: &ArenaOptions) -> Result<(), String> {
    match (o.dim, o.precision) {
        (3, Precision::F32) => run3::<f32>(o),
        (3, Precision::F64) => run3::<f64>(o),
        (_, Precision::F32) => run2::<f32>(o),
        (_, Precision::F64) => run2::<f64>(o),
    }
}

/// Frame statistics, summed over frames.
#[derive(Default)]
struct Totals {
    candidates: u64,
    colliding: u64,
    /// Colliding pairs with a composite (the floor or a compound body), 2D.
    composite: u64,
    frames_ms: Vec<f64>,
}

impl Totals {
    fn add(&mut self, stats: &broadphase::Stats, ms: f64) {
        self.candidates += stats.candidate_pairs as u64;
        self.colliding += stats.colliding_pairs as u64;
        self.frames_ms.push(ms);
    }

    /// One progress line (every simulated second), on a terminal only: it
    /// rewrites itself on standard error, and a piped or redirected run
    /// stays quiet (its standard output holds the summary alone).
    fn progress(&self, frame: usize, frames: usize, stats: &broadphase::Stats) {
        use std::io::{IsTerminal as _, Write as _};
        let err = std::io::stderr();
        if !err.is_terminal() {
            return;
        }
        let mut err = err.lock();
        // A terminal that cannot be written to is no reason to stop the run.
        let _ = write!(
            err,
            "\r  t = {:>4.1} s  frame {frame:>4}/{frames}  candidates {:>7}  colliding {:>7}  frame {:.2} ms",
            frame as f64 * DT,
            stats.candidate_pairs,
            stats.colliding_pairs,
            self.frames_ms.last().copied().unwrap_or(0.0)
        );
        if frame == frames {
            let _ = writeln!(err);
        }
        let _ = err.flush();
    }

    fn summary(
        &mut self,
        objects: usize,
        all_pairs: u64,
        precision: &str,
        dims: &str,
    ) -> Result<(), String> {
        let frames = self.frames_ms.len().max(1) as f64;
        self.frames_ms.sort_by(f64::total_cmp);
        let pick = |q: f64| {
            self.frames_ms
                .get(((self.frames_ms.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let (median, p99) = (pick(0.5), pick(0.99));
        say!(
            "\nsummary ({dims}, {precision}, {} frames)",
            self.frames_ms.len()
        );
        say!("  objects                   {objects}");
        say!("  all pairs (nC2)           {all_pairs}");
        say!(
            "  candidate pairs / frame   {:.0} (mean)",
            self.candidates as f64 / frames
        );
        say!(
            "  colliding pairs / frame   {:.0} (mean)",
            self.colliding as f64 / frames
        );
        if dims == "2D" {
            say!(
                "  with a composite / frame  {:.1} (mean: the floor, the compound bodies)",
                self.composite as f64 / frames
            );
        }
        say!("  frame time                median {median:.2} ms, 99th percentile {p99:.2} ms");
        say!(
            "  share of a 16.7 ms frame  {:.0}% (median), {:.0}% (99th percentile)",
            median / BUDGET_MS * 100.0,
            p99 / BUDGET_MS * 100.0
        );
        Ok(())
    }
}

fn pose2<T: Real>(p: [f64; 2], angle: f64) -> Isometry2<T> {
    Isometry2::new(Vector2::new(T::lit(p[0]), T::lit(p[1])), T::lit(angle))
}

fn run2<T: Real>(o: &ArenaOptions) -> Result<(), String> {
    let mut arena = Arena::new(o.n, o.seed);
    // A few compound bodies among the shapes (one per hundred, at least
    // three), and a tile-map floor along the bottom.
    let compounds = (o.n / 100).max(3);
    arena.add_compounds(compounds, o.seed);
    let floor = arena.floor();
    let mut world =
        World::<T>::new(T::lit(o.cell_size.unwrap_or(1.0))).map_err(|e| e.to_string())?;
    let (floor_shape, floor_pose) = floor.to_shape::<T>().map_err(|e| e.to_string())?;
    let floor_handle = world
        .insert_boxed(floor_shape, floor_pose, Filter::ALL)
        .map_err(|e| e.to_string())?;
    // Each object: its shape around its own centre (the spec's centroid pose,
    // composed with the mover's pose every frame).
    let mut objects = Vec::with_capacity(o.n);
    for m in &arena.movers {
        let (shape, local) = m.spec.to_shape::<T>().map_err(|e| e.to_string())?;
        let h = world
            .insert_boxed(shape, pose2::<T>(m.position, m.angle) * local, Filter::ALL)
            .map_err(|e| e.to_string())?;
        objects.push((h, local));
    }
    if o.cell_size.is_none() {
        world.auto_cell_size();
    }
    let precision = if o.precision == Precision::F32 {
        "f32"
    } else {
        "f64"
    };
    say!(
        "arena: {} shapes of 9 kinds, {compounds} compound bodies and a tile-map floor in a {:.0} × {:.0} square, {} frames at 60 fps, {precision}, cell size {}",
        o.n,
        arena.side,
        arena.side,
        o.frames,
        world.grid().cell_size()
    );
    let mut totals = Totals::default();
    for frame in 1..=o.frames {
        arena.step(DT);
        let start = Instant::now();
        // Every mover's pose in one call (all or nothing).
        let moves = arena.movers.iter().zip(&objects);
        world
            .set_poses(moves.map(|(m, (h, local))| (*h, pose2::<T>(m.position, m.angle) * local)))
            .map_err(|e| e.to_string())?;
        let frame_out = world.collisions();
        let stats = frame_out.stats;
        totals.composite += frame_out
            .pairs
            .iter()
            .filter(|p| p.parts != Parts::NONE)
            .count() as u64;
        totals.add(&stats, start.elapsed().as_secs_f64() * 1e3);
        if frame % 60 == 0 || frame == o.frames {
            totals.progress(frame, o.frames, &stats);
        }
    }
    let n = world.len() as u64;
    totals.summary(world.len(), n * n.saturating_sub(1) / 2, precision, "2D")?;
    if let Some(path) = &o.svg {
        world.collisions();
        let hits = world.last_collisions();
        let errors = hits.errors.len();
        let hit: HashSet<Handle> = hits.pairs.iter().flat_map(|p| [p.a, p.b]).collect();
        let mut canvas = Canvas::new([0.0, -1.0], [arena.side, arena.side], 1400.0);
        canvas.grid(world.grid().cell_size().as_f64());
        canvas.shape(&floor, [0.0, 0.0], 0.0, hit.contains(&floor_handle));
        for (m, (h, _)) in arena.movers.iter().zip(&objects) {
            canvas.shape(&m.spec, m.position, m.angle, hit.contains(h));
        }
        for p in &hits.pairs {
            let c = p.contact;
            canvas.arrow(
                [c.point_a.x.as_f64(), c.point_a.y.as_f64()],
                [c.normal.x.as_f64(), c.normal.y.as_f64()],
                0.6,
            );
        }
        let title = format!(
            "kasanari arena: {} shapes, frame {}, {} colliding pairs (filled), contact normals in red, grid cell {}",
            world.len(),
            o.frames,
            hits.pairs.len(),
            world.grid().cell_size()
        );
        std::fs::write(path, canvas.finish(&title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        say!(
            "  picture                   {} ({} shapes, {} contacts)",
            path.display(),
            world.len(),
            hits.pairs.len()
        );
        if errors > 0 {
            return Err(format!("{errors} pairs could not be answered"));
        }
    }
    Ok(())
}

fn run3<T: Real>(o: &ArenaOptions) -> Result<(), String> {
    let mut rng = Rng::new(o.seed);
    let side = (o.n.max(1) as f64 * 8.0).cbrt().max(5.0);
    let mut world =
        World3::<T>::new(T::lit(o.cell_size.unwrap_or(2.0))).map_err(|e| e.to_string())?;
    struct Body {
        h: Handle,
        p: [f64; 3],
        v: [f64; 3],
        r: [f64; 3],
        w: [f64; 3],
    }
    let mut bodies = Vec::with_capacity(o.n);
    for i in 0..o.n {
        let s = rng.range(0.2, 0.8);
        let shape: Box<dyn Shape3<T>> = if i % 2 == 0 {
            Box::new(Sphere::new(T::lit(s)).map_err(|e| e.to_string())?)
        } else {
            Box::new(Cuboid::new(Vector3::repeat(T::lit(s))).map_err(|e| e.to_string())?)
        };
        let p = [
            rng.range(0.0, side),
            rng.range(0.0, side),
            rng.range(0.0, side),
        ];
        let h = world
            .insert_boxed(
                shape,
                Isometry3::translation(T::lit(p[0]), T::lit(p[1]), T::lit(p[2])),
                Filter::ALL,
            )
            .map_err(|e| e.to_string())?;
        let v = [
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ];
        let w = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        bodies.push(Body {
            h,
            p,
            v,
            r: [0.0; 3],
            w,
        });
    }
    if o.cell_size.is_none() {
        world.auto_cell_size();
    }
    let precision = if o.precision == Precision::F32 {
        "f32"
    } else {
        "f64"
    };
    say!(
        "arena 3D: {} spheres and cubes in a {side:.0}³ box, {} frames, {precision}",
        o.n,
        o.frames
    );
    let mut totals = Totals::default();
    for frame in 1..=o.frames {
        for b in &mut bodies {
            for a in 0..3 {
                b.p[a] += b.v[a] * DT;
                if !(0.0..=side).contains(&b.p[a]) {
                    b.v[a] = -b.v[a];
                    b.p[a] = b.p[a].clamp(0.0, side);
                }
                b.r[a] += b.w[a] * DT;
            }
        }
        let start = Instant::now();
        let poses = bodies.iter().map(|b| {
            let pose = Isometry3::new(
                Vector3::new(T::lit(b.p[0]), T::lit(b.p[1]), T::lit(b.p[2])),
                Vector3::new(T::lit(b.r[0]), T::lit(b.r[1]), T::lit(b.r[2])),
            );
            (b.h, pose)
        });
        world.set_poses(poses).map_err(|e| e.to_string())?;
        let stats = world.collisions().stats;
        totals.add(&stats, start.elapsed().as_secs_f64() * 1e3);
        if frame % 60 == 0 || frame == o.frames {
            totals.progress(frame, o.frames, &stats);
        }
    }
    let n = o.n as u64;
    totals.summary(o.n, n * n.saturating_sub(1) / 2, precision, "3D")?;
    if o.svg.is_some() && o.dim == 3 {
        say!("  (no picture in 3D: statistics only)");
    }
    Ok(())
}
