//! A small 2D rigid-body solver on top of kasanari's World and contact
//! manifolds (the `pyramid` example's engine; the test
//! `crates/kasanari/tests/suite/pyramid.rs` drives it too).
//!
//! # What it computes
//!
//! The motion of rigid bodies (boxes, convex polygons, capsules, circles)
//! under gravity, kept apart by their contacts, with Coulomb friction and no
//! restitution, in `f64`, one fixed step `dt` at a time. Static bodies have
//! infinite mass and never move.
//!
//! # The step, in order
//!
//! 1. **Contacts.** The World, with manifolds on
//!    (`World::set_manifolds(Some(prediction))`), gives in
//!    `collisions().manifolds` one manifold per pair of bodies within
//!    `prediction` of each other, sorted by handles, with `matched[i]`: the
//!    index of the point with the same feature id in that pair's manifold
//!    at the previous step. Each point becomes a constraint row at the
//!    midpoint `p` of its two witness points, with lever arms
//!    `r_A = p − c_A`, `r_B = p − c_B` and the separation `s` kasanari
//!    measured along the normal `n` (from A to B).
//! 2. **Gravity.** `v ← v + g·dt` for every dynamic body.
//! 3. **Warm start.** A point matched to last step's point starts with that
//!    point's accumulated normal and friction impulses, applied at once
//!    (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005). A
//!    resting stack then starts each step from last step's answer, and the
//!    iterations only correct what changed: this is what lets 10 iterations
//!    hold a 20-row pyramid. Measured: with the same 10 iterations started
//!    from zero every step, the pyramid collapses (its top box ends 5.5
//!    lower after 10 s).
//! 4. **Sequential impulses** (Catto, "Fast and Simple Physics using
//!    Sequential Impulses", GDC 2006), `velocity_iterations` sweeps over the
//!    rows, friction before the normal (so the normal, which matters more,
//!    has the last word):
//!    - friction: `λ_t ← clamp(λ_t − m_t·v_t, −μλ_n, μλ_n)` on the
//!      *accumulated* impulse, with `v_t` the relative velocity along the
//!      tangent and `m_t = 1/(1/m_A + 1/m_B + (r_A×t)²/I_A + (r_B×t)²/I_B)`
//!      the effective mass along `t`;
//!    - normal: `λ_n ← max(0, λ_n − m_n·(v_n + max(s, 0)/dt))`. Clamping the
//!      accumulated impulse, not each increment, is what makes the sweeps
//!      converge to the complementarity solution (an increment may be
//!      negative as long as the total push stays a push).
//!    - **Speculative contacts**: for a point that is not touching yet
//!      (`s > 0`), the row is `v_n ≥ −s/dt`: the bodies may approach by at
//!      most `s` during the step, so they arrive touching and never
//!      overlap, and a pair that is not approaching that fast gets no impulse
//!      at all. This replaces continuous collision detection for anything
//!      slower than `prediction/dt`; bodies are capped to that speed
//!      (`max_speed`), so a body can never cross a static wall within one
//!      step unseen.
//!    - **Two-point manifolds** solve their two normal rows together, as the
//!      2×2 linear complementarity problem they form (Box2D v2.4's block
//!      solver; [`solve_normal_pair`] has the cases). Solved one after the
//!      other, the two corners of a box on a face fight (each one's push
//!      tilts the box onto the other), which is what makes a tall stack
//!      rock and creep sideways: without it the pyramid's top box drifts
//!      3·10⁻³ sideways while the pyramid settles, with it 8·10⁻⁵.
//! 5. **Integration**: `x ← x + v·dt`, `θ ← θ + ω·dt` (symplectic Euler;
//!    the orientation is kept as a unit complex number, turned exactly).
//! 6. **Position correction** by non-linear Gauss–Seidel, `position_iterations`
//!    sweeps (Box2D v2.4's position solver, Catto's "Modeling and Solving
//!    Constraints", GDC 2009). Each point keeps its witness points in the
//!    bodies' frames and the normal in A's frame, so its separation can be
//!    re-measured after every move: `s = (x_B(p_B) − x_A(p_A))·R_A n_A`
//!    (exactly kasanari's separation before anything moves). Each point then
//!    moves the two bodies apart along `n` by the position impulse `−C/K`,
//!    with `C = clamp(β(s + slop/2), −max_correction, 0)` and
//!    `K = 1/m_A + 1/m_B + (r_A×n)²/I_A + (r_B×n)²/I_B` (the effective mass
//!    of the velocity row: a linearised step of the non-linear constraint
//!    `s ≥ −slop/2`).
//!
//! # Why this position correction
//!
//! The brief allowed Box2D v3's soft step, Baumgarte, split impulses or
//! NGS. The pyramid's criteria decide it: the top box must move less than
//! 1 % of its size in 10 s, and that box sits on 20 contacts in series, so
//! each contact may give at most about 0.05 % of a box. A soft contact
//! (Box2D v3) settles where its spring carries its load: in steady state
//! the soft row's equation gives `s = −2g_eff/ω²` per contact for a contact
//! frequency `ω` and a load `m g_eff`; summed down the pyramid's column
//! (loads of 1 to 20 boxes) that sinks the top by `Σ 2ig/ω² ≈ 12 %` at
//! Box2D's 30 Hz (a column estimate: the order of magnitude, not a
//! measurement), and stiff enough springs need many substeps. Baumgarte
//! feeds the position error into the velocities, so correcting a
//! penetration adds kinetic energy (the jitter of stacks). NGS moves positions only:
//! velocities are untouched (no energy is added, no bounce out of a deep
//! start), and the correction stops at its target depth whatever the load,
//! so a column of 20 contacts sinks by 20 target depths.
//!
//! **The slop** is the penetration the solver tolerates: `slop = 2·10⁻⁴`
//! (0.02 % of a 1×1 box). The correction aims at half of it, `s = −slop/2`,
//! not at `−slop` as Box2D v2 does: a loaded contact is pushed a little
//! deeper by every step's unconverged velocities and brought back by the
//! next correction, so it hovers just beyond its target; aiming at the
//! middle of the tolerated band keeps it inside. A smaller target would
//! gain nothing (speculative contacts never need a slop to stay alive: a
//! point a hair apart is still in the manifold and still pushes), and the
//! half left uncorrected spares the neighbours of a resting contact a
//! stream of tiny position corrections. Measured on the pyramid: the top
//! box sinks `2.0·10⁻³` (20 contacts × `slop/2`) and the deepest point over
//! the last second is `1.06·10⁻⁴`.
//!
//! # Cost
//!
//! Once warm, a step allocates nothing of its own: the constraint rows and
//! the impulse cache live in buffers reused from step to step (the World
//! reuses its own). Measured with callgrind (release, instructions inside
//! `Sim::step`, 180 steps): 6.1 M instructions per step for the 20-row
//! pyramid (1180 manifold points), of which the World's query (broad
//! phase, contacts and manifolds) is 26 % and the solver's 10 velocity and
//! 8 position sweeps most of the rest; 2.9 M for the first 3 s of the drop
//! scene, of which the World's query is 46 %.
//!
//! # Limits
//!
//! No sleeping, no restitution, no joints, no continuous collision beyond
//! the speculative margin, one manifold per pair (kasanari's: at most 2
//! points in 2D). Bodies are their shape: the centre of mass is the shape's
//! origin (the scenes build shapes centred on their centroid).

