//! Deterministic scenes for the `kasanari` command, the examples and the
//! benchmarks: a small random generator and the arena of moving mixed shapes.
//! Not part of the collision API.

use crate::scene::{PartSpec, ShapeSpec, TileRow};

/// SplitMix64 (Steele, Lea and Flood, 2014): fast and deterministic, good
/// enough to scatter shapes.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator with the given seed.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        // 53 random bits give a uniform f64 in [0, 1).
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    /// A uniform index in `0..n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> usize {
        (self.range(0.0, n as f64) as usize).min(n.saturating_sub(1))
    }
}

/// One moving object of the arena: a shape described around its own centre,
/// its position, angle and velocities.
#[derive(Debug, Clone)]
pub struct Mover {
    /// The shape, centred on the local origin.
    pub spec: ShapeSpec,
    /// Position of the centre.
    pub position: [f64; 2],
    /// Angle in radians.
    pub angle: f64,
    /// Velocity, units per second.
    pub velocity: [f64; 2],
    /// Angular velocity, radians per second.
    pub spin: f64,
}

/// The arena: `n` mixed shapes of every built-in kind in a square of side
/// `side`, most scattered uniformly, some in clusters, sizes from small to a few
/// large ones.
#[derive(Debug, Clone)]
pub struct Arena {
    /// The square's side (the arena is `[0, side]²`).
    pub side: f64,
    /// The objects.
    pub movers: Vec<Mover>,
}

impl Arena {
    /// A deterministic arena of `n` objects.
    #[must_use]
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        // About 6 square units per object: a crowd with a few overlaps each.
        let side = (n.max(1) as f64 * 6.0).sqrt().max(10.0);
        let clusters: Vec<[f64; 2]> = (0..8)
            .map(|_| [rng.range(0.1, 0.9) * side, rng.range(0.1, 0.9) * side])
            .collect();
        let movers = (0..n)
            .map(|i| {
                let size = if rng.range(0.0, 1.0) < 0.05 {
                    rng.range(1.5, 4.0)
                } else {
                    rng.range(0.2, 0.9)
                };
                let position = if rng.range(0.0, 1.0) < 0.3 {
                    let c = clusters[rng.index(clusters.len())];
                    let r = side * 0.03;
                    [
                        (c[0] + rng.range(-r, r)).clamp(0.0, side),
                        (c[1] + rng.range(-r, r)).clamp(0.0, side),
                    ]
                } else {
                    [rng.range(0.0, side), rng.range(0.0, side)]
                };
                Mover {
                    spec: spec_of_kind(i % 9, size, &mut rng),
                    position,
                    angle: rng.range(-3.1, 3.1),
                    velocity: [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)],
                    spin: rng.range(-2.0, 2.0),
                }
            })
            .collect();
        Self { side, movers }
    }

    /// Adds `k` compound bodies (dumbbells, carts, crosses: see
    /// [`compound_body`]) to the movers, drawn from their own generator so
    /// that the first movers stay as [`Arena::new`] made them.
    pub fn add_compounds(&mut self, k: usize, seed: u64) {
        let mut rng = Rng::new(seed ^ 0xC0A1_E5CE_D000_0014);
        let side = self.side;
        for i in 0..k {
            self.movers.push(Mover {
                spec: compound_body(i, rng.range(0.6, 1.2)),
                position: [rng.range(0.0, side), rng.range(2.0, side)],
                angle: rng.range(-3.1, 3.1),
                velocity: [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)],
                spin: rng.range(-1.0, 1.0),
            });
        }
    }

    /// A tile-map floor along the bottom of the arena, in world
    /// coordinates: a solid row of unit tiles under `y = 0` across the
    /// whole side, with a block of two tiles standing on it every eight
    /// tiles (steps and ledges for the shapes to run into).
    #[must_use]
    pub fn floor(&self) -> ShapeSpec {
        let width = self.side.ceil().max(1.0) as usize;
        let top = (0..width).map(|c| c % 8 == 3 || c % 8 == 4).collect();
        ShapeSpec::TileMap {
            origin: [0.0, -1.0],
            tile_size: [1.0, 1.0],
            rows: vec![TileRow(top), TileRow(vec![true; width])],
        }
    }

    /// Advances every object by `dt` seconds, bouncing off the walls.
    pub fn step(&mut self, dt: f64) {
        let side = self.side;
        for m in &mut self.movers {
            for axis in 0..2 {
                m.position[axis] += m.velocity[axis] * dt;
                if m.position[axis] < 0.0 {
                    m.position[axis] = -m.position[axis];
                    m.velocity[axis] = m.velocity[axis].abs();
                } else if m.position[axis] > side {
                    m.position[axis] = 2.0 * side - m.position[axis];
                    m.velocity[axis] = -m.velocity[axis].abs();
                }
            }
            m.angle += m.spin * dt;
            if m.angle.abs() > std::f64::consts::PI {
                m.angle -= std::f64::consts::TAU * m.angle.signum();
            }
        }
    }
}

