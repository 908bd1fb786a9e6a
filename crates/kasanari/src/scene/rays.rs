//! Rays files: the shapes of a scene and rays cast into them (format version
//! 1, `docs/scene-format.md`, "Rays").
//!
//! A ray's answer is its first hit over all the file's shapes, in world
//! coordinates: the smallest time of impact, ties going to the shape that
//! comes first in the file.
//!
//! 1. [`parse_rays`] reads the file (unknown fields refused, `max_toi`
//!    omitted or `null` meaning no limit, `solid` true by default).
//! 2. [`RaysFile::world`] places the shapes exactly as a scene's (local
//!    shape around its centre plus a pose, the subtraction in f64) and
//!    converts each ray to the precision, refusing what cannot be cast there
//!    ([`RayError`]).
//! 3. [`RaysWorld::first_hit`] asks the narrow phase ([`narrowphase::cast_ray`],
//!    each shape in its own frame; the contract is in `docs/conventions.md`,
//!    "Ray casts") about every shape, keeping a hit only when its time is
//!    strictly smaller than the best so far.
//!
//! Why this is the first hit: the shapes are closed sets, so the first point
//! of their union on the ray is the first point of one of them, and each
//! shape's own answer is its first point (within `max_toi`); the minimum of
//! the answers is therefore the union's, and scanning in file order with a
//! strict comparison gives ties to the smaller index. It costs one cast per
//! shape and ray: the reference any faster search (the world's grid walk)
//! must agree with.
//!
//! Degenerate cases: a ray starting inside a solid shape hits it at time 0
//! (then a tie with every other shape containing the origin, the first in
//! the file winning); a shape with `membership` or `mask` 0 collides with
//! nothing and is not seen; an origin too far from a shape it aims at for
//! the precision's arithmetic is an error naming both, never a wrong answer.
//!
//! ```
//! use kasanari::scene::parse_rays;
//! let file = parse_rays(&br#"{"shapes": [{"kind": "circle", "center": [0, 0], "radius": 1}],
//!     "rays": [{"origin": [-5, 0], "dir": [1, 0]}]}"#[..]).unwrap();
//! let rays = file.world::<f64>().unwrap();
//! let (shape, hit) = rays.first_hit(&rays.rays[0]).unwrap().unwrap();
//! assert_eq!((shape, hit.toi), (0, 4.0));
//! assert_eq!((hit.point.x, hit.normal.x), (-1.0, -1.0));
//! ```

use broadphase::{Handle, QueryFilter, WorldError};
use nalgebra::{Point2, Vector2};
use serde::{Deserialize, Serialize};
use shape::{Ray, RayHit, Real};

use super::{Entry, SceneError, SceneWorld, build_world, check_version, default_version, shape_at};

/// One ray of a rays file:
/// `{"origin": [x, y], "dir": [dx, dy], "max_toi": t, "solid": true}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaySpec {
    /// Where the ray starts (world coordinates).
    pub origin: [f64; 2],
    /// Its direction (any length but zero); times of impact are in units of it.
    pub dir: [f64; 2],
    /// The largest time of impact looked at; omitted or `null`: no limit
    /// (JSON has no infinity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_toi: Option<f64>,
    /// Whether a ray starting inside a shape hits it at once (`true`, the
    /// default) or where it leaves it (`false`).
    #[serde(default = "solid_default")]
    pub solid: bool,
}

fn solid_default() -> bool {
    true
}

/// A rays file: `{"version": 1, "shapes": [...], "rays": [...]}`, the shapes
/// exactly as in a scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaysFile {
    /// The format version (1 when omitted).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The shapes, as in a scene.
    pub shapes: Vec<Entry>,
    /// The rays, answered in order.
    pub rays: Vec<RaySpec>,
}

/// Reads a rays file.
///
/// # Errors
/// As [`super::read_scene`].
pub fn read_rays(path: &std::path::Path) -> Result<RaysFile, SceneError> {
    parse_rays(std::io::BufReader::new(std::fs::File::open(path)?))
}

/// Parses a rays file from any reader.
///
/// ```
/// let json = r#"{"shapes": [], "rays": [{"origin": [0, 0], "dir": [1, 0], "solid": false}]}"#;
/// let file = kasanari::scene::parse_rays(json.as_bytes()).unwrap();
/// assert_eq!((file.rays[0].max_toi, file.rays[0].solid), (None, false));
/// assert!(kasanari::scene::parse_rays(&br#"{"shapes": []}"#[..]).is_err());
/// ```
///
/// # Errors
/// As [`super::parse_scene`].
pub fn parse_rays(reader: impl std::io::Read) -> Result<RaysFile, SceneError> {
    let file: RaysFile = serde_json::from_reader(reader)?;
    check_version(file.version)?;
    Ok(file)
}