use std::error::Error;

use kasanari::broadphase::{Filter, Handle, World};
use kasanari::nalgebra::{Complex, Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{MAX_MANIFOLD_POINTS, Manifold};
use kasanari::shape::{Capsule, Circle, ConvexPolygon, Obb};

/// The scalar of the example.
pub type R = f64;

/// A pair's manifold as the World gives it.
pub type PairManifold = kasanari::broadphase::PairManifold<Manifold<R>>;

/// The solver's slop (m): the penetration it tolerates (module notes, "The
/// slop").
pub const SLOP: R = 2.0e-4;

/// Collision filter bit of static bodies (they ignore each other).
const STATIC: u32 = 1;
/// Collision filter bit of dynamic bodies.
const DYNAMIC: u32 = 2;

/// The solver's parameters.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The time step (s).
    pub dt: R,
    /// Gravity (m/s²).
    pub gravity: Vector2<R>,
    /// Sequential-impulse sweeps per step.
    pub velocity_iterations: usize,
    /// Position-correction sweeps per step (at most: it stops early when no
    /// point is deeper than its target, half the slop).
    pub position_iterations: usize,
    /// The fraction of the position error corrected per sweep (Box2D's 0.2).
    pub baumgarte: R,
    /// The penetration the solver tolerates (m); the position correction
    /// aims at `s = −slop/2` (module notes, "The slop").
    pub slop: R,
    /// The largest position correction of one point in one sweep (m), so
    /// a deep overlap is resolved over a few steps rather than at once.
    pub max_correction: R,
    /// The speculative margin (m): manifolds are built for pairs apart by
    /// at most this, and bodies move at most this far per step.
    pub prediction: R,
    /// The friction coefficient of every contact.
    pub friction: R,
    /// The density of every dynamic body (kg/m²).
    pub density: R,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            dt: 1.0 / 60.0,
            gravity: Vector2::new(0.0, -10.0),
            velocity_iterations: 10,
            position_iterations: 8,
            baumgarte: 0.2,
            slop: SLOP,
            max_correction: 0.2,
            prediction: 0.25,
            friction: 0.6,
            density: 1.0,
        }
    }
}

