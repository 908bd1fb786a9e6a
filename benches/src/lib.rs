//! Shared input generation for kasanari's benchmarks: the deterministic
//! random generator of `kasanari::demo` (SplitMix64), so every run measures the
//! same inputs without another dependency.

pub use kasanari::demo::Rng;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.range(-2.0, 3.0);
            assert_eq!(x, b.range(-2.0, 3.0));
            assert!((-2.0..3.0).contains(&x));
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}

/// The broad-phase scenes' generators, shared by `benches/broad.rs` and the
/// callgrind driver `examples/broad_calls.rs` so both see the same inputs.
pub mod broad_scene {
    use super::Rng;

    /// Half sizes: most boxes small (sides 0.75..1.25), one in ten five to
    /// ten times larger.
    pub fn half_sizes(rng: &mut Rng, n: usize) -> Vec<[f64; 2]> {
        (0..n)
            .map(|_| {
                let (w, h) = (rng.range(0.75, 1.25), rng.range(0.75, 1.25));
                let k = if rng.range(0.0, 1.0) < 0.1 {
                    rng.range(5.0, 10.0)
                } else {
                    1.0
                };
                [0.5 * w * k, 0.5 * h * k]
            })
            .collect()
    }

    /// A roughly normal number (sum of four uniforms, variance 1).
    fn gaussian(rng: &mut Rng) -> f64 {
        let s: f64 = (0..4).map(|_| rng.range(-1.0, 1.0)).sum();
        s * (3.0f64 / 4.0).sqrt()
    }

    /// Centres in the unit square, uniform or `clustered` (about 200 boxes
    /// per cluster, clusters well apart: sigma a quarter of the mean spacing
    /// of cluster centres; clusters may spill a little outside).
    pub fn unit_centres(rng: &mut Rng, n: usize, clustered: bool) -> Vec<[f64; 2]> {
        if !clustered {
            return (0..n)
                .map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)])
                .collect();
        }
        let clusters = (n / 200).max(1);
        let sigma = 0.25 / (clusters as f64).sqrt();
        let centres: Vec<[f64; 2]> = (0..clusters)
            .map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)])
            .collect();
        (0..n)
            .map(|_| {
                let c = centres[(rng.next_u64() % clusters as u64) as usize];
                [c[0] + sigma * gaussian(rng), c[1] + sigma * gaussian(rng)]
            })
            .collect()
    }
}

/// The World-query scenes of `benches/world_queries.rs`, shared with the
/// callgrind driver `examples/broad_calls.rs`.
pub mod world_scene {
    use super::Rng;

    /// Mean number of box overlaps per shape.
    pub const TARGET_OVERLAPS: f64 = 2.0;

    /// A shape in plain numbers: a circle's radius or a box's half extents.
    #[derive(Debug, Clone, Copy)]
    pub enum Spec {
        /// A circle's radius.
        Circle(f64),
        /// A box's half extents.
        Box([f64; 2]),
    }

    /// The inputs of one scene.
    pub struct Input {
        /// The shapes.
        pub specs: Vec<Spec>,
        /// `(x, y, angle)`.
        pub poses: Vec<[f64; 3]>,
        /// The side of the square the centres are drawn in.
        pub side: f64,
    }

    /// `n` circles and boxes (half each, one in ten five to ten times larger),
    /// random angles, uniform centres in a square sized for `TARGET_OVERLAPS`
    /// box overlaps per shape on average.
    pub fn input(n: usize, seed: u64) -> Input {
        let mut rng = Rng::new(seed);
        let specs: Vec<Spec> = (0..n)
            .map(|_| {
                let k = if rng.range(0.0, 1.0) < 0.1 {
                    rng.range(5.0, 10.0)
                } else {
                    1.0
                };
                if rng.next_u64() % 2 == 0 {
                    Spec::Circle(0.5 * rng.range(0.75, 1.25) * k)
                } else {
                    Spec::Box([
                        0.5 * rng.range(0.75, 1.25) * k,
                        0.5 * rng.range(0.75, 1.25) * k,
                    ])
                }
            })
            .collect();
        let angles: Vec<f64> = (0..n)
            .map(|_| rng.range(-std::f64::consts::PI, std::f64::consts::PI))
            .collect();
        // Uniform centres in a square of side L overlap with probability
        // (wi + wj)(hi + hj) / L² (w, h the box extents), so the mean overlap
        // count per shape is (n − 1)·2·(E[wh] + E[w]E[h]) / L².
        let (mut ew, mut eh, mut ewh) = (0.0, 0.0, 0.0);
        for (s, a) in specs.iter().zip(&angles) {
            let (w, h) = match s {
                Spec::Circle(r) => (2.0 * r, 2.0 * r),
                Spec::Box([x, y]) => (
                    2.0 * (x * a.cos().abs() + y * a.sin().abs()),
                    2.0 * (x * a.sin().abs() + y * a.cos().abs()),
                ),
            };
            ew += w;
            eh += h;
            ewh += w * h;
        }
        let nf = n as f64;
        let (ew, eh, ewh) = (ew / nf, eh / nf, ewh / nf);
        let side = ((nf - 1.0) * 2.0 * (ewh + ew * eh) / TARGET_OVERLAPS).sqrt();
        let poses = angles
            .iter()
            .map(|a| [rng.range(0.0, side), rng.range(0.0, side), *a])
            .collect();
        Input { specs, poses, side }
    }
}

