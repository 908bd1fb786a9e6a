//! The platformer's level and its character controller, shared by the
//! example (`examples/platformer.rs`) and its test
//! (`tests/suite/platformer.rs`).
//!
//! **The level** (unit tiles, y up, the ground's top at y = 0):
//!
//! - a [`TileMap`] of 30 × 6 tiles from x = 0 to 30: ground four tiles deep,
//!   a gap of three tiles (x 9 to 12), a step up by one tile (x 18 to 24),
//!   the step down, and a gap of two tiles (x 27 to 29);
//! - a [`Polyline`] chain from x = 30 (where the map ends): a straight run of
//!   [`RUN_SEGMENTS`] segments of 1 at y = 0, a slope of 8 segments rising
//!   0.25 each, and a flat top of 6 segments at y = 2, where the level ends
//!   ([`Level::end`]).
//!
//! Both are static objects of one [`World`]; the character is not in the
//! world.
//!
//! **The controller** (fixed time step [`DT`]): the character is a
//! [`Capsule`] (core ±0.4, radius 0.4) that always runs right at
//! [`RUN_SPEED`]. Each step is one [`World::move_and_slide`] (skin
//! [`SKIN`]) along `(RUN_SPEED·dt, dy)`: on the ground `dy = −SNAP` (pressed
//! into the ground, so that the move always meets it and slides along it:
//! the horizontal part of the motion is kept exactly on flat ground), in the
//! air `dy = vy·dt` under gravity. The character is grounded after a step
//! when a hit's normal (from the character to the object) points down
//! (`n.y < −0.7`). It jumps (`vy = JUMP_SPEED`) when grounded and either a
//! ray cast straight down just ahead of it finds no ground within 1.5 below
//! its feet (a gap) or a ray cast forward 0.3 above its feet meets a steep
//! face within 0.6 (a step up).
//!
//! **The seam check**: on flat ground (the stretches of [`Level::flats`],
//! grounded before and after the step, no jump) the horizontal distance
//! walked in a step must be the whole `RUN_SPEED·dt` (to a relative `1e-9`).
//! A ghost collision at a tile seam or a chain vertex would stop or slow the
//! character there; [`Run::seam_steps`] counts the checked steps whose
//! footprint covers a seam.

use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;

/// The scalar of the example.
pub type R = f64;

/// The fixed time step, s.
pub const DT: R = 1.0 / 60.0;
/// The running speed, m/s.
pub const RUN_SPEED: R = 8.0;
/// Gravity, m/s².
pub const GRAVITY: R = 30.0;
/// The take-off speed of a jump, m/s (a jump rises 2 m and carries about
/// 5.9 m forward).
pub const JUMP_SPEED: R = 11.0;
/// The skin distance of `move_and_slide`, m.
pub const SKIN: R = 0.01;
/// How far a grounded character is pressed into the ground each step, m.
pub const SNAP: R = 0.05;
/// The capsule's radius and half core length, m.
pub const RADIUS: R = 0.4;
/// The capsule's half core length, m.
pub const HALF: R = 0.4;
/// The number of segments of the chain's straight run.
pub const RUN_SEGMENTS: usize = 40;
/// The relative tolerance of the seam check.
pub const SPEED_TOLERANCE: R = 1e-9;

/// The level: the world and what the picture and the checks need.
pub struct Level {
    /// The map and the chain, static.
    pub world: World<R>,
    /// The tile map's rows, top first, and its bottom-left corner.
    pub rows: Vec<Vec<bool>>,
    /// The map's bottom-left corner in the world.
    pub map_origin: [R; 2],
    /// The chain's points.
    pub chain: Vec<[R; 2]>,
    /// The flat stretches of ground `(x0, x1, top)` where the seam check
    /// applies.
    pub flats: Vec<(R, R, R)>,
    /// The x of every seam on flat ground: tile boundaries and chain
    /// vertices.
    pub seams: Vec<R>,
    /// The x where the level ends.
    pub end: R,
}

