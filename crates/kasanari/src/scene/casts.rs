//! Casts files: pairs of shapes moving at constant velocities (format
//! version 1, `docs/scene-format.md`, "Casts").
//!
//! Each cast places its two shapes as a pairs file does (each by its own
//! fields, at time 0), gives each a velocity (world units per unit of time)
//! and asks [`narrowphase::cast_shapes`] for the first time in
//! `[0, max_toi]` at which they touch (the contract is in
//! `docs/conventions.md`, "Shape casts").
//!
//! ```
//! use kasanari::scene::parse_casts;
//! let file = parse_casts(&br#"{"casts": [{
//!     "a": {"kind": "circle", "center": [-10, 0], "radius": 1}, "vel_a": [2, 0],
//!     "b": {"kind": "aabb", "min": [0, -5], "max": [1, 5]}, "vel_b": [0, 0],
//!     "max_toi": 10}]}"#[..]).unwrap();
//! let hit = file.casts[0].answer::<f64>().unwrap().unwrap();
//! assert!((hit.toi - 4.5).abs() < 1e-12); // a gap of 9 closed at 2
//! assert!((hit.normal.x - 1.0).abs() < 1e-12);
//! ```

use nalgebra::Vector2;
use narrowphase::composite::Parts;
use narrowphase::{ShapeCastArgs, ShapeCastHit, ShapeCastOptions, ShapeCastQuery};
use serde::{Deserialize, Serialize};
use shape::Real;

use super::{SceneError, ShapeSpec, check_version, default_version};

/// One cast of a casts file: `{"a": SHAPE, "vel_a": [x, y], "b": SHAPE,
/// "vel_b": [x, y], "max_toi": t, "stop_at_penetration": true}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastSpec {
    /// The first shape, placed by its own fields at time 0.
    pub a: ShapeSpec,
    /// Its velocity.
    pub vel_a: [f64; 2],
    /// The second shape.
    pub b: ShapeSpec,
    /// Its velocity.
    pub vel_b: [f64; 2],
    /// The latest time of impact reported; omitted or `null`: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_toi: Option<f64>,
    /// Whether shapes touching at time 0 are a hit at 0 (`true`, the
    /// default) or only when the motion drives them deeper.
    #[serde(default = "stop_default")]
    pub stop_at_penetration: bool,
}

fn stop_default() -> bool {
    true
}

/// A casts file: `{"version": 1, "casts": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastsFile {
    /// The format version (1 when omitted).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The casts, answered in order.
    pub casts: Vec<CastSpec>,
}

/// Reads a casts file.
///
/// # Errors
/// As [`super::read_scene`].
pub fn read_casts(path: &std::path::Path) -> Result<CastsFile, SceneError> {
    parse_casts(std::io::BufReader::new(std::fs::File::open(path)?))
}

/// Parses a casts file from any reader.
///
/// ```
/// let bad = br#"{"casts": [{"a": {"kind": "circle", "center": [0, 0], "radius": 1}}]}"#;
/// assert!(kasanari::scene::parse_casts(&bad[..]).is_err()); // no vel_a, b, vel_b
/// ```
///
/// # Errors
/// As [`super::parse_scene`].
pub fn parse_casts(reader: impl std::io::Read) -> Result<CastsFile, SceneError> {
    let file: CastsFile = serde_json::from_reader(reader)?;
    check_version(file.version)?;
    Ok(file)
}

/// Why a cast of a file cannot be answered (in the chosen precision).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum CastError {
    /// A velocity has a coordinate beyond the precision's range.
    NonFinite {
        /// `"vel_a"` or `"vel_b"`.
        field: &'static str,
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

impl std::fmt::Display for CastError {
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
            Self::NegativeMaxToi { value } => write!(
                f,
                "max_toi must be >= 0 (omit it, or null, for no limit), got {value:?}"
            ),
        }
    }
}

impl std::error::Error for CastError {}

impl CastSpec {
    /// The first contact of the two moving shapes in precision `T`, or `None`
    /// when they do not touch by `max_toi`.
    ///
    /// # Errors
    /// [`SceneError::Shape`] or [`SceneError::World`] for a shape that is
    /// invalid or does not fit `T` (`at` is `a` or `b`), [`SceneError::Cast`]
    /// for a velocity beyond `T`'s range or a negative `max_toi`,
    /// [`SceneError::Query`] when the narrow phase cannot answer.
    pub fn answer<T: Real>(&self) -> Result<Option<ShapeCastHit<T>>, SceneError> {
        self.answer_with_parts().map(|(hit, _)| hit)
    }