impl Settings {
    /// The speed cap: a body moves at most `prediction` per step.
    #[must_use]
    pub fn max_speed(&self) -> R {
        self.prediction / self.dt
    }
}

/// A body's shape, in its own frame, centred on its centroid.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyShape {
    /// A box with these half extents.
    Box(Vector2<R>),
    /// A convex polygon, counter-clockwise, centroid at the origin.
    Polygon(Vec<Point2<R>>),
    /// A capsule along x: its segment from `(−half_length, 0)` to
    /// `(half_length, 0)`, and its radius.
    Capsule {
        /// Half the length of the core segment.
        half_length: R,
        /// The radius.
        radius: R,
    },
    /// A circle of this radius.
    Circle(R),
}

impl BodyShape {
    /// The convex hull of `points`, moved so that its centroid is the
    /// origin; also returns the centroid (where the caller's frame had it).
    ///
    /// # Errors
    /// The hull's [`ShapeError`](kasanari::shape::ShapeError).
    pub fn polygon(points: &[Point2<R>]) -> Result<(Self, Vector2<R>), Box<dyn Error>> {
        let hull = ConvexPolygon::from_hull(points)?;
        let v = hull.vertices();
        let (area, centroid, _) = polygon_moments(v);
        debug_assert!(area > 0.0);
        let centred = v.iter().map(|p| p - centroid.coords).collect();
        Ok((Self::Polygon(centred), centroid.coords))
    }

    /// Mass and rotational inertia about the origin (the centroid) for a
    /// uniform `density`.
    #[must_use]
    pub fn mass_properties(&self, density: R) -> (R, R) {
        use std::f64::consts::PI;
        match self {
            Self::Box(h) => {
                // A w × h rectangle: m = ρwh, I = m(w² + h²)/12.
                let (w, hh) = (2.0 * h.x, 2.0 * h.y);
                let m = density * w * hh;
                (m, m * (w * w + hh * hh) / 12.0)
            }
            Self::Polygon(v) => {
                let (area, _, second) = polygon_moments(v);
                (density * area, density * second)
            }
            Self::Capsule {
                half_length: l,
                radius: r,
            } => {
                // The rectangle 2l × 2r: m_r = 4ρlr, I_r = m_r((2l)² + (2r)²)/12.
                let m_rect = density * 4.0 * l * r;
                let i_rect = m_rect * (4.0 * l * l + 4.0 * r * r) / 12.0;
                // The two half discs make a disc of mass m_d = ρπr². A half
                // disc's centroid is d = 4r/(3π) from its flat side; about
                // its own centroid it has I = (m_d/2)(r²/2) − (m_d/2)d², and
                // its centroid is l + d from the capsule's centre. Both halves:
                // m_d(r²/2 − d² + (l + d)²) = m_d(r²/2 + l² + 2ld).
                let m_disc = density * PI * r * r;
                let d = 4.0 * r / (3.0 * PI);
                let i_caps = m_disc * (r * r / 2.0 + l * l + 2.0 * l * d);
                (m_rect + m_disc, i_rect + i_caps)
            }
            Self::Circle(r) => {
                let m = density * PI * r * r;
                (m, m * r * r / 2.0)
            }
        }
    }

    /// The largest distance from the origin to a point of the shape.
    #[must_use]
    pub fn bounding_radius(&self) -> R {
        match self {
            Self::Box(h) => h.norm(),
            Self::Polygon(v) => v.iter().map(|p| p.coords.norm()).fold(0.0, R::max),
            Self::Capsule {
                half_length,
                radius,
            } => half_length + radius,
            Self::Circle(r) => *r,
        }
    }

    /// Inserts the kasanari shape into `world` at `pose`.
    fn insert(
        &self,
        world: &mut World<R>,
        pose: Isometry2<R>,
        filter: Filter,
    ) -> Result<Handle, Box<dyn Error>> {
        Ok(match self {
            Self::Box(h) => world.insert(Obb::new(*h)?, pose, filter)?,
            Self::Polygon(v) => world.insert(ConvexPolygon::new(v)?, pose, filter)?,
            Self::Capsule {
                half_length,
                radius,
            } => world.insert(
                Capsule::new(
                    Point2::new(-half_length, 0.0),
                    Point2::new(*half_length, 0.0),
                    *radius,
                )?,
                pose,
                filter,
            )?,
            Self::Circle(r) => world.insert(Circle::new(*r)?, pose, filter)?,
        })
    }
}