impl Level {
    /// The level of the module notes.
    ///
    /// # Errors
    /// A shape or world error (none for this level).
    pub fn new() -> Result<Self, Box<dyn std::error::Error>> {
        const COLS: usize = 30;
        const ROWS: usize = 6;
        // Ground height (in tiles) of each column: 4 (top at y = 0), 0 in
        // the gaps, 5 on the step.
        let height = |c: usize| match c {
            9..=11 | 27..=28 => 0,
            18..=23 => 5,
            _ => 4,
        };
        let rows: Vec<Vec<bool>> = (0..ROWS)
            .map(|t| {
                let r = ROWS - 1 - t; // from the bottom
                (0..COLS).map(|c| r < height(c)).collect()
            })
            .collect();
        let map_origin = [0.0, -4.0];
        let map = TileMap::from_rows(Vector2::new(1.0, 1.0), &rows)?;

        let mut chain: Vec<[R; 2]> = (0..=RUN_SEGMENTS).map(|i| [30.0 + i as R, 0.0]).collect();
        let foot = 30.0 + RUN_SEGMENTS as R;
        chain.extend((1..=8).map(|i| [foot + i as R, 0.25 * i as R]));
        chain.extend((1..=6).map(|i| [foot + 8.0 + i as R, 2.0]));
        let end = chain.last().expect("points")[0];
        let points: Vec<Point2<R>> = chain.iter().map(|p| Point2::new(p[0], p[1])).collect();
        let floor = Polyline::new(&points, false)?;

        let mut world = World::<R>::new(2.0)?;
        world.insert(
            map,
            Isometry2::translation(map_origin[0], map_origin[1]),
            Filter::ALL,
        )?;
        world.insert(floor, Isometry2::identity(), Filter::ALL)?;

        let flats = vec![
            (0.0, 9.0, 0.0),
            (12.0, 18.0, 0.0),
            (18.0, 24.0, 1.0),
            (24.0, 27.0, 0.0),
            (29.0, foot, 0.0),
            (foot + 8.0, end, 2.0),
        ];
        let mut seams: Vec<R> = (1..COLS)
            .map(|c| c as R)
            .filter(|&x| flats.iter().any(|f| f.0 < x && x < f.1))
            .collect();
        seams.extend(
            chain
                .iter()
                .map(|p| p[0])
                .filter(|&x| flats.iter().any(|f| f.0 <= x && x < f.1)),
        );
        Ok(Self {
            world,
            rows,
            map_origin,
            chain,
            flats,
            seams,
            end,
        })
    }

    /// The flat stretch under the whole footprint `[x0, x1]`, if any.
    fn flat_under(&self, x0: R, x1: R, feet: R) -> bool {
        self.flats
            .iter()
            .any(|&(a, b, top)| a <= x0 && x1 <= b && (feet - top).abs() < 2.0 * SKIN)
    }
}

/// One step of a run.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// The time at the end of the step, s.
    pub t: R,
    /// The position at the end of the step.
    pub x: R,
    /// The position at the end of the step.
    pub y: R,
    /// The horizontal speed over the step, m/s.
    pub vx: R,
    /// Whether the character jumped at the start of the step.
    pub jumped: bool,
    /// Whether the seam check applies to this step.
    pub on_flat: bool,
    /// Whether the footprint covered a seam during the step (on flat ground).
    pub at_seam: bool,
}

/// A whole run.
#[derive(Debug, Clone)]
pub struct Run {
    /// The start position.
    pub start: [R; 2],
    /// Every step.
    pub steps: Vec<Step>,
}

impl Run {
    /// The number of checked flat-ground steps whose footprint covered a seam.
    #[must_use]
    pub fn seam_steps(&self) -> usize {
        self.steps.iter().filter(|s| s.on_flat && s.at_seam).count()
    }

    /// Where the character took off, x.
    #[must_use]
    pub fn jumps(&self) -> Vec<R> {
        self.steps
            .iter()
            .filter(|s| s.jumped)
            .map(|s| s.x)
            .collect()
    }

    /// The least and greatest horizontal speed over the checked flat-ground
    /// steps.
    #[must_use]
    pub fn flat_speeds(&self) -> (R, R) {
        self.steps
            .iter()
            .filter(|s| s.on_flat)
            .fold((R::INFINITY, R::NEG_INFINITY), |(lo, hi), s| {
                (lo.min(s.vx), hi.max(s.vx))
            })
    }

