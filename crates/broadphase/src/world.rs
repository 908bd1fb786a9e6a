//! The world: shapes registered with poses and filters, moved, removed, and
//! queried for colliding pairs every frame.

use core::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

use nalgebra::Point;
use narrowphase::DispatchError;
pub use narrowphase::composite::Parts;
use shape::{BoundingBox, Real};

use crate::GridError;
use crate::grid::Grid;
use crate::space::{ContactType, Dim, Space};
use crate::stored::Storage;

mod cast;
mod continuous;
mod manifolds;
mod queries;
mod rays;
mod slide;

pub use manifolds::PairManifold;
pub use queries::QueryFilter;
pub use slide::{MoveHit, MoveOptions, Moved};

/// A handle to an object in a [`World`]: a slot index, the slot's generation
/// (so a handle to a removed object stays invalid when the slot is reused), and
/// the world it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle {
    world: u32,
    index: u32,
    generation: u32,
}

impl Handle {
    /// The slot index (dense, reused after removal).
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}v{}", self.index, self.generation)
    }
}

/// Collision filter bits (Box2D's categories and masks): two objects are tested
/// only if each one's `membership` shares a bit with the other's `mask`.
///
/// ```
/// use broadphase::Filter;
/// const PLAYER: u32 = 1;
/// const BULLET: u32 = 2;
/// let bullet = Filter::new(BULLET, !BULLET); // bullets ignore bullets
/// let player = Filter::new(PLAYER, u32::MAX);
/// assert!(bullet.accepts(&player));
/// assert!(!bullet.accepts(&bullet));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The groups this object belongs to.
    pub membership: u32,
    /// The groups this object collides with.
    pub mask: u32,
}

impl Filter {
    /// Everything collides with everything.
    pub const ALL: Self = Self {
        membership: u32::MAX,
        mask: u32::MAX,
    };

    /// A filter with the given bits.
    #[must_use]
    pub const fn new(membership: u32, mask: u32) -> Self {
        Self { membership, mask }
    }

    /// Whether objects with these two filters are tested against each other.
    #[must_use]
    pub const fn accepts(&self, other: &Self) -> bool {
        self.membership & other.mask != 0 && other.membership & self.mask != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Self::ALL
    }
}

/// Why a world operation was refused. The world is unchanged after any error.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle's object was removed.
    StaleHandle(Handle),
    /// The handle belongs to another world.
    ForeignHandle(Handle),
    /// A pose has a NaN or infinite number.
    NonFinitePose,
    /// The shape's bounding box at the pose is not finite (the shape is too
    /// large, or too far out, for the precision).
    NonFiniteBounds,
    /// The world is full (`u32::MAX` slots).
    Full,
    /// A grid error (an invalid cell size).
    Grid(GridError),
    /// A query ray has a NaN or infinite number, or a zero direction.
    InvalidRay,
    /// A query's `max_toi` is NaN or negative (it may be `+∞`).
    InvalidMaxToi,
    /// A query's `max_distance` is NaN or negative (it may be `+∞`).
    InvalidMaxDistance,
    /// A query point has a NaN or infinite coordinate.
    NonFinitePoint,
    /// A velocity or translation has a NaN or infinite coordinate.
    NonFiniteVelocity,
    /// A move's skin distance is not a positive finite number.
    InvalidSkin,
    /// A manifold prediction ([`World::set_manifolds`]) is NaN, infinite or
    /// negative.
    InvalidPrediction,
    /// The narrow phase could not answer a query for this object (a user
    /// shape with no kernel and no fallback for it): the query fails rather
    /// than answer without the object.
    Narrowphase {
        /// The object.
        handle: Handle,
        /// The narrow phase's error.
        error: DispatchError,
    },
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::StaleHandle(h) => write!(f, "handle {h} refers to a removed object"),
            Self::ForeignHandle(h) => write!(f, "handle {h} belongs to another world"),
            Self::NonFinitePose => write!(f, "pose has a NaN or infinite number"),
            Self::NonFiniteBounds => {
                write!(f, "the shape's bounding box at this pose is not finite")
            }
            Self::Full => write!(f, "the world is full"),
            Self::Grid(e) => write!(f, "{e}"),
            Self::InvalidRay => write!(
                f,
                "a ray needs a finite origin and a finite, non-zero direction"
            ),
            Self::InvalidMaxToi => write!(f, "max_toi must be a number >= 0 (infinity allowed)"),
            Self::InvalidMaxDistance => {
                write!(f, "max_distance must be a number >= 0 (infinity allowed)")
            }
            Self::NonFinitePoint => write!(f, "a query point has a NaN or infinite coordinate"),
            Self::NonFiniteVelocity => {
                write!(
                    f,
                    "a velocity or translation has a NaN or infinite coordinate"
                )
            }
            Self::InvalidSkin => write!(f, "the skin distance must be a finite number > 0"),
            Self::InvalidPrediction => {
                write!(f, "the manifold prediction must be a finite number >= 0")
            }
            Self::Narrowphase { handle, error } => {
                write!(
                    f,
                    "object {handle}: the narrow phase could not answer: {error}"
                )
            }
        }
    }
}

impl std::error::Error for WorldError {}