/// Area, centroid and second moment of area about the centroid of a
/// counter-clockwise polygon.
///
/// With the fan of triangles `(o, p_i, p_{i+1})` from the origin, each of
/// signed area `c_i/2` (`c_i = p_i × p_{i+1}`): the area is `Σ c_i/2`, the
/// first moment `Σ c_i(p_i + p_{i+1})/6`, and the second polar moment about
/// the origin `Σ c_i(p_i·p_i + p_i·p_{i+1} + p_{i+1}·p_{i+1})/12`; the
/// parallel-axis theorem moves it to the centroid.
fn polygon_moments(v: &[Point2<R>]) -> (R, Point2<R>, R) {
    let (mut area2, mut first, mut second) = (0.0, Vector2::zeros(), 0.0);
    for (i, p) in v.iter().enumerate() {
        let q = v[(i + 1) % v.len()];
        let c = cross(&p.coords, &q.coords);
        area2 += c;
        first += (p.coords + q.coords) * c;
        second += c * (p.coords.dot(&p.coords) + p.coords.dot(&q.coords) + q.coords.dot(&q.coords));
    }
    let area = area2 / 2.0;
    let centroid = first / (3.0 * area2);
    let second_origin = second / 12.0;
    (
        area,
        Point2::from(centroid),
        second_origin - area * centroid.norm_squared(),
    )
}

/// A rigid body.
#[derive(Debug, Clone)]
pub struct Body {
    /// Its object in the World.
    pub handle: Handle,
    /// Its shape (for drawing).
    pub shape: BodyShape,
    /// Centre of mass (the shape's origin), m.
    pub position: Vector2<R>,
    /// Orientation (a unit complex number: `cos θ + i sin θ`).
    pub rotation: UnitComplex<R>,
    /// Where it started.
    pub start: Isometry2<R>,
    /// Linear velocity, m/s.
    pub velocity: Vector2<R>,
    /// Angular velocity, rad/s.
    pub angular_velocity: R,
    /// `1/m`, 0 for a static body.
    pub inv_mass: R,
    /// `1/I`, 0 for a static body.
    pub inv_inertia: R,
}

impl Body {
    /// The pose.
    #[must_use]
    pub fn pose(&self) -> Isometry2<R> {
        Isometry2::from_parts(Translation2::from(self.position), self.rotation)
    }

    /// The angle, rad, in `(−π, π]`.
    #[must_use]
    pub fn angle(&self) -> R {
        self.rotation.angle()
    }

    /// Whether the body is static.
    #[must_use]
    pub fn is_static(&self) -> bool {
        self.inv_mass == 0.0
    }
}

/// One point of a contact constraint.
#[derive(Debug, Clone, Copy, Default)]
struct RowPoint {
    /// Lever arms from each centre of mass to the contact point (world).
    r_a: Vector2<R>,
    r_b: Vector2<R>,
    /// Witness points in each body's frame (for the position correction).
    local_a: Point2<R>,
    local_b: Point2<R>,
    /// Separation at the start of the step.
    separation: R,
    normal_mass: R,
    tangent_mass: R,
    normal_impulse: R,
    tangent_impulse: R,
}

/// The contact constraint of one pair.
#[derive(Debug, Clone, Copy)]
struct Constraint {
    a: usize,
    b: usize,
    normal: Vector2<R>,
    /// The normal in A's frame.
    local_normal: Vector2<R>,
    points: [RowPoint; MAX_MANIFOLD_POINTS],
    len: usize,
}

/// A pair's accumulated (normal, friction) impulses per manifold point.
type PairImpulses = (Handle, Handle, [(R, R); MAX_MANIFOLD_POINTS]);

/// What one step saw.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepInfo {
    /// The least separation over every manifold point at the start of the
    /// step (kasanari's measure of the current positions); `+∞` with no
    /// manifold.
    pub min_separation: R,
    /// Manifolds (pairs within the prediction).
    pub manifolds: usize,
    /// Manifold points.
    pub points: usize,
    /// Points that were warm started.
    pub warm: usize,
}

/// The bodies, their World and the solver's state.
pub struct Sim {
    /// The settings.
    pub settings: Settings,
    /// The collision world (one object per body).
    pub world: World<R>,
    /// The bodies.
    pub bodies: Vec<Body>,
    /// Body index by World slot index.
    body_of_slot: Vec<usize>,
    constraints: Vec<Constraint>,
    /// The impulses of the previous step's constraints, per pair (sorted
    /// like the manifolds), for warm starting.
    cache: Vec<PairImpulses>,
    next_cache: Vec<PairImpulses>,
}