    /// The last position.
    #[must_use]
    pub fn end(&self) -> [R; 2] {
        self.steps.last().map_or(self.start, |s| [s.x, s.y])
    }
}

/// The character's shape.
///
/// # Panics
/// Never: the capsule's numbers are valid.
#[must_use]
pub fn character() -> Capsule<R> {
    Capsule::new(Point2::new(0.0, -HALF), Point2::new(0.0, HALF), RADIUS).expect("a valid capsule")
}

/// Runs the character from the start of the level for at most `seconds`,
/// stopping once it is 2 m past the level's end.
///
/// # Errors
/// A world error (none for this level).
pub fn run(level: &Level, seconds: R) -> Result<Run, Box<dyn std::error::Error>> {
    run_with(level, &character(), seconds)
}

/// [`run`] with another character shape, which must have the capsule's
/// extents (half width [`RADIUS`], half height `HALF + RADIUS`): a box of
/// those half extents has a flat bottom, which is what catches on seams
/// when a level has ghost collisions.
///
/// # Errors
/// A world error (none for this level).
pub fn run_with(
    level: &Level,
    shape: &dyn Shape<R>,
    seconds: R,
) -> Result<Run, Box<dyn std::error::Error>> {
    let options = MoveOptions::new(SKIN).with_max_iterations(4);
    let start = [1.5, HALF + RADIUS + SKIN];
    let mut pose = Isometry2::translation(start[0], start[1]);
    let (mut vy, mut grounded) = (0.0, false);
    let mut steps = Vec::new();
    let frames = (seconds / DT).round() as usize;
    for frame in 1..=frames {
        let (x, y) = (pose.translation.x, pose.translation.y);
        let feet = y - HALF - RADIUS;
        let jumped = grounded && (gap_ahead(level, x, feet)? || wall_ahead(level, x, feet)?);
        if jumped {
            vy = JUMP_SPEED;
        }
        let air = !grounded || jumped;
        if air {
            vy -= GRAVITY * DT;
        }
        let dx = RUN_SPEED * DT;
        let dy = if air { vy * DT } else { -SNAP };
        let moved = level
            .world
            .move_and_slide(shape, &pose, &Vector2::new(dx, dy), options)?;
        let was_grounded = grounded && !jumped;
        grounded = moved.hits.iter().any(|h| h.hit.normal.y < -0.7);
        let ceiling = moved.hits.iter().any(|h| h.hit.normal.y > 0.7);
        if grounded || (ceiling && vy > 0.0) {
            vy = 0.0;
        } else if was_grounded {
            vy = 0.0; // walked off an edge: start falling
        }
        pose = moved.pose;
        let walked = moved.translation.x;
        let (x1, feet1) = (pose.translation.x, pose.translation.y - HALF - RADIUS);
        let on_flat = was_grounded
            && grounded
            && level.flat_under(x - RADIUS, x1 + RADIUS, feet)
            && level.flat_under(x - RADIUS, x1 + RADIUS, feet1);
        let at_seam = level
            .seams
            .iter()
            .any(|&s| x - RADIUS <= s && s <= x1 + RADIUS);
        steps.push(Step {
            t: frame as R * DT,
            x: x1,
            y: pose.translation.y,
            vx: walked / DT,
            jumped,
            on_flat,
            at_seam,
        });
        if x1 > level.end + 2.0 {
            break;
        }
    }
    Ok(Run { start, steps })
}

/// Whether no ground lies within 1.5 below the feet just ahead of the
/// character (the ray starts half a metre above the feet, above the ground
/// of a slope going up).
fn gap_ahead(level: &Level, x: R, feet: R) -> Result<bool, WorldError> {
    let ray = Ray::new(Point2::new(x + RADIUS + 0.3, feet + 0.5), -Vector2::y());
    let hit = level.world.cast_ray(&ray, 2.0, QueryFilter::default())?;
    Ok(hit.is_none())
}