impl From<GridError> for WorldError {
    fn from(e: GridError) -> Self {
        Self::Grid(e)
    }
}

/// An object as stored: the shape, its pose and filter.
pub struct Object<T: Real, const D: usize>
where
    Dim<D>: Space<T, D>,
{
    shape: <Dim<D> as Space<T, D>>::Stored,
    pose: <Dim<D> as Space<T, D>>::Pose,
    filter: Filter,
    /// For a continuous object, its pose at the previous query (or when it
    /// was made continuous).
    swept_from: Option<<Dim<D> as Space<T, D>>::Pose>,
}

impl<T: Real, const D: usize> Object<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// The shape.
    #[must_use]
    pub fn shape(&self) -> &<Dim<D> as Space<T, D>>::Shape {
        self.shape.shape()
    }
    /// The pose.
    #[must_use]
    pub fn pose(&self) -> &<Dim<D> as Space<T, D>>::Pose {
        &self.pose
    }
    /// The collision filter.
    #[must_use]
    pub fn filter(&self) -> Filter {
        self.filter
    }
    /// Whether the object is continuous ([`World::set_continuous`]).
    #[must_use]
    pub fn is_continuous(&self) -> bool {
        self.swept_from.is_some()
    }
}

impl<T: Real, const D: usize> fmt::Debug for Object<T, D>
where
    Dim<D>: Space<T, D>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Object")
            .field("shape", &self.shape())
            .field("pose", &self.pose)
            .field("filter", &self.filter)
            .finish()
    }
}

struct Slot<T: Real, const D: usize>
where
    Dim<D>: Space<T, D>,
{
    generation: u32,
    object: Option<Object<T, D>>,
}

/// A pair of colliding objects and their contact (normal from `a` to `b`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairContact<C> {
    /// The object with the smaller index.
    pub a: Handle,
    /// The other object.
    pub b: Handle,
    /// Their contact, in world space.
    pub contact: C,
    /// For a pair where a shape is a composite
    /// ([`Shape::as_composite`](shape::Shape::as_composite)): the part of
    /// `a` and of `b` that gave the contact (`Table::query_parts`; `None`
    /// on the side that is not a composite). [`Parts::NONE`] for every other
    /// pair (and always in 3D).
    pub parts: Parts,
}

/// Counts from one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Objects in the world.
    pub objects: usize,
    /// Pairs a brute-force test would make: `objects · (objects − 1) / 2`.
    pub all_pairs: u64,
    /// Pairs whose bounding boxes overlap (the broad phase's output; with
    /// manifolds on and a positive prediction, whose boxes are within the
    /// prediction, [`World::set_manifolds`]).
    pub candidate_pairs: usize,
    /// Candidate pairs that pass the filters.
    pub filtered_pairs: usize,
    /// Pairs that truly collide (the narrow phase's output).
    pub colliding_pairs: usize,
}

/// The answer of [`World::collisions`]: `C` is the contact, `H` the shape
/// cast hit of the dimension (the contact names the dimension's manifold
/// type, [`ContactType`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Collisions<C: ContactType, H> {
    /// Every colliding pair, once, sorted by handles.
    pub pairs: Vec<PairContact<C>>,
    /// Pairs colliding now that were not at the previous query, sorted.
    pub started: Vec<(Handle, Handle)>,
    /// Pairs colliding at the previous query that are not now (including pairs
    /// with an object removed since), sorted.
    pub stopped: Vec<(Handle, Handle)>,
    /// Pairs the narrow phase could not answer (user shapes with no kernel and
    /// no fallback), never silently dropped; with manifolds on, also the
    /// pairs whose manifold it could not answer (a pair once, with its
    /// contact's error if both failed).
    pub errors: Vec<(Handle, Handle, DispatchError)>,
    /// Every pair with a continuous object
    /// ([`World::set_continuous`]) whose motion since the previous query
    /// (translation only: from the previous position, at the current
    /// rotation) swept through the other object, with the first time of
    /// impact as a fraction of that motion (`0` at the previous position, `1`
    /// at the current one); once, sorted by handles. It includes the pairs
    /// that still touch at the end of the frame, and those a fast object
    /// passed through between two frames (a bullet through a thin wall).
    /// Empty in a world without continuous objects. `started` and `stopped`
    /// are about `pairs` alone.
    pub swept: Vec<PairContact<H>>,
    /// With manifolds on ([`World::set_manifolds`]): every pair that passes
    /// the filters and has a contact manifold within the prediction (the
    /// touching pairs of `pairs` and the *speculative* pairs, apart by at most
    /// the prediction), once, sorted by handles, each with the matches of
    /// its points to the pair's manifold at the previous query
    /// ([`PairManifold::matched`]). Empty with manifolds off.
    pub manifolds: Vec<PairManifold<C::Manifold>>,
    /// Counts.
    pub stats: Stats,
}

impl<C: ContactType, H> Default for Collisions<C, H> {
    fn default() -> Self {
        Self {
            pairs: Vec::new(),
            started: Vec::new(),
            stopped: Vec::new(),
            errors: Vec::new(),
            swept: Vec::new(),
            manifolds: Vec::new(),
            stats: Stats::default(),
        }
    }
}