impl Sim {
    /// An empty simulation: a World with manifolds on, within the
    /// settings' prediction.
    ///
    /// # Errors
    /// A bad cell size or prediction.
    pub fn new(settings: Settings, cell_size: R) -> Result<Self, Box<dyn Error>> {
        let mut world = World::new(cell_size)?;
        world.set_manifolds(Some(settings.prediction))?;
        Ok(Self {
            settings,
            world,
            bodies: Vec::new(),
            body_of_slot: Vec::new(),
            constraints: Vec::new(),
            cache: Vec::new(),
            next_cache: Vec::new(),
        })
    }

    /// Adds a static body; returns its index.
    ///
    /// # Errors
    /// A shape or pose kasanari refuses.
    pub fn add_static(
        &mut self,
        shape: BodyShape,
        pose: Isometry2<R>,
    ) -> Result<usize, Box<dyn Error>> {
        self.add(shape, pose, 0.0, 0.0, Filter::new(STATIC, DYNAMIC))
    }

    /// Adds a dynamic body of the settings' density; returns its index.
    ///
    /// # Errors
    /// A shape or pose kasanari refuses.
    pub fn add_dynamic(
        &mut self,
        shape: BodyShape,
        pose: Isometry2<R>,
    ) -> Result<usize, Box<dyn Error>> {
        let (m, i) = shape.mass_properties(self.settings.density);
        self.add(
            shape,
            pose,
            1.0 / m,
            1.0 / i,
            Filter::new(DYNAMIC, u32::MAX),
        )
    }

    fn add(
        &mut self,
        shape: BodyShape,
        pose: Isometry2<R>,
        inv_mass: R,
        inv_inertia: R,
        filter: Filter,
    ) -> Result<usize, Box<dyn Error>> {
        let handle = shape.insert(&mut self.world, pose, filter)?;
        let slot = handle.index() as usize;
        if self.body_of_slot.len() <= slot {
            self.body_of_slot.resize(slot + 1, usize::MAX);
        }
        self.body_of_slot[slot] = self.bodies.len();
        self.bodies.push(Body {
            handle,
            shape,
            position: pose.translation.vector,
            rotation: pose.rotation,
            start: pose,
            velocity: Vector2::zeros(),
            angular_velocity: 0.0,
            inv_mass,
            inv_inertia,
        });
        Ok(self.bodies.len() - 1)
    }

    /// The manifolds of the latest `step` or `measure`.
    #[must_use]
    pub fn manifolds(&self) -> &[PairManifold] {
        &self.world.last_collisions().manifolds
    }

    /// Recomputes the manifolds at the current positions (for the final
    /// state's figures and picture) and returns their figures. Call it at
    /// the end only: the next step would match its ids against these
    /// manifolds, not against the ones its warm-start impulses came from.
    ///
    /// # Errors
    /// A pair the narrow phase cannot answer.
    pub fn measure(&mut self) -> Result<StepInfo, Box<dyn Error>> {
        let frame = self.world.collisions();
        let manifolds = &frame.manifolds;
        Ok(build_constraints(
            manifolds,
            &self.bodies,
            &self.body_of_slot,
            &self.cache,
            &mut self.constraints,
        ))
    }

    /// Advances the simulation by one step.
    ///
    /// # Errors
    /// A pair the narrow phase cannot answer, or a pose the World refuses
    /// (a body gone non-finite).
    pub fn step(&mut self) -> Result<StepInfo, Box<dyn Error>> {
        let s = self.settings;
        let frame = self.world.collisions();
        if let Some((a, b, e)) = frame.errors.first() {
            return Err(format!("pair {a} {b}: {e}").into());
        }
        let manifolds = &frame.manifolds;
        let info = build_constraints(
            manifolds,
            &self.bodies,
            &self.body_of_slot,
            &self.cache,
            &mut self.constraints,
        );
        for b in self.bodies.iter_mut().filter(|b| !b.is_static()) {
            b.velocity += s.gravity * s.dt;
        }
        warm_start(&self.constraints, &mut self.bodies);
        for _ in 0..s.velocity_iterations {
            solve_velocities(&mut self.constraints, &mut self.bodies, &s);
        }
        // Keep the impulses for the next step's warm start.
        self.next_cache.clear();
        self.next_cache.extend(self.constraints.iter().map(|c| {
            let mut imp = [(0.0, 0.0); MAX_MANIFOLD_POINTS];
            for (k, p) in c.points[..c.len].iter().enumerate() {
                imp[k] = (p.normal_impulse, p.tangent_impulse);
            }
            (self.bodies[c.a].handle, self.bodies[c.b].handle, imp)
        }));
        std::mem::swap(&mut self.cache, &mut self.next_cache);
        let max_speed = s.max_speed();
        for b in self.bodies.iter_mut().filter(|b| !b.is_static()) {
            let speed = b.velocity.norm();
            if speed > max_speed {
                b.velocity *= max_speed / speed;
            }
            b.position += b.velocity * s.dt;
            // Exact: turn by ω·dt (one sine and cosine per body and step),
            // then renormalise so that rounding cannot build up.
            b.rotation = renormalised(UnitComplex::new(b.angular_velocity * s.dt) * b.rotation);
        }
        for _ in 0..s.position_iterations {
            if solve_positions(&self.constraints, &mut self.bodies, &s) {
                break;
            }
        }
        let moving = self.bodies.iter().filter(|b| !b.is_static());
        self.world.set_poses(moving.map(|b| (b.handle, b.pose())))?;
        Ok(info)
    }
}