    /// [`answer`](Self::answer) with the parts the hit is on when a shape is
    /// a composite (`Table::query_parts`: the same hit), [`Parts::NONE`]
    /// otherwise.
    ///
    /// # Errors
    /// As [`answer`](Self::answer).
    pub fn answer_with_parts<T: Real>(
        &self,
    ) -> Result<(Option<ShapeCastHit<T>>, Parts), SceneError> {
        let shape = |s: &ShapeSpec, at: &str| {
            s.to_placed::<T>().map_err(|e| SceneError::Shape {
                at: super::with_field(format!("{at} ({})", s.kind()), &e.field),
                error: e.error,
            })
        };
        let (a, pa) = shape(&self.a, "a")?;
        let (b, pb) = shape(&self.b, "b")?;
        let velocity = |field: &'static str, v: [f64; 2]| {
            let (x, y) = (T::lit(v[0]), T::lit(v[1]));
            if x.is_finite() && y.is_finite() {
                Ok(Vector2::new(x, y))
            } else {
                Err(SceneError::Cast {
                    at: field.to_string(),
                    error: CastError::NonFinite {
                        field,
                        value: v,
                        precision: std::any::type_name::<T>(),
                    },
                })
            }
        };
        let (va, vb) = (
            velocity("vel_a", self.vel_a)?,
            velocity("vel_b", self.vel_b)?,
        );
        let max_toi = match self.max_toi {
            None => T::infinity(),
            Some(v) if v.is_nan() || v < 0.0 => {
                return Err(SceneError::Cast {
                    at: "max_toi".to_string(),
                    error: CastError::NegativeMaxToi { value: v },
                });
            }
            Some(v) => T::lit(v),
        };
        let options = ShapeCastOptions {
            stop_at_penetration: self.stop_at_penetration,
        };
        let at = |error| SceneError::Query {
            at: format!("{} × {}", self.a.kind(), self.b.kind()),
            error,
        };
        if self.a.is_composite() || self.b.is_composite() {
            let args = ShapeCastArgs {
                vel_a: va,
                vel_b: vb,
                max_toi,
                options,
            };
            narrowphase::DispatchTable::<T>::new()
                .query_parts::<ShapeCastQuery>(a.as_ref(), &pa, b.as_ref(), &pb, args)
                .map_err(at)
        } else {
            narrowphase::cast_shapes(a.as_ref(), &pa, &va, b.as_ref(), &pb, &vb, max_toi, options)
                .map(|hit| (hit, Parts::NONE))
                .map_err(at)
        }
    }
}

impl CastsFile {
    /// Every cast's answer, in order.
    ///
    /// # Errors
    /// As [`CastSpec::answer`], the place prefixed with the cast:
    /// `casts[2].b (circle): ...`.
    pub fn answers<T: Real>(&self) -> Result<Vec<Option<ShapeCastHit<T>>>, SceneError> {
        Ok(self
            .answers_with_parts()?
            .into_iter()
            .map(|(hit, _)| hit)
            .collect())
    }

    /// Every cast's answer with its parts
    /// ([`CastSpec::answer_with_parts`]), in order.
    ///
    /// # Errors
    /// As [`answers`](Self::answers).
    #[allow(clippy::type_complexity)]
    pub fn answers_with_parts<T: Real>(
        &self,
    ) -> Result<Vec<(Option<ShapeCastHit<T>>, Parts)>, SceneError> {
        self.casts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.answer_with_parts::<T>().map_err(|e| match e {
                    SceneError::Shape { at, error } => SceneError::Shape {
                        at: format!("casts[{i}].{at}"),
                        error,
                    },
                    SceneError::Cast { at, error } => SceneError::Cast {
                        at: format!("casts[{i}].{at}"),
                        error,
                    },
                    SceneError::Query { at, error } => SceneError::Query {
                        at: format!("casts[{i}] ({at})"),
                        error,
                    },
                    e => e,
                })
            })
            .collect()
    }
}