/// Why a ray of a file cannot be cast (in the chosen precision).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum RayError {
    /// `origin` or `dir` has a coordinate beyond the precision's range (JSON
    /// holds no infinity, but 1e39 is infinite in `f32`).
    NonFinite {
        /// `"origin"` or `"dir"`.
        field: &'static str,
        /// The value as written.
        value: [f64; 2],
        /// `"f32"` or `"f64"`.
        precision: &'static str,
    },
    /// `dir` is zero, or so small that it rounds to zero in the precision.
    ZeroDirection {
        /// The value as written.
        value: [f64; 2],
        /// `"f32"` or `"f64"`.
        precision: &'static str,
    },
    /// `max_toi` is negative.
    NegativeMaxToi {
        /// The value as written.
        value: f64,
    },
}

impl std::fmt::Display for RayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::NonFinite {
                field,
                value,
                precision,
            } => write!(
                f,
                "{field} [{:?}, {:?}] is beyond the range of {precision}",
                value[0], value[1]
            ),
            Self::ZeroDirection { value, precision } => {
                if value == [0.0, 0.0] {
                    write!(f, "dir is zero: a ray needs a direction")
                } else {
                    write!(
                        f,
                        "dir [{:?}, {:?}] rounds to zero in {precision}: a ray needs a direction",
                        value[0], value[1]
                    )
                }
            }
            Self::NegativeMaxToi { value } => write!(
                f,
                "max_toi must be >= 0 (omit it, or null, for no limit), got {value:?}"
            ),
        }
    }
}

impl std::error::Error for RayError {}

/// A ray ready to cast in precision `T`: the ray, its `max_toi` (`+∞` for no
/// limit) and whether shapes are solid for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayQuery<T: Real> {
    /// The ray.
    pub ray: Ray<T>,
    /// The largest time of impact looked at (`+∞`: no limit).
    pub max_toi: T,
    /// Solid (`true`) or hollow shapes.
    pub solid: bool,
}

fn precision<T: Real>() -> &'static str {
    std::any::type_name::<T>()
}

impl RaySpec {
    /// The ray in precision `T`. A `max_toi` beyond the precision's range
    /// rounds to `+∞`, which is what it means: no time of impact there is
    /// larger.
    ///
    /// ```
    /// use kasanari::scene::{RayError, RaySpec};
    /// let spec = RaySpec { origin: [0.0, 0.0], dir: [1e-50, 0.0], max_toi: Some(1e300), solid: true };
    /// assert_eq!(spec.to_query::<f64>().unwrap().max_toi, 1e300);
    /// assert!(matches!(spec.to_query::<f32>(), Err(RayError::ZeroDirection { .. })));
    /// ```
    ///
    /// # Errors
    /// [`RayError::NonFinite`] for an origin or direction beyond `T`'s range,
    /// [`RayError::ZeroDirection`] for a direction that is (or rounds to)
    /// zero, [`RayError::NegativeMaxToi`] for a negative `max_toi` (`-0` is
    /// `0`).
    pub fn to_query<T: Real>(&self) -> Result<RayQuery<T>, RayError> {
        let convert = |field: &'static str, v: [f64; 2]| {
            let (x, y) = (T::lit(v[0]), T::lit(v[1]));
            if x.is_finite() && y.is_finite() {
                Ok((x, y))
            } else {
                Err(RayError::NonFinite {
                    field,
                    value: v,
                    precision: precision::<T>(),
                })
            }
        };
        let (ox, oy) = convert("origin", self.origin)?;
        let (dx, dy) = convert("dir", self.dir)?;
        if dx == T::zero() && dy == T::zero() {
            return Err(RayError::ZeroDirection {
                value: self.dir,
                precision: precision::<T>(),
            });
        }
        let max_toi = match self.max_toi {
            None => T::infinity(),
            // JSON cannot hold NaN, but a value built in code can.
            Some(v) if v.is_nan() || v < 0.0 => return Err(RayError::NegativeMaxToi { value: v }),
            Some(v) => T::lit(v),
        };
        Ok(RayQuery {
            ray: Ray::new(Point2::new(ox, oy), Vector2::new(dx, dy)),
            max_toi,
            solid: self.solid,
        })
    }
}

/// A ray's answer: the index of the shape hit first and the hit, or `None`.
pub type FirstHit<T> = Option<(usize, RayHit<T>)>;

/// A rays file loaded in precision `T`: its shapes in a world and its rays
/// ready to cast.
#[derive(Debug)]
pub struct RaysWorld<T: Real> {
    /// The shapes in a world; `shapes.handles[i]` is the handle of the
    /// file's `shapes[i]`.
    pub shapes: SceneWorld<T>,
    /// The rays, in order.
    pub rays: Vec<RayQuery<T>>,
    /// `labels[i]` names `shapes[i]` in messages.
    labels: Vec<String>,
}

impl RaysFile {
    /// The shapes in a world (as [`super::Scene::world`] builds them, with
    /// the cell size chosen from their sizes) and the rays in precision `T`.
    ///
    /// # Errors
    /// [`SceneError::Shape`] or [`SceneError::World`] for the first shape that
    /// is invalid or does not fit `T`, then [`SceneError::Ray`] for the first
    /// ray that cannot be cast ([`RaySpec::to_query`]).
    pub fn world<T: Real>(&self) -> Result<RaysWorld<T>, SceneError> {
        let shapes = build_world(&self.shapes, None)?;
        let rays = self
            .rays
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.to_query::<T>().map_err(|error| SceneError::Ray {
                    at: format!("rays[{i}]"),
                    error,
                })
            })
            .collect::<Result<_, _>>()?;
        let labels = self
            .shapes
            .iter()
            .enumerate()
            .map(|(i, e)| shape_at(i, e))
            .collect();
        Ok(RaysWorld {
            shapes,
            rays,
            labels,
        })
    }
}