/// How many candidate pairs ahead the narrow phase starts loading objects.
#[cfg(not(feature = "rayon"))]
const LOOK_AHEAD: usize = 8;

static NEXT_WORLD_ID: AtomicU32 = AtomicU32::new(1);

/// A collision world in `D` dimensions (2 by default): owns a [`Grid`] and a
/// dispatch table.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use broadphase::{Filter, World};
/// use shape::{Circle, Obb};
///
/// type R = f32;
/// let mut world = World::<R>::new(2.0).unwrap();
/// let wall = world.insert(Obb::new(Vector2::new(5.0, 0.5)).unwrap(), Isometry2::identity(), Filter::ALL).unwrap();
/// let ball = world.insert(Circle::new(1.0).unwrap(), Isometry2::translation(0.0, 1.25), Filter::ALL).unwrap();
/// let hits = world.collisions();
/// assert_eq!(hits.pairs.len(), 1);
/// assert_eq!((hits.pairs[0].a, hits.pairs[0].b), (wall, ball));
/// let c = hits.pairs[0].contact; // from the wall to the ball (docs/ARCHITECTURE.md's worked frame)
/// assert!((c.depth - 0.25).abs() < 1e-6 && (c.normal.y - 1.0).abs() < 1e-6);
/// assert_eq!((hits.stats.all_pairs, hits.stats.candidate_pairs), (1, 1));
/// assert_eq!(hits.started, vec![(wall, ball)]);
/// world.set_pose(ball, Isometry2::translation(0.0, 5.0)).unwrap();
/// let hits = world.collisions();
/// assert!(hits.pairs.is_empty());
/// assert_eq!(hits.stopped, vec![(wall, ball)]);
/// ```
pub struct World<T: Real, const D: usize = 2>
where
    Dim<D>: Space<T, D>,
{
    id: u32,
    slots: Vec<Slot<T, D>>,
    free: Vec<u32>,
    len: usize,
    grid: Grid<T, D>,
    table: <Dim<D> as Space<T, D>>::Table,
    previous: Vec<(Handle, Handle)>,
    scratch: Vec<(u32, u32)>,
    /// [`World::set_poses`]' buffers, kept between frames.
    batch: MoveBatch<T, D>,
    out: Frame<T, D>,
    /// The continuous objects' slot indices, sorted.
    continuous: Vec<u32>,
    /// The sweep's buffers (`world/continuous.rs`), kept between frames.
    sweep: continuous::SweepBuffers<T, D>,
    /// The manifold settings and last query's feature ids
    /// (`world/manifolds.rs`).
    manifolds: manifolds::ManifoldState<T, D>,
    /// The parallel narrow phase's chunks (each one's colliding pairs and
    /// errors), kept between frames.
    #[cfg(feature = "rayon")]
    chunks: std::sync::Mutex<Vec<NarrowChunk<<Dim<D> as Space<T, D>>::Contact>>>,
}

/// [`World::set_poses`]' buffers: the moves, then each one's filed box.
struct MoveBatch<T: Real, const D: usize>
where
    Dim<D>: Space<T, D>,
{
    moves: Vec<(Handle, <Dim<D> as Space<T, D>>::Pose)>,
    bounds: Vec<Option<BoundingBox<T, D>>>,
    /// Which moves left their fat boxes (the parallel path's scratch).
    #[cfg(feature = "rayon")]
    left: Vec<bool>,
}

impl<T: Real, const D: usize> Default for MoveBatch<T, D>
where
    Dim<D>: Space<T, D>,
{
    fn default() -> Self {
        Self {
            moves: Vec::new(),
            bounds: Vec::new(),
            #[cfg(feature = "rayon")]
            left: Vec::new(),
        }
    }
}

/// Below this many moves, [`World::set_poses`] checks them on one thread.
#[cfg(feature = "rayon")]
const PARALLEL_MOVES: usize = 4096;

/// What the parallel narrow phase records for one chunk of candidate pairs,
/// in pair order: the colliding pairs, the errors, and how many pairs the
/// filters accepted.
#[cfg(feature = "rayon")]
struct NarrowChunk<C> {
    pairs: Vec<PairContact<C>>,
    errors: Vec<(Handle, Handle, DispatchError)>,
    accepted: usize,
}

#[cfg(feature = "rayon")]
impl<C> Default for NarrowChunk<C> {
    fn default() -> Self {
        Self {
            pairs: Vec::new(),
            errors: Vec::new(),
            accepted: 0,
        }
    }
}

/// One candidate pair's narrow-phase answer: `None` when the filters reject
/// it, else the contact (or none) or the table's error.
type PairResult<C> = Option<Result<(Option<C>, Parts), DispatchError>>;

/// The answer of [`World::collisions`] in `D` dimensions.
type Frame<T, const D: usize> =
    Collisions<<Dim<D> as Space<T, D>>::Contact, narrowphase::ShapeCastHit<T, D>>;

/// A 2D world.
pub type World2<T> = World<T, 2>;
/// A 3D world.
pub type World3<T> = World<T, 3>;