/// The shape-cast inputs, shared by `benches/casts.rs` and the callgrind
/// driver `examples/cast_calls.rs` so both see the same casts: the shapes of
/// `benches/distance.rs` (same ranges), B placed 1 to 3 bounding radii sums
/// from A, both moving; B's velocity relative to A aims at A within ±63°,
/// fast enough to cross the gap within `max_toi = 1`, so that about half of
/// the casts hit.
pub mod cast_scene {
    use std::f64::consts::{PI, TAU};

    use super::Rng;

    /// The casts per batch.
    pub const BATCH: usize = 1024;

    /// A shape in its local frame, in plain `f64` numbers.
    #[derive(Debug, Clone)]
    pub enum Spec {
        /// Radius.
        Ball(f64),
        /// Half extents.
        Cuboid([f64; 2]),
        /// Counter-clockwise, strictly convex.
        Polygon(Vec<[f64; 2]>),
        /// Half length (vertical core) and radius.
        Capsule(f64, f64),
    }

    impl Spec {
        /// The largest distance from the local origin.
        #[must_use]
        pub fn bounding_radius(&self) -> f64 {
            let norm = |p: &[f64; 2]| p[0].hypot(p[1]);
            match self {
                Spec::Ball(r) => *r,
                Spec::Cuboid(h) => norm(h),
                Spec::Polygon(v) => v.iter().map(norm).fold(0.0, f64::max),
                Spec::Capsule(h, r) => h + r,
            }
        }
    }

    fn draw(name: &str, rng: &mut Rng) -> Spec {
        match name {
            "ball" => Spec::Ball(rng.range(0.25, 1.5)),
            "cuboid" => Spec::Cuboid([rng.range(0.25, 1.5), rng.range(0.25, 1.5)]),
            "polygon" => {
                let n = 6 + (rng.next_u64() % 3) as usize;
                let gap = TAU / n as f64;
                let (phase, radius) = (rng.range(0.0, TAU), rng.range(0.5, 1.5));
                let (sx, sy) = (rng.range(0.7, 1.3), rng.range(0.7, 1.3));
                Spec::Polygon(
                    (0..n)
                        .map(|i| {
                            let t = phase + gap * (i as f64 + rng.range(-0.3, 0.3));
                            [radius * sx * t.cos(), radius * sy * t.sin()]
                        })
                        .collect(),
                )
            }
            "capsule" => Spec::Capsule(rng.range(0.25, 1.0), rng.range(0.2, 0.8)),
            _ => panic!("unknown shape {name}"),
        }
    }

    /// A pose as translation and (cos, sin), so both libraries get the same
    /// bits.
    #[derive(Debug, Clone, Copy)]
    pub struct PoseSpec {
        /// Translation.
        pub x: f64,
        /// Translation.
        pub y: f64,
        /// Rotation.
        pub cos: f64,
        /// Rotation.
        pub sin: f64,
    }

    impl PoseSpec {
        fn new(x: f64, y: f64, angle: f64) -> Self {
            let (sin, cos) = angle.sin_cos();
            Self { x, y, cos, sin }
        }
    }

    /// One cast: shapes, poses, velocities.
    #[derive(Debug, Clone)]
    pub struct CastSpec {
        /// The first shape.
        pub a: Spec,
        /// Its pose.
        pub pose_a: PoseSpec,
        /// Its velocity.
        pub vel_a: [f64; 2],
        /// The second shape.
        pub b: Spec,
        /// Its pose.
        pub pose_b: PoseSpec,
        /// Its velocity.
        pub vel_b: [f64; 2],
    }