/// `q` renormalised to unit length.
#[inline]
fn renormalised(q: UnitComplex<R>) -> UnitComplex<R> {
    UnitComplex::new_normalize(q.into_inner())
}

/// `q` turned by the small angle `d` of a position correction, to first
/// order: `q + d·iq`, renormalised (Box2D v3's rotation integration). It
/// turns by `atan d` instead of `d`, a relative error of `d²/3`: `10⁻⁶` for
/// the largest corrections the pyramid sees, and the sine and cosine it
/// saves were a quarter of the step's instructions (callgrind).
#[inline]
fn turned(q: UnitComplex<R>, d: R) -> UnitComplex<R> {
    let (c, s) = (q.re, q.im);
    UnitComplex::new_normalize(Complex::new(c - d * s, s + d * c))
}

/// `a × b` for 2D vectors (a scalar).
#[inline]
fn cross(a: &Vector2<R>, b: &Vector2<R>) -> R {
    a.x * b.y - a.y * b.x
}

/// `w × r` for an angular velocity `w` (a vector).
#[inline]
fn spin(w: R, r: &Vector2<R>) -> Vector2<R> {
    Vector2::new(-w * r.y, w * r.x)
}

/// The effective mass of a row along `d` at lever arms `r_a`, `r_b`.
#[inline]
fn effective_mass(a: &Body, b: &Body, r_a: &Vector2<R>, r_b: &Vector2<R>, d: &Vector2<R>) -> R {
    let (ra, rb) = (cross(r_a, d), cross(r_b, d));
    let k = a.inv_mass + b.inv_mass + a.inv_inertia * ra * ra + b.inv_inertia * rb * rb;
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// The tangent of a normal: `n` turned by −90°.
#[inline]
fn tangent(n: &Vector2<R>) -> Vector2<R> {
    Vector2::new(n.y, -n.x)
}

/// One constraint per manifold, warm started from `cache` (the previous
/// step's impulses, sorted by pair like the manifolds) through `matched`.
fn build_constraints(
    manifolds: &[PairManifold],
    bodies: &[Body],
    body_of_slot: &[usize],
    cache: &[PairImpulses],
    out: &mut Vec<Constraint>,
) -> StepInfo {
    out.clear();
    let mut info = StepInfo {
        min_separation: R::INFINITY,
        ..StepInfo::default()
    };
    let mut k = 0; // walks `cache` alongside the sorted manifolds
    for pm in manifolds {
        while k < cache.len() && (cache[k].0, cache[k].1) < (pm.a, pm.b) {
            k += 1;
        }
        let previous = cache
            .get(k)
            .filter(|c| (c.0, c.1) == (pm.a, pm.b))
            .map(|c| &c.2);
        let (ia, ib) = (
            body_of_slot[pm.a.index() as usize],
            body_of_slot[pm.b.index() as usize],
        );
        let (a, b) = (&bodies[ia], &bodies[ib]);
        let (pose_a, pose_b) = (a.pose(), b.pose());
        let n = pm.manifold.normal().into_inner();
        let t = tangent(&n);
        let mut c = Constraint {
            a: ia,
            b: ib,
            normal: n,
            local_normal: pose_a.rotation.inverse_transform_vector(&n),
            points: [RowPoint::default(); MAX_MANIFOLD_POINTS],
            len: pm.manifold.len(),
        };
        for (i, mp) in pm.manifold.points().iter().enumerate() {
            let p = nalgebra_midpoint(&mp.point_a, &mp.point_b);
            let r_a = p - a.position;
            let r_b = p - b.position;
            let (normal_impulse, tangent_impulse) = match (previous, pm.matched[i]) {
                (Some(prev), Some(j)) => {
                    info.warm += 1;
                    prev[usize::from(j)]
                }
                _ => (0.0, 0.0),
            };
            c.points[i] = RowPoint {
                r_a,
                r_b,
                local_a: pose_a.inverse_transform_point(&mp.point_a),
                local_b: pose_b.inverse_transform_point(&mp.point_b),
                separation: mp.separation,
                normal_mass: effective_mass(a, b, &r_a, &r_b, &n),
                tangent_mass: effective_mass(a, b, &r_a, &r_b, &t),
                normal_impulse,
                tangent_impulse,
            };
            info.min_separation = info.min_separation.min(mp.separation);
            info.points += 1;
        }
        info.manifolds += 1;
        out.push(c);
    }
    info
}

/// The midpoint of two points, as a vector from the origin.
#[inline]
fn nalgebra_midpoint(p: &Point2<R>, q: &Point2<R>) -> Vector2<R> {
    (p.coords + q.coords) * 0.5
}

/// Applies the impulse `imp` at lever arms `r_a`, `r_b`: `−imp` to A,
/// `+imp` to B.
#[inline]
fn apply(bodies: &mut [Body], c: &Constraint, r_a: &Vector2<R>, r_b: &Vector2<R>, imp: Vector2<R>) {
    let a = &mut bodies[c.a];
    a.velocity -= imp * a.inv_mass;
    a.angular_velocity -= a.inv_inertia * cross(r_a, &imp);
    let b = &mut bodies[c.b];
    b.velocity += imp * b.inv_mass;
    b.angular_velocity += b.inv_inertia * cross(r_b, &imp);
}

fn warm_start(constraints: &[Constraint], bodies: &mut [Body]) {
    for c in constraints {
        let t = tangent(&c.normal);
        for p in &c.points[..c.len] {
            let imp = c.normal * p.normal_impulse + t * p.tangent_impulse;
            apply(bodies, c, &p.r_a, &p.r_b, imp);
        }
    }
}

/// The velocity of B relative to A at the lever arms.
#[inline]
fn relative_velocity(
    bodies: &[Body],
    c: &Constraint,
    r_a: &Vector2<R>,
    r_b: &Vector2<R>,
) -> Vector2<R> {
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    b.velocity + spin(b.angular_velocity, r_b) - a.velocity - spin(a.angular_velocity, r_a)
}

/// One sequential-impulse sweep (module notes, step 4).
fn solve_velocities(constraints: &mut [Constraint], bodies: &mut [Body], s: &Settings) {
    let inv_dt = 1.0 / s.dt;
    for c in constraints.iter_mut() {
        let n = c.normal;
        let t = tangent(&n);
        let len = c.len;
        for i in 0..len {
            let p = c.points[i];
            let vt = relative_velocity(bodies, c, &p.r_a, &p.r_b).dot(&t);
            let limit = s.friction * p.normal_impulse;
            let total = (p.tangent_impulse - p.tangent_mass * vt).clamp(-limit, limit);
            let delta = total - p.tangent_impulse;
            c.points[i].tangent_impulse = total;
            apply(bodies, c, &p.r_a, &p.r_b, t * delta);
        }
        if len == 2 && solve_normal_pair(c, bodies, inv_dt) {
            continue;
        }
        for i in 0..len {
            let p = c.points[i];
            let vn = relative_velocity(bodies, c, &p.r_a, &p.r_b).dot(&n);
            // Speculative: a gap s > 0 may close by s this step (v_n ≥ −s/dt).
            let bias = p.separation.max(0.0) * inv_dt;
            let total = (p.normal_impulse - p.normal_mass * (vn + bias)).max(0.0);
            let delta = total - p.normal_impulse;
            c.points[i].normal_impulse = total;
            apply(bodies, c, &p.r_a, &p.r_b, n * delta);
        }
    }
}

/// The two normal rows of a two-point manifold solved together, as the
/// linear complementarity problem they are (Box2D v2's block solver): find
/// accumulated impulses `x ≥ 0` with `w = K x + b ≥ 0` and `x·w = 0`, where
/// `K` is the 2×2 effective-mass matrix of the pair of rows
/// (`K_ij = 1/m_A + 1/m_B + (r_Ai×n)(r_Aj×n)/I_A + (r_Bi×n)(r_Bj×n)/I_B`),
/// `w` the rows' velocities after the impulses (plus the speculative bias)
/// and `b` those velocities with the accumulated impulses taken out. With
/// two unknowns the four cases (both pushing, only one, only the other,
/// neither) are tried in turn; the first consistent one is the solution.
/// Returns `false` when `K` is too badly conditioned (the two points almost
/// on one line through the centres: one point in effect), leaving the rows
/// to the sequential solve.
fn solve_normal_pair(c: &mut Constraint, bodies: &mut [Body], inv_dt: R) -> bool {
    let n = c.normal;
    let (p1, p2) = (c.points[0], c.points[1]);
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let (rn1a, rn1b) = (cross(&p1.r_a, &n), cross(&p1.r_b, &n));
    let (rn2a, rn2b) = (cross(&p2.r_a, &n), cross(&p2.r_b, &n));
    let m = a.inv_mass + b.inv_mass;
    let k11 = m + a.inv_inertia * rn1a * rn1a + b.inv_inertia * rn1b * rn1b;
    let k22 = m + a.inv_inertia * rn2a * rn2a + b.inv_inertia * rn2b * rn2b;
    let k12 = m + a.inv_inertia * rn1a * rn2a + b.inv_inertia * rn1b * rn2b;
    let det = k11 * k22 - k12 * k12;
    // Condition number bound (Box2D's 1000): beyond it, the 2×2 solve
    // amplifies rounding more than it helps.
    let well_conditioned = k11 * k11 < 1000.0 * det;
    if !well_conditioned {
        return false;
    }
    let old = [p1.normal_impulse, p2.normal_impulse];
    let vn1 =
        relative_velocity(bodies, c, &p1.r_a, &p1.r_b).dot(&n) + p1.separation.max(0.0) * inv_dt;
    let vn2 =
        relative_velocity(bodies, c, &p2.r_a, &p2.r_b).dot(&n) + p2.separation.max(0.0) * inv_dt;
    // b = v − K·old: the velocities with the accumulated impulses removed.
    let b1 = vn1 - (k11 * old[0] + k12 * old[1]);
    let b2 = vn2 - (k12 * old[0] + k22 * old[1]);
    let x = 'solve: {
        // Both points push: x = −K⁻¹ b.
        let x1 = -(k22 * b1 - k12 * b2) / det;
        let x2 = -(k11 * b2 - k12 * b1) / det;
        if x1 >= 0.0 && x2 >= 0.0 {
            break 'solve [x1, x2];
        }
        // Only the first: x2 = 0, w1 = 0, w2 = k12 x1 + b2 ≥ 0.
        let x1 = -b1 / k11;
        if x1 >= 0.0 && k12 * x1 + b2 >= 0.0 {
            break 'solve [x1, 0.0];
        }
        // Only the second.
        let x2 = -b2 / k22;
        if x2 >= 0.0 && k12 * x2 + b1 >= 0.0 {
            break 'solve [0.0, x2];
        }
        // Neither: both separating.
        if b1 >= 0.0 && b2 >= 0.0 {
            break 'solve [0.0, 0.0];
        }
        // No consistent case (rounding): leave the impulses as they are.
        old
    };
    let (d1, d2) = (x[0] - old[0], x[1] - old[1]);
    c.points[0].normal_impulse = x[0];
    c.points[1].normal_impulse = x[1];
    let (ra1, rb1, ra2, rb2) = (p1.r_a, p1.r_b, p2.r_a, p2.r_b);
    apply(bodies, c, &ra1, &rb1, n * d1);
    apply(bodies, c, &ra2, &rb2, n * d2);
    true
}