/// Whether a steep face (a step up) lies within 0.6 ahead, 0.3 above the
/// feet.
fn wall_ahead(level: &Level, x: R, feet: R) -> Result<bool, WorldError> {
    let ray = Ray::new(Point2::new(x, feet + 0.3), Vector2::x());
    let hit = level
        .world
        .cast_ray(&ray, RADIUS + 0.6, QueryFilter::default())?;
    Ok(hit.is_some_and(|(_, h)| h.normal.x.abs() > 0.9))
}

/// The failures of a run: a flat-ground step slower than the running speed
/// (a seam caught the character), too few seams crossed for the check to
/// mean anything, or an end short of the level's end.
#[must_use]
pub fn check(level: &Level, run: &Run) -> Vec<String> {
    let mut failures = Vec::new();
    let want = RUN_SPEED;
    for s in run.steps.iter().filter(|s| s.on_flat) {
        if s.vx < want * (1.0 - SPEED_TOLERANCE) {
            failures.push(format!(
                "t = {:.3} s, x = {:.4}: horizontal speed {:.9} on flat ground{} (want {want})",
                s.t,
                s.x,
                s.vx,
                if s.at_seam { " at a seam" } else { "" }
            ));
        }
    }
    if run.seam_steps() < 100 {
        failures.push(format!(
            "only {} checked steps at a seam (want at least 100)",
            run.seam_steps()
        ));
    }
    let [x, _] = run.end();
    if x <= level.end {
        failures.push(format!(
            "ended at x = {x:.3}, short of the level's end at {}",
            level.end
        ));
    }
    failures
}

/// A picture of the level and the path: tiles in grey, the chain in black,
/// the path in blue with the capsule every 12 steps, jumps in red.
#[must_use]
pub fn svg(level: &Level, run: &Run) -> String {
    use std::fmt::Write as _;
    let scale = 12.0;
    let (x0, x1, y0, y1) = (-1.0, level.end + 3.0, -4.5, 7.0);
    let (w, h) = ((x1 - x0) * scale, (y1 - y0) * scale + 24.0);
    let px = |x: R| (x - x0) * scale;
    let py = |y: R| (y1 - y) * scale;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let rows = level.rows.len();
    for (t, row) in level.rows.iter().enumerate() {
        for (c, &solid) in row.iter().enumerate() {
            if solid {
                let (x, y) = (
                    level.map_origin[0] + c as R,
                    level.map_origin[1] + (rows - t) as R,
                );
                let _ = writeln!(
                    s,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{scale}\" height=\"{scale}\" \
                     fill=\"#ccc\" stroke=\"#999\" stroke-width=\"0.5\"/>",
                    px(x),
                    py(y)
                );
            }
        }
    }
    let chain: Vec<String> = level
        .chain
        .iter()
        .map(|p| format!("{:.1},{:.1}", px(p[0]), py(p[1])))
        .collect();
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>",
        chain.join(" ")
    );
    for p in &level.chain {
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"1.5\" fill=\"black\"/>",
            px(p[0]),
            py(p[1])
        );
    }
    let mut path = vec![format!("{:.1},{:.1}", px(run.start[0]), py(run.start[1]))];
    path.extend(
        run.steps
            .iter()
            .map(|st| format!("{:.1},{:.1}", px(st.x), py(st.y))),
    );
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\"/>",
        path.join(" ")
    );
    for st in run.steps.iter().step_by(12) {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{:.1}\" \
             fill=\"none\" stroke=\"steelblue\" opacity=\"0.5\"/>",
            px(st.x - RADIUS),
            py(st.y + HALF + RADIUS),
            2.0 * RADIUS * scale,
            2.0 * (HALF + RADIUS) * scale,
            RADIUS * scale
        );
    }
    for st in run.steps.iter().filter(|st| st.jumped) {
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#d62728\"/>",
            px(st.x),
            py(st.y)
        );
    }
    let (lo, hi) = run.flat_speeds();
    let _ = writeln!(
        s,
        "<text x=\"8\" y=\"{:.0}\">TileMap (grey) then Polyline (black); path in blue, jumps in red; \
         flat-ground speed {lo:.6}..{hi:.6} m/s over {} seam steps</text>",
        h - 8.0,
        run.seam_steps()
    );
    s.push_str("</svg>\n");
    s
}
