//! The `pyramid` example's scenes: the pyramid of boxes and 200 mixed
//! shapes dropped into a box.

use std::error::Error;

use kasanari::nalgebra::{Isometry2, Point2, Vector2};

use crate::sim::{BodyShape, R, Settings, Sim};

/// A small seeded generator (SplitMix64, Steele, Lea and Flood, "Fast
/// splittable pseudorandom number generators", OOPSLA 2014): the scenes are
/// the same on every run and every machine.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
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

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: R, hi: R) -> R {
        // The top 53 bits make a uniform double in [0, 1).
        let unit = (self.next_u64() >> 11) as R / (1u64 << 53) as R;
        lo + (hi - lo) * unit
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The pyramid: `rows` rows of 1×1 boxes, side by side (touching), the
/// bottom row on a static floor whose top is `y = 0`, each row centred on
/// the one below it. Returns the simulation and the top box's index.
///
/// # Errors
/// None in practice (the shapes and poses are valid).
pub fn pyramid(rows: usize, settings: Settings) -> Result<(Sim, usize), Box<dyn Error>> {
    let mut sim = Sim::new(settings, 2.0)?;
    let width = rows as R + 10.0;
    sim.add_static(
        BodyShape::Box(Vector2::new(width / 2.0, 0.5)),
        Isometry2::translation(0.0, -0.5),
    )?;
    let mut top = 0;
    for row in 0..rows {
        let count = rows - row;
        for i in 0..count {
            let x = i as R - (count - 1) as R / 2.0;
            let y = 0.5 + row as R;
            top = sim.add_dynamic(
                BodyShape::Box(Vector2::new(0.5, 0.5)),
                Isometry2::translation(x, y),
            )?;
        }
    }
    Ok((sim, top))
}

/// The container of the drop scene: the interior `x ∈ [-half_width,
/// half_width]`, `y ≥ 0` (the floor's top), walls up to `wall_top`.
#[derive(Debug, Clone, Copy)]
pub struct Container {
    /// Half the interior width.
    pub half_width: R,
    /// The height of the walls' tops.
    pub wall_top: R,
}

/// `count` shapes (boxes, convex polygons, capsules, circles, a quarter
/// each on average; random sizes, angles and spins from `seed`) on a grid
/// above a static container of three walls (floor, left, right; open top)
/// in which they fall. Returns the simulation and the container.
///
/// # Errors
/// None in practice (the shapes and poses are valid).
pub fn drop_into_box(
    count: usize,
    seed: u64,
    settings: Settings,
) -> Result<(Sim, Container), Box<dyn Error>> {
    let container = Container {
        half_width: 10.0,
        wall_top: 30.0,
    };
    let mut sim = Sim::new(settings, 2.0)?;
    let (hw, top) = (container.half_width, container.wall_top);
    // Walls 1 thick: the floor under y = 0, the sides outside |x| = hw.
    sim.add_static(
        BodyShape::Box(Vector2::new(hw + 1.0, 0.5)),
        Isometry2::translation(0.0, -0.5),
    )?;
    for side in [-1.0, 1.0] {
        sim.add_static(
            BodyShape::Box(Vector2::new(0.5, (top + 1.0) / 2.0)),
            Isometry2::translation(side * (hw + 0.5), (top - 1.0) / 2.0),
        )?;
    }
    let mut rng = Rng::new(seed);
    // A grid of spawn cells 2 wide and 1.4 high; every shape fits in a
    // circle of radius 0.6 around its centre, so none overlaps at the start.
    let columns = 10;
    for k in 0..count {
        let (col, row) = (k % columns, k / columns);
        let x = -hw + 1.0 + 2.0 * col as R + rng.range(-0.3, 0.3);
        let y = 1.0 + 1.4 * row as R + rng.range(-0.05, 0.05);
        let (shape, _) = random_shape(&mut rng)?;
        debug_assert!(shape.bounding_radius() <= 0.6);
        let body = sim.add_dynamic(
            shape,
            Isometry2::new(Vector2::new(x, y), rng.range(0.0, 6.3)),
        )?;
        let b = &mut sim.bodies[body];
        b.velocity = Vector2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 0.0));
        b.angular_velocity = rng.range(-4.0, 4.0);
    }
    Ok((sim, container))
}

/// One random shape whose bounding radius is at most 0.6, centred on its
/// centroid, and its kind's name.
fn random_shape(rng: &mut Rng) -> Result<(BodyShape, &'static str), Box<dyn Error>> {
    Ok(match rng.below(4) {
        0 => {
            let (hx, hy) = (rng.range(0.15, 0.42), rng.range(0.15, 0.42));
            (BodyShape::Box(Vector2::new(hx, hy)), "box")
        }
        1 => {
            // 3 to 8 points around a circle at jittered angles: their hull.
            let n = 3 + rng.below(6) as usize;
            let radius = rng.range(0.25, 0.55);
            let points: Vec<Point2<R>> = (0..n)
                .map(|i| {
                    let a = (i as R + rng.range(-0.3, 0.3)) * std::f64::consts::TAU / n as R;
                    Point2::new(radius * a.cos(), radius * a.sin())
                })
                .collect();
            let shape = match BodyShape::polygon(&points)?.0 {
                // The centroid may sit off the circle's centre: scale the
                // polygon back into the radius 0.6 if it pokes out.
                BodyShape::Polygon(v) => {
                    let reach = v.iter().map(|p| p.coords.norm()).fold(0.0, R::max);
                    let scale = (0.6 / reach).min(1.0);
                    BodyShape::Polygon(v.iter().map(|p| p * scale).collect())
                }
                other => other,
            };
            (shape, "polygon")
        }
        2 => {
            let radius = rng.range(0.1, 0.25);
            let half_length = rng.range(0.1, 0.6 - radius);
            (
                BodyShape::Capsule {
                    half_length,
                    radius,
                },
                "capsule",
            )
        }
        _ => (BodyShape::Circle(rng.range(0.15, 0.5)), "circle"),
    })
}