impl<T: Real, const D: usize> fmt::Debug for World<T, D>
where
    Dim<D>: Space<T, D>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("objects", &self.len)
            .field("grid", &self.grid.stats())
            .finish()
    }
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// An empty world whose grid has cells of side `cell_size`, with every
    /// built-in pair kernel.
    ///
    /// # Errors
    /// [`WorldError::Grid`] for a zero, negative or non-finite cell size.
    pub fn new(cell_size: T) -> Result<Self, WorldError> {
        Self::with_table(cell_size, <Dim<D> as Space<T, D>>::new_table())
    }

    /// An empty world with the given dispatch table (with user kernels).
    ///
    /// # Errors
    /// As [`World::new`].
    pub fn with_table(
        cell_size: T,
        table: <Dim<D> as Space<T, D>>::Table,
    ) -> Result<Self, WorldError> {
        Ok(Self {
            id: NEXT_WORLD_ID.fetch_add(1, Ordering::Relaxed),
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            grid: Grid::new(cell_size)?,
            table,
            previous: Vec::new(),
            scratch: Vec::new(),
            batch: MoveBatch::default(),
            out: Collisions::default(),
            continuous: Vec::new(),
            sweep: continuous::SweepBuffers::default(),
            manifolds: manifolds::ManifoldState::default(),
            #[cfg(feature = "rayon")]
            chunks: std::sync::Mutex::default(),
        })
    }

    /// The dispatch table (to register user kernels).
    pub fn table_mut(&mut self) -> &mut <Dim<D> as Space<T, D>>::Table {
        &mut self.table
    }

    /// The grid (read only).
    #[must_use]
    pub fn grid(&self) -> &Grid<T, D> {
        &self.grid
    }

    /// Changes the grid's cell size.
    ///
    /// # Errors
    /// [`WorldError::Grid`]; the world is unchanged on error.
    pub fn set_cell_size(&mut self, cell_size: T) -> Result<(), WorldError> {
        Ok(self.grid.set_cell_size(cell_size)?)
    }

    /// Picks the cell size from the objects' bounding boxes
    /// ([`Grid::suggest_cell_size`]); does nothing for an empty world.
    pub fn auto_cell_size(&mut self) {
        let boxes: Vec<BoundingBox<T, D>> = self.grid.iter().map(|(_, b)| *b).collect();
        if let Some(s) = Grid::<T, D>::suggest_cell_size(&boxes) {
            // A suggested size is valid by construction.
            let _ = self.grid.set_cell_size(s);
        }
    }

    /// The number of objects.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the world is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Inserts a boxed shape (any shape, built-in or the user's own).
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`], [`WorldError::NonFiniteBounds`],
    /// [`WorldError::Full`]; the world is unchanged on error.
    pub fn insert_boxed(
        &mut self,
        shape: Box<<Dim<D> as Space<T, D>>::Shape>,
        pose: <Dim<D> as Space<T, D>>::Pose,
        filter: Filter,
    ) -> Result<Handle, WorldError> {
        let bounds = self.filed_bounds(&shape, &pose)?;
        let index = match self.free.pop() {
            Some(i) => i,
            None => u32::try_from(self.slots.len()).map_err(|_| WorldError::Full)?,
        };
        if let Err(e) = self.grid.insert(index, bounds) {
            if (index as usize) < self.slots.len() {
                self.free.push(index);
            }
            return Err(e.into());
        }
        if index as usize == self.slots.len() {
            self.slots.push(Slot {
                generation: 0,
                object: None,
            });
        }
        let slot = &mut self.slots[index as usize];
        slot.object = Some(Object {
            shape: Storage::store(shape),
            pose,
            filter,
            swept_from: None,
        });
        self.len += 1;
        Ok(Handle {
            world: self.id,
            index,
            generation: slot.generation,
        })
    }

    fn checked_bounds(
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
    ) -> Result<BoundingBox<T, D>, WorldError> {
        if !<Dim<D> as Space<T, D>>::pose_is_finite(pose) {
            return Err(WorldError::NonFinitePose);
        }
        let bounds = <Dim<D> as Space<T, D>>::bounding_box(shape, pose);
        if bounds.is_valid() {
            Ok(bounds)
        } else {
            Err(WorldError::NonFiniteBounds)
        }
    }

    fn check(&self, h: Handle) -> Result<&Object<T, D>, WorldError> {
        if h.world != self.id {
            return Err(WorldError::ForeignHandle(h));
        }
        match self.slots.get(h.index as usize) {
            Some(Slot {
                generation,
                object: Some(o),
            }) if *generation == h.generation => Ok(o),
            _ => Err(WorldError::StaleHandle(h)),
        }
    }

    /// The object behind a handle.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn get(&self, h: Handle) -> Result<&Object<T, D>, WorldError> {
        self.check(h)
    }

    /// Whether the handle refers to an object of this world.
    #[must_use]
    pub fn contains(&self, h: Handle) -> bool {
        self.check(h).is_ok()
    }

    /// Moves an object.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`],
    /// [`WorldError::NonFinitePose`], [`WorldError::NonFiniteBounds`]; the world
    /// is unchanged on error.
    pub fn set_pose(
        &mut self,
        h: Handle,
        pose: <Dim<D> as Space<T, D>>::Pose,
    ) -> Result<(), WorldError> {
        let bounds = self.filed_bounds(self.check(h)?.shape(), &pose)?;
        self.grid.update(h.index, bounds)?;
        if let Some(o) = self.slots[h.index as usize].object.as_mut() {
            o.pose = pose;
        }
        Ok(())
    }

    /// Moves many objects at once: each `(handle, pose)` of `moves`, as
    /// [`set_pose`](Self::set_pose) would in that order (an object listed
    /// twice ends at its last pose), but all or nothing and faster for a
    /// whole frame's moves: the handles, poses and bounding boxes are
    /// checked first (with the `rayon` feature, on all cores), then the grid
    /// takes the new boxes in one pass.
    ///
    /// ```
    /// use broadphase::{Filter, World, WorldError};
    /// use nalgebra::Isometry2;
    /// use shape::Circle;
    ///
    /// let mut world = World::<f32>::new(1.0)?;
    /// let a = world.insert(Circle::new(0.5)?, Isometry2::translation(0.0, 0.0), Filter::ALL)?;
    /// let b = world.insert(Circle::new(0.5)?, Isometry2::translation(5.0, 0.0), Filter::ALL)?;
    /// // Every object's new pose for this frame, then one call.
    /// let frame = [(a, Isometry2::translation(1.0, 0.0)), (b, Isometry2::translation(1.8, 0.0))];
    /// world.set_poses(frame)?;
    /// assert_eq!(world.collisions().pairs.len(), 1);
    ///
    /// // A bad move anywhere in the batch changes nothing.
    /// let bad = [(a, Isometry2::translation(9.0, 0.0)), (b, Isometry2::translation(f32::NAN, 0.0))];
    /// assert_eq!(world.set_poses(bad), Err(WorldError::NonFinitePose));
    /// assert_eq!(world.get(a)?.pose().translation.x, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The first move's error in order, as [`set_pose`](Self::set_pose)
    /// reports it; the world is unchanged on error.
    pub fn set_poses(
        &mut self,
        moves: impl IntoIterator<Item = (Handle, <Dim<D> as Space<T, D>>::Pose)>,
    ) -> Result<(), WorldError> {
        let mut batch = core::mem::take(&mut self.batch);
        batch.moves.clear();
        batch.moves.extend(moves);
        let checked = self.batch_bounds(&mut batch);
        if checked.is_ok() {
            self.apply_moves(&mut batch);
        }
        self.batch = batch;
        checked
    }

    /// [`set_poses`](Self::set_poses) after its checks: the boxes to the
    /// grid, the poses to the objects, in order (with the `rayon` feature,
    /// on all cores when [`apply_sorted`](Self::apply_sorted) can).
    fn apply_moves(&mut self, batch: &mut MoveBatch<T, D>) {
        #[cfg(feature = "rayon")]
        if self.apply_sorted(batch) {
            return;
        }
        let boxes = batch.moves.iter().zip(&batch.bounds);
        self.grid
            .move_all(boxes.filter_map(|((h, _), b)| Some((h.index, (*b)?))));
        for (h, pose) in &batch.moves {
            if let Some(o) = self
                .slots
                .get_mut(h.index as usize)
                .and_then(|s| s.object.as_mut())
            {
                o.pose = *pose;
            }
        }
    }

    /// [`apply_moves`](Self::apply_moves) on all cores, for a large batch
    /// that lists its objects in handle order (each object once: the usual
    /// frame), each piece of the batch writing its own range of objects;
    /// `false` (nothing done) for any other batch.
    #[cfg(feature = "rayon")]
    fn apply_sorted(&mut self, batch: &mut MoveBatch<T, D>) -> bool {
        let MoveBatch {
            moves,
            bounds,
            left,
        } = batch;
        let index = |k: usize| moves[k].0.index as usize;
        if moves.len() < PARALLEL_MOVES || !crate::sorted::strictly_increasing(moves.len(), index) {
            return false;
        }
        self.grid
            .move_sorted(moves.len(), &|k| moves[k].0.index, &|k| bounds[k], left);
        crate::sorted::for_each_sorted(
            (&mut self.slots, 0),
            (0..moves.len(), left),
            &index,
            &|k, slot, _| {
                if let Some(o) = slot.object.as_mut() {
                    o.pose = moves[k].1;
                }
            },
        );
        true
    }

    /// [`set_poses`](Self::set_poses)' checks: `batch.bounds` gets each
    /// move's filed box, or the first move's error in order. With the
    /// `rayon` feature, a batch of at least [`PARALLEL_MOVES`] is checked on
    /// all cores (each move's box or `None`, then the first `None`'s error
    /// found again).
    fn batch_bounds(&self, batch: &mut MoveBatch<T, D>) -> Result<(), WorldError> {
        let one = |(h, pose): &(Handle, <Dim<D> as Space<T, D>>::Pose)| {
            self.filed_bounds(self.check(*h)?.shape(), pose)
        };
        let moves = &batch.moves;
        #[cfg(feature = "rayon")]
        if moves.len() >= PARALLEL_MOVES {
            use rayon::prelude::*;
            moves
                .par_iter()
                .with_min_len(PARALLEL_MOVES / 4)
                .map(|m| one(m).ok())
                .collect_into_vec(&mut batch.bounds);
            return match batch.bounds.iter().position(Option::is_none) {
                Some(i) => one(&moves[i]).map(|_| ()),
                None => Ok(()),
            };
        }
        batch.bounds.clear();
        for m in moves {
            batch.bounds.push(Some(one(m)?));
        }
        Ok(())
    }

    /// Replaces an object's shape and returns the old one. With manifolds on,
    /// the object's pairs forget their manifold history (the next query
    /// matches none of their points).
    ///
    /// # Errors
    /// As [`World::set_pose`].
    pub fn replace_shape_boxed(
        &mut self,
        h: Handle,
        shape: Box<<Dim<D> as Space<T, D>>::Shape>,
    ) -> Result<Box<<Dim<D> as Space<T, D>>::Shape>, WorldError> {
        let pose = self.check(h)?.pose;
        let bounds = self.filed_bounds(&shape, &pose)?;
        self.grid.update(h.index, bounds)?;
        let o = self.slots[h.index as usize]
            .object
            .as_mut()
            .ok_or(WorldError::StaleHandle(h))?;
        let old = core::mem::replace(&mut o.shape, Storage::store(shape)).into_boxed();
        self.manifolds.forget(h);
        Ok(old)
    }

    /// Changes an object's collision filter.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_filter(&mut self, h: Handle, filter: Filter) -> Result<(), WorldError> {
        self.check(h)?;
        if let Some(o) = self.slots[h.index as usize].object.as_mut() {
            o.filter = filter;
        }
        Ok(())
    }

    /// Removes an object and returns its shape. The handle (and any copy of it)
    /// becomes stale; the slot is reused with a new generation (so an object
    /// inserted later never inherits the removed one's manifold history).
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn remove(&mut self, h: Handle) -> Result<Box<<Dim<D> as Space<T, D>>::Shape>, WorldError> {
        self.check(h)?;
        self.grid.remove(h.index)?;
        let slot = &mut self.slots[h.index as usize];
        let object = slot.object.take().ok_or(WorldError::StaleHandle(h))?;
        // A slot whose generation would wrap is retired rather than reused.
        if slot.generation < u32::MAX {
            slot.generation += 1;
            self.free.push(h.index);
        }
        self.len -= 1;
        if object.swept_from.is_some() {
            if let Ok(k) = self.continuous.binary_search(&h.index) {
                self.continuous.remove(k);
            }
        }
        Ok(object.shape.into_boxed())
    }

    /// Every object's handle, by slot index.
    pub fn handles(&self) -> impl Iterator<Item = Handle> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.object.is_some())
            .map(|(i, s)| Handle {
                world: self.id,
                index: i as u32,
                generation: s.generation,
            })
    }

    fn handle(&self, index: u32) -> Handle {
        Handle {
            world: self.id,
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    fn object(&self, index: u32) -> &Object<T, D> {
        // Grid ids are the indices of live slots (kept in step by every operation).
        self.slots[index as usize]
            .object
            .as_ref()
            .expect("grid ids are live slots")
    }

    /// The pairs whose bounding boxes overlap and whose filters accept each
    /// other (the broad phase alone), sorted. With manifolds on and a
    /// positive prediction, the boxes are grown by half the prediction
    /// ([`World::set_manifolds`]).
    pub fn candidate_pairs(&mut self) -> Vec<(Handle, Handle)> {
        let mut ids = core::mem::take(&mut self.scratch);
        self.grid.candidate_pairs(&mut ids);
        let out = ids
            .iter()
            .filter(|(a, b)| self.object(*a).filter.accepts(&self.object(*b).filter))
            .map(|&(a, b)| (self.handle(a), self.handle(b)))
            .collect();
        self.scratch = ids;
        out
    }

    /// Every pair that passes the filters and truly collides, once, with its
    /// contact, sorted by handles; the pairs that started and stopped colliding
    /// since the previous call; with manifolds on
    /// ([`set_manifolds`](Self::set_manifolds)), every pair within the
    /// prediction with its manifold, matched to the previous call's; and
    /// counts. The answer borrows the world's buffers, which are reused from
    /// frame to frame (clone it to keep it).
    pub fn collisions(&mut self) -> &Frame<T, D> {
        // Every buffer is kept between calls: after the first frames a query
        // allocates nothing (serial build).
        let mut ids = core::mem::take(&mut self.scratch);
        let mut out = core::mem::take(&mut self.out);
        self.grid.candidate_pairs(&mut ids);
        out.stats = self.base_stats(ids.len());
        out.pairs.clear();
        out.errors.clear();
        out.stats.filtered_pairs = self.narrow_phase(&ids, &mut out);
        out.stats.colliding_pairs = out.pairs.len();
        if let Some(prediction) = self.manifolds.prediction() {
            self.collide_with_manifolds(&ids, prediction, &mut out);
        }
        self.sweep_continuous(&mut out);
        self.events(&mut out);
        self.scratch = ids;
        self.out = out;
        &self.out
    }

    /// The answer of the latest [`collisions`](Self::collisions) call (empty
    /// before the first), borrowed immutably so the world can be read beside it.
    #[must_use]
    pub fn last_collisions(&self) -> &Frame<T, D> {
        &self.out
    }

    /// Fills `started` and `stopped` from the sorted pairs of this query and
    /// of the previous one, then remembers this one.
    fn events(&mut self, out: &mut Frame<T, D>) {
        out.started.clear();
        out.stopped.clear();
        let (mut i, mut j) = (0, 0);
        let prev = &self.previous;
        while i < out.pairs.len() || j < prev.len() {
            let now = out.pairs.get(i).map(|p| (p.a, p.b));
            match (now, prev.get(j)) {
                (Some(x), Some(y)) if x == *y => {
                    i += 1;
                    j += 1;
                }
                (Some(x), Some(y)) if x < *y => {
                    out.started.push(x);
                    i += 1;
                }
                (Some(x), None) => {
                    out.started.push(x);
                    i += 1;
                }
                (_, Some(y)) => {
                    out.stopped.push(*y);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        self.previous.clear();
        self.previous.extend(out.pairs.iter().map(|p| (p.a, p.b)));
    }

    fn base_stats(&self, candidates: usize) -> Stats {
        let n = self.len as u64;
        Stats {
            objects: self.len,
            all_pairs: n * n.saturating_sub(1) / 2,
            candidate_pairs: candidates,
            ..Stats::default()
        }
    }

    /// The narrow phase over the candidate pairs: each pair's filters, then
    /// its contact, recorded in pair order; returns how many pairs the filters
    /// accepted. Filter and contact are read together, while both objects'
    /// slots (shape, pose, filter) are in cache.
    #[cfg(not(feature = "rayon"))]
    fn narrow_phase(&self, pairs: &[(u32, u32)], out: &mut Frame<T, D>) -> usize {
        let mut accepted = 0;
        for (i, &(a, b)) in pairs.iter().enumerate() {
            if let Some(&(pa, pb)) = pairs.get(i + LOOK_AHEAD) {
                self.touch(pa);
                self.touch(pb);
            }
            if let Some(result) = self.pair_contact(a, b) {
                accepted += 1;
                self.record(a, b, result, &mut out.pairs, &mut out.errors);
            }
        }
        accepted
    }

    /// The parallel narrow phase: the pairs cut into chunks in order, each
    /// chunk's filters, contacts and records (the handles: reads of both
    /// objects' slots) on any core into the chunk's own buffers, then the
    /// buffers appended in chunk order, so the result is identical to the
    /// serial one and the serial part is a copy of the colliding pairs.
    #[cfg(feature = "rayon")]
    fn narrow_phase(&self, pairs: &[(u32, u32)], out: &mut Frame<T, D>) -> usize {
        use rayon::prelude::*;
        let mut chunks = self
            .chunks
            .lock()
            .map(|mut c| core::mem::take(&mut *c))
            .unwrap_or_default();
        // A few chunks per thread (their costs differ), none too small to
        // pay for its task.
        let size = pairs
            .len()
            .div_ceil(4 * rayon::current_num_threads())
            .max(512);
        let count = pairs.len().div_ceil(size);
        if chunks.len() < count {
            chunks.resize_with(count, NarrowChunk::default);
        }
        pairs
            .par_chunks(size)
            .zip(chunks[..count].par_iter_mut())
            .for_each(|(ps, chunk)| {
                chunk.pairs.clear();
                chunk.errors.clear();
                chunk.accepted = 0;
                for &(a, b) in ps {
                    if let Some(result) = self.pair_contact(a, b) {
                        chunk.accepted += 1;
                        self.record(a, b, result, &mut chunk.pairs, &mut chunk.errors);
                    }
                }
            });
        let mut accepted = 0;
        for chunk in &mut chunks[..count] {
            accepted += chunk.accepted;
            out.pairs.append(&mut chunk.pairs);
            out.errors.append(&mut chunk.errors);
        }
        if let Ok(mut c) = self.chunks.lock() {
            *c = chunks;
        }
        accepted
    }

    #[inline]
    fn record(
        &self,
        a: u32,
        b: u32,
        result: Result<(Option<<Dim<D> as Space<T, D>>::Contact>, Parts), DispatchError>,
        pairs: &mut Vec<PairContact<<Dim<D> as Space<T, D>>::Contact>>,
        errors: &mut Vec<(Handle, Handle, DispatchError)>,
    ) {
        match result {
            Ok((Some(contact), parts)) => pairs.push(PairContact {
                a: self.handle(a),
                b: self.handle(b),
                contact,
                parts,
            }),
            Ok((None, _)) => {}
            Err(e) => errors.push((self.handle(a), self.handle(b), e)),
        }
    }

    /// Starts loading an object's slot from memory ahead of its use.
    #[cfg(not(feature = "rayon"))]
    #[inline]
    fn touch(&self, index: u32) {
        if let Some(s) = self.slots.get(index as usize) {
            core::hint::black_box(s.generation);
        }
    }

    /// The contact of a candidate pair, or `None` when the filters reject it.
    #[inline]
    fn pair_contact(&self, a: u32, b: u32) -> PairResult<<Dim<D> as Space<T, D>>::Contact> {
        let (oa, ob) = (self.object(a), self.object(b));
        if !oa.filter.accepts(&ob.filter) {
            return None;
        }
        Some(<Dim<D> as Space<T, D>>::contact_stored(
            &self.table,
            &oa.shape,
            &oa.pose,
            &ob.shape,
            &ob.pose,
        ))
    }

    /// Every object whose shape overlaps the closed box `region` (exact, through
    /// the narrow phase), by slot index. Objects the narrow phase cannot test are
    /// returned in the error list.
    pub fn query_region(
        &self,
        region: &BoundingBox<T, D>,
    ) -> (Vec<Handle>, Vec<(Handle, DispatchError)>) {
        let mut ids = Vec::new();
        self.grid.query_region(region, &mut ids);
        self.exact(ids, |o| {
            <Dim<D> as Space<T, D>>::overlaps_box(&self.table, o.shape(), &o.pose, region)
        })
    }

    /// Every object whose shape contains `p` (exact, the boundary counts).
    pub fn query_point(&self, p: &Point<T, D>) -> (Vec<Handle>, Vec<(Handle, DispatchError)>) {
        let mut ids = Vec::new();
        self.grid.query_point(p, &mut ids);
        self.exact(ids, |o| {
            <Dim<D> as Space<T, D>>::contains_point(&self.table, o.shape(), &o.pose, p)
        })
    }

    fn exact(
        &self,
        ids: Vec<u32>,
        test: impl Fn(&Object<T, D>) -> Result<bool, DispatchError>,
    ) -> (Vec<Handle>, Vec<(Handle, DispatchError)>) {
        let (mut hits, mut errors) = (Vec::new(), Vec::new());
        for id in ids {
            match test(self.object(id)) {
                Ok(true) => hits.push(self.handle(id)),
                Ok(false) => {}
                Err(e) => errors.push((self.handle(id), e)),
            }
        }
        (hits, errors)
    }

    /// Checks the world's invariants: the grid's, and that the grid holds
    /// exactly the live objects with their current bounding boxes.
    ///
    /// # Errors
    /// [`WorldError::Grid`] with [`GridError::Invariant`].
    pub fn validate(&self) -> Result<(), WorldError> {
        self.grid.validate()?;
        let fail = |m: String| Err(WorldError::Grid(GridError::Invariant(m)));
        let live = self.slots.iter().filter(|s| s.object.is_some()).count();
        if live != self.len || self.grid.len() != self.len {
            return fail(format!(
                "{live} live slots, len {}, grid {}",
                self.len,
                self.grid.len()
            ));
        }
        for (i, s) in self.slots.iter().enumerate() {
            match (&s.object, self.grid.bounds(i as u32)) {
                (Some(o), Some(b)) => {
                    let filed = self
                        .manifolds
                        .grown(<Dim<D> as Space<T, D>>::bounding_box(o.shape(), &o.pose));
                    if filed != *b {
                        return fail(format!("slot {i}: stale bounding box in the grid"));
                    }
                }
                (None, None) => {}
                _ => return fail(format!("slot {i}: grid and slots disagree")),
            }
        }
        Ok(())
    }
}

impl<T: Real> World<T, 2> {
    /// Inserts a 2D shape (built-in or the user's own type).
    ///
    /// # Errors
    /// As [`World::insert_boxed`].
    pub fn insert<S: shape::Shape<T>>(
        &mut self,
        shape: S,
        pose: nalgebra::Isometry2<T>,
        filter: Filter,
    ) -> Result<Handle, WorldError> {
        self.insert_boxed(Box::new(shape), pose, filter)
    }

    /// Replaces an object's shape.
    ///
    /// # Errors
    /// As [`World::replace_shape_boxed`].
    pub fn replace_shape<S: shape::Shape<T>>(
        &mut self,
        h: Handle,
        shape: S,
    ) -> Result<Box<dyn shape::Shape<T>>, WorldError> {
        self.replace_shape_boxed(h, Box::new(shape))
    }
}

impl<T: Real> World<T, 3> {
    /// Inserts a 3D shape (built-in or the user's own type).
    ///
    /// # Errors
    /// As [`World::insert_boxed`].
    ///
    /// ```
    /// use nalgebra::{Isometry3, Vector3};
    /// use broadphase::{Filter, World3};
    /// use shape::{Cuboid, Sphere};
    /// let mut world = World3::<f64>::new(2.0).unwrap();
    /// let cube = world.insert(Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap(), Isometry3::identity(), Filter::ALL).unwrap();
    /// let ball = world.insert(Sphere::new(0.5).unwrap(), Isometry3::translation(0.0, 0.0, 1.0), Filter::ALL).unwrap();
    /// let hits = world.collisions();
    /// assert_eq!(hits.pairs.len(), 1); // touching
    /// assert_eq!((hits.pairs[0].a, hits.pairs[0].b), (cube, ball));
    /// ```
    pub fn insert<S: shape::Shape3<T>>(
        &mut self,
        shape: S,
        pose: nalgebra::Isometry3<T>,
        filter: Filter,
    ) -> Result<Handle, WorldError> {
        self.insert_boxed(Box::new(shape), pose, filter)
    }

    /// Replaces an object's shape.
    ///
    /// # Errors
    /// As [`World::replace_shape_boxed`].
    pub fn replace_shape<S: shape::Shape3<T>>(
        &mut self,
        h: Handle,
        shape: S,
    ) -> Result<Box<dyn shape::Shape3<T>>, WorldError> {
        self.replace_shape_boxed(h, Box::new(shape))
    }
}