/// A compound body of about `size`, centred on the origin: by `k % 3`, a
/// dumbbell (two balls on a bar), a cart (a box on two wheels) or a cross
/// (two boxes).
#[must_use]
pub fn compound_body(k: usize, size: f64) -> ShapeSpec {
    let s = size;
    let obb = |c: [f64; 2], h: [f64; 2]| {
        PartSpec(ShapeSpec::Obb {
            center: c,
            half_extents: h,
            angle: 0.0,
        })
    };
    let ball = |c: [f64; 2], r: f64| {
        PartSpec(ShapeSpec::Circle {
            center: c,
            radius: r,
        })
    };
    let parts = match k % 3 {
        0 => vec![
            ball([-s, 0.0], 0.4 * s),
            ball([s, 0.0], 0.4 * s),
            obb([0.0, 0.0], [s, 0.1 * s]),
        ],
        1 => vec![
            obb([0.0, 0.2 * s], [s, 0.3 * s]),
            ball([-0.6 * s, -0.3 * s], 0.3 * s),
            ball([0.6 * s, -0.3 * s], 0.3 * s),
        ],
        _ => vec![obb([0.0, 0.0], [s, 0.2 * s]), obb([0.0, 0.0], [0.2 * s, s])],
    };
    ShapeSpec::Compound {
        center: [0.0, 0.0],
        angle: 0.0,
        parts,
    }
}

/// A shape of kind `k` (canonical order: point, segment, circle, aabb, obb,
/// triangle, polygon, capsule, ellipse) of about `size`, centred on the origin.
#[must_use]
pub fn spec_of_kind(k: usize, size: f64, rng: &mut Rng) -> ShapeSpec {
    let s = size;
    match k % 9 {
        0 => ShapeSpec::Point { p: [0.0, 0.0] },
        1 => ShapeSpec::Segment {
            a: [-s, 0.0],
            b: [s, 0.0],
        },
        2 => ShapeSpec::Circle {
            center: [0.0, 0.0],
            radius: s * 0.6,
        },
        3 => {
            let (w, h) = (s * rng.range(0.4, 1.0), s * rng.range(0.4, 1.0));
            ShapeSpec::Aabb {
                min: [-w, -h],
                max: [w, h],
            }
        }
        4 => ShapeSpec::Obb {
            center: [0.0, 0.0],
            half_extents: [s * rng.range(0.4, 1.0), s * rng.range(0.2, 0.6)],
            angle: 0.0,
        },
        5 => ShapeSpec::Triangle {
            vertices: [[-s, -s * 0.6], [s, -s * 0.4], [0.0, s]],
        },
        6 => {
            let n = 5 + rng.index(4);
            let phase = rng.range(0.0, 1.0);
            let vertices = (0..n)
                .map(|j| {
                    let a = std::f64::consts::TAU * (j as f64 + phase) / n as f64;
                    [s * 0.8 * a.cos(), s * 0.8 * a.sin()]
                })
                .collect();
            ShapeSpec::Polygon { vertices }
        }
        7 => ShapeSpec::Capsule {
            a: [0.0, -s * 0.5],
            b: [0.0, s * 0.5],
            radius: s * 0.3,
        },
        _ => ShapeSpec::Ellipse {
            center: [0.0, 0.0],
            radii: [s * 0.9, s * 0.4],
            angle: 0.0,
        },
    }
}