    /// The measured pairs (parry's names; kasanari's kinds are circle, obb,
    /// polygon, capsule), A first.
    pub const PAIRS: [(&str, &str, &str); 5] = [
        ("ball_ball", "ball", "ball"),
        ("ball_cuboid", "ball", "cuboid"),
        ("cuboid_cuboid", "cuboid", "cuboid"),
        ("polygon_polygon", "polygon", "polygon"),
        ("capsule_cuboid", "capsule", "cuboid"),
    ];

    /// The time bound of every cast.
    pub const MAX_TOI: f64 = 1.0;

    /// The batch of casts of pair `name` (seeded by its index in [`PAIRS`]).
    #[must_use]
    pub fn casts(name: &str) -> Vec<CastSpec> {
        let i = PAIRS
            .iter()
            .position(|p| p.0 == name)
            .unwrap_or_else(|| panic!("unknown pair {name}"));
        let (_, sa, sb) = PAIRS[i];
        let mut rng = Rng::new(0x6361_7374_0000 + i as u64);
        (0..BATCH)
            .map(|_| {
                let (a, b) = (draw(sa, &mut rng), draw(sb, &mut rng));
                let pose_a = PoseSpec::new(
                    rng.range(-50.0, 50.0),
                    rng.range(-50.0, 50.0),
                    rng.range(-PI, PI),
                );
                let d = rng.range(1.0, 3.0) * (a.bounding_radius() + b.bounding_radius());
                let dir = rng.range(-PI, PI);
                let pose_b = PoseSpec::new(
                    pose_a.x + d * dir.cos(),
                    pose_a.y + d * dir.sin(),
                    rng.range(-PI, PI),
                );
                let vel_a = [rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)];
                // Relative velocity towards A, within ±63°, 1 to 2 gaps per
                // unit of time.
                let aim = dir + PI + rng.range(-1.1, 1.1);
                let speed = d * rng.range(1.0, 2.0);
                let vel_b = [vel_a[0] + speed * aim.cos(), vel_a[1] + speed * aim.sin()];
                CastSpec {
                    a,
                    pose_a,
                    vel_a,
                    b,
                    pose_b,
                    vel_b,
                }
            })
            .collect()
    }
}

/// The rotating cuboid–cuboid time-of-impact scene, shared by
/// `benches/toi.rs` and the callgrind driver `examples/toi_calls.rs` so both
/// see the same inputs.
pub mod toi_scene {
    use super::Rng;

    /// One pair: two boxes (half extents) and their motions over the step,
    /// each `[x, y, angle, vx, vy, spin]` (the centre moves by `(vx, vy)` and
    /// the angle by `spin` over the step; rotation about the box centre).
    #[derive(Debug, Clone, Copy)]
    pub struct ToiPair {
        /// A's half extents.
        pub half_a: [f64; 2],
        /// A's motion.
        pub motion_a: [f64; 6],
        /// B's half extents.
        pub half_b: [f64; 2],
        /// B's motion.
        pub motion_b: [f64; 6],
    }

    /// `n` pairs: half extents 0.25 to 1.5; B starts `0.1` to `3` clear of
    /// A's and B's bounding circles, in a random direction, and moves towards
    /// A by `0.5` to `2` times the start separation with a lateral drift of
    /// up to a quarter of it; A drifts by up to `0.5`; both turn by up to
    /// `±2` radians over the step. About three pairs in four hit.
    pub fn pairs(rng: &mut Rng, n: usize) -> Vec<ToiPair> {
        (0..n)
            .map(|_| {
                let half = |rng: &mut Rng| [rng.range(0.25, 1.5), rng.range(0.25, 1.5)];
                let (half_a, half_b) = (half(rng), half(rng));
                let radius = |h: [f64; 2]| h[0].hypot(h[1]);
                let sep = radius(half_a) + radius(half_b) + rng.range(0.1, 3.0);
                let phi = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
                let (u, w) = ([phi.cos(), phi.sin()], [-phi.sin(), phi.cos()]);
                let (k, lat) = (rng.range(0.5, 2.0), rng.range(-0.25, 0.25) * sep);
                let a = [rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)];
                let motion_a = [
                    a[0],
                    a[1],
                    rng.range(-3.0, 3.0),
                    rng.range(-0.5, 0.5),
                    rng.range(-0.5, 0.5),
                    rng.range(-2.0, 2.0),
                ];
                let motion_b = [
                    a[0] + sep * u[0],
                    a[1] + sep * u[1],
                    rng.range(-3.0, 3.0),
                    -k * sep * u[0] + lat * w[0],
                    -k * sep * u[1] + lat * w[1],
                    rng.range(-2.0, 2.0),
                ];
                ToiPair {
                    half_a,
                    motion_a,
                    half_b,
                    motion_b,
                }
            })
            .collect()
    }
}