/// One non-linear Gauss–Seidel sweep on the positions (module notes,
/// step 6); `true` when no point was deeper than the slop (nothing to do).
fn solve_positions(constraints: &[Constraint], bodies: &mut [Body], s: &Settings) -> bool {
    let mut deepest: R = 0.0;
    for c in constraints {
        for p in &c.points[..c.len] {
            let (a, b) = (&bodies[c.a], &bodies[c.b]);
            let (pose_a, pose_b) = (a.pose(), b.pose());
            let n = pose_a.rotation * c.local_normal;
            let (wa, wb) = (pose_a * p.local_a, pose_b * p.local_b);
            let sep = (wb - wa).dot(&n);
            let target = s.slop * 0.5;
            deepest = deepest.min(sep + target);
            // C ≤ 0: only a penetration beyond half the slop is corrected.
            let correction = (s.baumgarte * (sep + target)).clamp(-s.max_correction, 0.0);
            if correction == 0.0 {
                continue;
            }
            let mid = nalgebra_midpoint(&wa, &wb);
            let (r_a, r_b) = (mid - a.position, mid - b.position);
            let k = effective_mass(a, b, &r_a, &r_b, &n);
            let imp = n * (-correction * k);
            let a = &mut bodies[c.a];
            a.position -= imp * a.inv_mass;
            a.rotation = turned(a.rotation, -a.inv_inertia * cross(&r_a, &imp));
            let b = &mut bodies[c.b];
            b.position += imp * b.inv_mass;
            b.rotation = turned(b.rotation, b.inv_inertia * cross(&r_b, &imp));
        }
    }
    deepest >= 0.0
}