impl<T: Real> RaysWorld<T> {
    /// The first hit of `query` over all shapes: the index of the shape hit
    /// and the hit, with the smallest time of impact, ties going to the
    /// smaller index; `None` when no shape is hit within `max_toi`.
    ///
    /// The query goes through the world ([`broadphase::World::cast_ray`]:
    /// the grid cells the ray crosses, then each shape's exact ray cast),
    /// with every group accepted: a shape whose `membership` or `mask` is 0
    /// (a shape that collides with nothing) is not looked at.
    ///
    /// ```
    /// use kasanari::scene::parse_rays;
    /// // Two boxes touching at x = 2: a ray along their shared side's line
    /// // meets both at toi 1, and the first in the file wins.
    /// let file = parse_rays(&br#"{"shapes": [
    ///     {"kind": "aabb", "min": [2, 0], "max": [3, 1]},
    ///     {"kind": "aabb", "min": [1, 0], "max": [2, 1]}
    /// ], "rays": [{"origin": [2, -1], "dir": [0, 1]}, {"origin": [0, 0.5], "dir": [-1, 0]}]}"#[..]).unwrap();
    /// let rays = file.world::<f32>().unwrap();
    /// let (shape, hit) = rays.first_hit(&rays.rays[0]).unwrap().unwrap();
    /// assert_eq!((shape, hit.toi), (0, 1.0));
    /// assert_eq!(rays.first_hit(&rays.rays[1]).unwrap(), None);
    /// ```
    ///
    /// # Errors
    /// [`SceneError::Query`] naming the first shape along the ray that the
    /// narrow phase cannot answer: in practice
    /// [`narrowphase::DispatchError::QueryOutOfRange`], an origin farther
    /// from a shape it aims at than the precision's arithmetic allows.
    pub fn first_hit(&self, query: &RayQuery<T>) -> Result<FirstHit<T>, SceneError> {
        let filter = QueryFilter::default().with_solid(query.solid);
        let found = self
            .shapes
            .world
            .cast_ray(&query.ray, query.max_toi, filter)
            .map_err(|e| match e {
                WorldError::Narrowphase { handle, error } => SceneError::Query {
                    at: self
                        .index_of(handle)
                        .map_or_else(|| handle.to_string(), |i| self.labels[i].clone()),
                    error,
                },
                // The ray and `max_toi` were checked by `to_query`.
                error => SceneError::World {
                    at: "rays".to_string(),
                    error,
                },
            })?;
        // Handles are given in file order, so the world's tie rule (the
        // smaller handle) is the file's (the smaller index).
        Ok(found.and_then(|(h, hit)| self.index_of(h).map(|i| (i, hit))))
    }

    /// The part of shape `index` (a composite) that `query`'s first hit on
    /// it is on ([`broadphase::World::ray_part`]); `None` for a shape that
    /// is not a composite, an index past the shapes, or a miss.
    #[must_use]
    pub fn hit_part(&self, query: &RayQuery<T>, index: usize) -> Option<u32> {
        let h = *self.shapes.handles.get(index)?;
        self.shapes
            .world
            .ray_part(h, &query.ray, query.max_toi, query.solid)
            .ok()
            .flatten()
    }

    /// The file index of the shape behind a handle.
    fn index_of(&self, handle: Handle) -> Option<usize> {
        self.shapes.handles.binary_search(&handle).ok()
    }

    /// Every ray's first hit, in order.
    ///
    /// ```
    /// use kasanari::scene::parse_rays;
    /// let file = parse_rays(&br#"{"shapes": [{"kind": "circle", "center": [0, 0], "radius": 1}],
    ///     "rays": [{"origin": [0, 5], "dir": [0, -1], "max_toi": 3},
    ///              {"origin": [0, 5], "dir": [0, -1], "max_toi": 4}]}"#[..]).unwrap();
    /// let answers = file.world::<f64>().unwrap().answers().unwrap();
    /// assert_eq!(answers[0], None); // stops short of the ball
    /// assert_eq!(answers[1].unwrap().1.toi, 4.0); // a hit at max_toi counts
    /// ```
    ///
    /// # Errors
    /// As [`RaysWorld::first_hit`], the message prefixed with the ray:
    /// `rays[2], shapes[0] (circle): ...`.
    pub fn answers(&self) -> Result<Vec<FirstHit<T>>, SceneError> {
        self.rays
            .iter()
            .enumerate()
            .map(|(i, q)| {
                self.first_hit(q).map_err(|e| match e {
                    SceneError::Query { at, error } => SceneError::Query {
                        at: format!("rays[{i}], {at}"),
                        error,
                    },
                    e => e,
                })
            })
            .collect()
    }
}
