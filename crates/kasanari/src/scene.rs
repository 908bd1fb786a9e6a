//! Scene, pairs and rays files: shapes described in world coordinates, in
//! JSON (format version 1, documented in `docs/scene-format.md`).
//!
//! A shape given in world coordinates is stored as a local shape around its own
//! centre plus a pose, the subtraction done in f64 before any conversion, so
//! that an f32 world keeps its precision far from the origin.
//!
//! ```
//! use kasanari::scene::{Scene, ShapeSpec};
//! let scene: Scene = serde_json::from_str(r#"{"shapes": [
//!     {"kind": "circle", "center": [0, 0], "radius": 1, "id": "ball"},
//!     {"kind": "obb", "center": [1.5, 0], "half_extents": [1, 0.5], "angle": 0.3}
//! ]}"#).unwrap();
//! let world = scene.world::<f32>(None).unwrap();
//! assert_eq!(world.world.len(), 2);
//! ```

use broadphase::{Filter, Handle, World};
use nalgebra::{Isometry2, Point2, Translation2, Vector2};
use serde::{Deserialize, Serialize};
use shape::ShapeKind;
use shape::dim2::composite::ConvexPart;
use shape::{
    Aabb, Capsule, Circle, Compound, ConcavePolygon, ConvexPolygon, Ellipse, Obb, Point, Polyline,
    Real, RoundedPolygon, Segment, Shape, ShapeError, TileMap, Triangle,
};

/// A shape in its local frame and the pose that places it.
pub type PlacedShape<T> = (Box<dyn Shape<T>>, Isometry2<T>);

/// A compound's part and its pose in the compound's frame.
type PlacedPart<T> = (ConvexPart<T>, Isometry2<T>);

mod casts;
mod rays;
pub use casts::{CastError, CastSpec, CastsFile, parse_casts, read_casts};
pub use rays::{FirstHit, RayError, RayQuery, RaySpec, RaysFile, RaysWorld, parse_rays, read_rays};

/// The scene format's version; a file may state it as `"version": 1`.
pub const FORMAT_VERSION: u32 = 1;

/// One shape in world coordinates, tagged by `"kind"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// `{"kind":"point","p":[x,y]}`
    Point {
        /// The point.
        p: [f64; 2],
    },
    /// `{"kind":"segment","a":[x,y],"b":[x,y]}`
    Segment {
        /// First end point.
        a: [f64; 2],
        /// Second end point.
        b: [f64; 2],
    },
    /// `{"kind":"circle","center":[x,y],"radius":r}`
    Circle {
        /// Centre.
        center: [f64; 2],
        /// Radius.
        radius: f64,
    },
    /// `{"kind":"aabb","min":[x,y],"max":[x,y]}`
    Aabb {
        /// Lower corner.
        min: [f64; 2],
        /// Upper corner.
        max: [f64; 2],
    },
    /// `{"kind":"obb","center":[x,y],"half_extents":[hx,hy],"angle":radians}`
    Obb {
        /// Centre.
        center: [f64; 2],
        /// Half extents.
        half_extents: [f64; 2],
        /// Rotation in radians, counter-clockwise.
        angle: f64,
    },
    /// `{"kind":"triangle","vertices":[[x,y],[x,y],[x,y]]}`
    Triangle {
        /// The corners, either orientation.
        vertices: [[f64; 2]; 3],
    },
    /// `{"kind":"polygon","vertices":[[x,y],...]}` (convex, either orientation)
    Polygon {
        /// The vertices.
        vertices: Vec<[f64; 2]>,
    },
    /// `{"kind":"capsule","a":[x,y],"b":[x,y],"radius":r}`
    Capsule {
        /// First end of the core segment.
        a: [f64; 2],
        /// Second end.
        b: [f64; 2],
        /// Radius.
        radius: f64,
    },
    /// `{"kind":"ellipse","center":[x,y],"radii":[rx,ry],"angle":radians}`
    Ellipse {
        /// Centre.
        center: [f64; 2],
        /// Radii along the ellipse's own axes.
        radii: [f64; 2],
        /// Rotation in radians, counter-clockwise.
        angle: f64,
    },
    /// `{"kind":"rounded_polygon","vertices":[[x,y],...],"radius":r}`: the
    /// convex polygon (either orientation) grown by `radius`.
    RoundedPolygon {
        /// The core polygon's vertices.
        vertices: Vec<[f64; 2]>,
        /// The rounding radius.
        radius: f64,
    },
    /// `{"kind":"rounded_box","center":[x,y],"half_extents":[hx,hy],"radius":r,"angle":radians}`:
    /// a box of outer half extents `half_extents` whose corners are rounded
    /// by `radius` (below both half extents).
    RoundedBox {
        /// Centre.
        center: [f64; 2],
        /// Outer half extents.
        half_extents: [f64; 2],
        /// The corners' radius.
        radius: f64,
        /// Rotation in radians, counter-clockwise.
        angle: f64,
    },
    /// `{"kind":"compound","center":[x,y],"angle":radians,"parts":[SHAPE,...]}`:
    /// convex parts (any kind above) given in the compound's own frame, whose
    /// origin is placed at `center` and turned by `angle`. Part ids are the
    /// indices in `parts`.
    Compound {
        /// Where the compound's origin is.
        center: [f64; 2],
        /// Rotation in radians, counter-clockwise, about `center`.
        angle: f64,
        /// The parts, in the compound's frame.
        parts: Vec<PartSpec>,
    },
    /// `{"kind":"polyline","points":[[x,y],...],"closed":false,"one_sided":false}`:
    /// a chain of segments (part `i` from point `i` to `i + 1`); `closed`
    /// joins the last point back to the first; a `one_sided` chain collides
    /// on its right side only (a floor drawn right to left faces up). Both
    /// flags default to `false`.
    Polyline {
        /// The points.
        points: Vec<[f64; 2]>,
        /// Whether the last point joins the first.
        #[serde(default)]
        closed: bool,
        /// Whether only the right side collides.
        #[serde(default)]
        one_sided: bool,
    },
    /// `{"kind":"concave_polygon","vertices":[[x,y],...]}`: a simple polygon
    /// (either winding, saved counter-clockwise), cut into convex parts.
    ConcavePolygon {
        /// The vertices.
        vertices: Vec<[f64; 2]>,
    },
    /// `{"kind":"tile_map","origin":[x,y],"tile_size":[w,h],"rows":["..#","###"]}`:
    /// rows of tiles **top row first**, `#` solid and `.` empty; `origin` is
    /// the map's bottom-left corner. Tile `(col, row)` (row counted from the
    /// bottom) is part `row · width + col`. The map stays axis-aligned.
    TileMap {
        /// The bottom-left corner.
        origin: [f64; 2],
        /// The size of a tile.
        tile_size: [f64; 2],
        /// The rows, top first.
        rows: Vec<TileRow>,
    },
}

/// A part of a `compound`: a SHAPE of a convex kind (not a composite),
/// checked when the file is read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ShapeSpec", into = "ShapeSpec")]
pub struct PartSpec(pub ShapeSpec);

impl TryFrom<ShapeSpec> for PartSpec {
    type Error = String;
    fn try_from(s: ShapeSpec) -> Result<Self, String> {
        if s.is_composite() {
            Err(format!(
                "a compound's part must be a convex kind, not `{}`",
                s.kind()
            ))
        } else {
            Ok(Self(s))
        }
    }
}

impl From<PartSpec> for ShapeSpec {
    fn from(p: PartSpec) -> Self {
        p.0
    }
}

/// A row of a `tile_map`: a string of `#` (solid) and `.` (empty), checked
/// when the file is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TileRow(pub Vec<bool>);

impl TryFrom<String> for TileRow {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.chars()
            .enumerate()
            .map(|(column, c)| match c {
                '#' => Ok(true),
                '.' => Ok(false),
                other => Err(format!(
                    "a tile row is made of '#' (solid) and '.' (empty): {other:?} at column {column} of {s:?}"
                )),
            })
            .collect::<Result<Vec<bool>, String>>()
            .map(Self)
    }
}

impl From<TileRow> for String {
    fn from(r: TileRow) -> Self {
        r.0.iter().map(|&s| if s { '#' } else { '.' }).collect()
    }
}

/// A shape that failed validation, and where in its SHAPE: `field` is empty
/// for the shape as a whole, else a path such as `vertices[2]`, `rows[1]` or
/// `parts[0].radius`... (`parts[0]` for a part's own error).
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError {
    /// Where in the SHAPE (empty: the shape as a whole).
    pub field: String,
    /// What is wrong.
    pub error: ShapeError,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.error)
        } else {
            write!(f, "{}: {}", self.field, self.error)
        }
    }
}

impl std::error::Error for SpecError {}

impl From<ShapeError> for SpecError {
    fn from(error: ShapeError) -> Self {
        Self {
            field: String::new(),
            error,
        }
    }
}

/// The field a vertex list's error names: `name[i]` for the errors that
/// name a vertex or an edge (edge `i` runs from vertex `i`), else `name`.
fn vertex_field(name: &str, e: &ShapeError) -> String {
    match e {
        ShapeError::NonFiniteVertex { index }
        | ShapeError::DuplicateVertex { index }
        | ShapeError::CollinearVertices { index }
        | ShapeError::NotConvex { index } => format!("{name}[{index}]"),
        ShapeError::EdgesCross { edge, .. } => format!("{name}[{edge}]"),
        ShapeError::DegeneratePart { vertex } => format!("{name}[{vertex}]"),
        _ => name.to_string(),
    }
}

/// A shape entry of a scene: the shape, an optional id echoed in the output,
/// and optional filter bits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Any JSON value, echoed in the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    /// Filter membership bits (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub membership: Option<u32>,
    /// Filter mask bits (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<u32>,
    /// The shape.
    #[serde(flatten)]
    pub shape: ShapeSpec,
}

impl Entry {
    /// The entry's filter.
    #[must_use]
    pub fn filter(&self) -> Filter {
        Filter::new(
            self.membership.unwrap_or(u32::MAX),
            self.mask.unwrap_or(u32::MAX),
        )
    }

    /// A label for messages: the id if any, else `#index`.
    #[must_use]
    pub fn label(&self, index: usize) -> String {
        match &self.id {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => format!("#{index}"),
        }
    }
}

/// A scene file: `{"version": 1, "shapes": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// The format version (1 when omitted).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The shapes.
    pub shapes: Vec<Entry>,
}

/// A pair of a pairs file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairSpec {
    /// The first shape.
    pub a: ShapeSpec,
    /// The second shape.
    pub b: ShapeSpec,
    /// How far apart the shapes may be for their contact manifold to report
    /// speculative points (`≥ 0`; `0` when omitted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<f64>,
}

/// A pairs file: `{"version": 1, "pairs": [{"a": SHAPE, "b": SHAPE}, ...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairsFile {
    /// The format version (1 when omitted).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The pairs.
    pub pairs: Vec<PairSpec>,
}

fn default_version() -> u32 {
    FORMAT_VERSION
}

/// Why a scene could not be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum SceneError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Malformed JSON, an unknown kind, a missing or extra field (with line and
    /// column).
    Json(serde_json::Error),
    /// A version other than [`FORMAT_VERSION`].
    Version(u32),
    /// A shape failed validation.
    Shape {
        /// Where: `shapes[3] (id "wall")` or `pairs[2].b`.
        at: String,
        /// What is wrong.
        error: ShapeError,
    },
    /// A shape's pose or bounding box is not finite in the chosen precision.
    World {
        /// Where.
        at: String,
        /// What the world said.
        error: broadphase::WorldError,
    },
    /// A ray of a rays file cannot be cast.
    Ray {
        /// Where: `rays[2]`.
        at: String,
        /// What is wrong.
        error: RayError,
    },
    /// A cast of a casts file cannot be answered.
    Cast {
        /// Where: `casts[2].vel_a`.
        at: String,
        /// What is wrong.
        error: CastError,
    },
    /// The narrow phase could not answer a ray against a shape (or a cast).
    Query {
        /// Where: `rays[2], shapes[0] (circle)`.
        at: String,
        /// What the narrow phase said.
        error: narrowphase::DispatchError,
    },
}

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "cannot read the file: {e}"),
            Self::Json(e) => write!(f, "invalid file: {e}"),
            Self::Version(v) => write!(
                f,
                "unsupported format version {v} (this program reads version {FORMAT_VERSION})"
            ),
            Self::Shape { at, error } => write!(f, "{at}: {error}"),
            Self::World { at, error } => write!(f, "{at}: {error}"),
            Self::Ray { at, error } => write!(f, "{at}: {error}"),
            Self::Cast { at, error } => write!(f, "{at}: {error}"),
            Self::Query { at, error } => write!(f, "{at}: {error}"),
        }
    }
}

impl std::error::Error for SceneError {}

impl From<serde_json::Error> for SceneError {
    fn from(e: serde_json::Error) -> Self {
        Self::Json(e)
    }
}

impl From<std::io::Error> for SceneError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// Reads a JSON file with a streaming parser (linear in the file's size).
///
/// # Errors
/// [`SceneError::Io`], [`SceneError::Json`], [`SceneError::Version`].
pub fn read_scene(path: &std::path::Path) -> Result<Scene, SceneError> {
    parse_scene(std::io::BufReader::new(std::fs::File::open(path)?))
}

/// Parses a scene from any reader (a file, a network stream, bytes in memory).
///
/// ```
/// let json = r#"{"version": 1, "shapes": [{"kind": "circle", "center": [0, 0], "radius": 1}]}"#;
/// let scene = kasanari::scene::parse_scene(json.as_bytes()).unwrap();
/// assert_eq!(scene.shapes.len(), 1);
/// assert!(kasanari::scene::parse_scene(&b"{\"version\": 1"[..]).is_err());
/// ```
///
/// # Errors
/// [`SceneError::Io`], [`SceneError::Json`], [`SceneError::Version`].
pub fn parse_scene(reader: impl std::io::Read) -> Result<Scene, SceneError> {
    let scene: Scene = serde_json::from_reader(reader)?;
    check_version(scene.version)?;
    Ok(scene)
}

/// Reads a pairs file.
///
/// # Errors
/// As [`read_scene`].
pub fn read_pairs(path: &std::path::Path) -> Result<PairsFile, SceneError> {
    parse_pairs(std::io::BufReader::new(std::fs::File::open(path)?))
}

/// Parses a pairs file from any reader.
///
/// # Errors
/// As [`parse_scene`].
pub fn parse_pairs(reader: impl std::io::Read) -> Result<PairsFile, SceneError> {
    let file: PairsFile = serde_json::from_reader(reader)?;
    check_version(file.version)?;
    Ok(file)
}

fn check_version(v: u32) -> Result<(), SceneError> {
    if v == FORMAT_VERSION {
        Ok(())
    } else {
        Err(SceneError::Version(v))
    }
}

/// The frame of a shape given by world vertices: near their centroid, on the
/// coarsest grid their coordinates share, rounded to `T` (kept in f64 when
/// it does not fit `T`, for the world to reject).
///
/// On the shared grid: every coordinate is a multiple of some power of two
/// `q` (1 for integers, 1/8 for eighths), and so is the origin, so `p − c`
/// is exact (a multiple of `q` no larger than the shape) and so is the
/// world's `local + c`: vertices that coincide in the file coincide in the
/// world, bit for bit, and exact touching (`docs/conventions.md`) sees them
/// so. Moving the origin off the centroid by less than `q/2` costs nothing.
///
/// Rounding the centre first and then taking `p − c` in f64 against the
/// rounded centre keeps the world vertices exact up to rounding at the
/// shape's own size: far from the origin only the local vertices round, never
/// the placement. (Rounding after subtracting would move the whole shape by up
/// to half a spacing of `T` at the centre.)
fn centroid<T: Real>(points: &[[f64; 2]]) -> [f64; 2] {
    let n = points.len().max(1) as f64;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    // Vertices near ±MAX can add up past f64 while their mean does not: then
    // average the vertices divided by their count.
    let mean = |sum: f64, axis: usize| {
        let m = if sum.is_finite() {
            sum / n
        } else {
            points.iter().map(|p| p[axis] / n).sum()
        };
        on_grid(m, points.iter().map(|p| p[axis]))
    };
    [mean(x, 0), mean(y, 1)].map(|v| {
        let r = T::lit(v).as_f64();
        if r.is_finite() { r } else { v }
    })
}

/// `c` moved to the nearest multiple of the coarsest power of two that
/// divides every one of `coordinates` (unchanged when they are all zero, or
/// when that grid is finer than `c`'s own spacing).
fn on_grid(c: f64, coordinates: impl Iterator<Item = f64>) -> f64 {
    let Some(k) = coordinates.filter_map(lowest_bit).min() else {
        return c;
    };
    let q = power_of_two(k);
    let steps = c / q;
    if steps.is_finite() && steps.abs() < 4_503_599_627_370_496.0 {
        steps.round() * q
    } else {
        c
    }
}

/// The exponent `k` of the lowest set bit of a finite non-zero `x`: `x` is an
/// odd multiple of `2^k`.
fn lowest_bit(x: f64) -> Option<i32> {
    if x == 0.0 || !x.is_finite() {
        return None;
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1_u64 << 52) - 1);
    Some(if exponent == 0 {
        // Subnormal: fraction · 2^−1074.
        fraction.trailing_zeros() as i32 - 1074
    } else {
        (fraction | (1_u64 << 52)).trailing_zeros() as i32 + exponent - 1075
    })
}

/// `2^k` for `−1074 ≤ k ≤ 1023`, exactly.
fn power_of_two(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1_u64 << (k + 1074))
    }
}

/// `p − c` in f64, then converted.
fn local<T: Real>(p: [f64; 2], c: [f64; 2]) -> Point2<T> {
    Point2::new(T::lit(p[0] - c[0]), T::lit(p[1] - c[1]))
}

/// The pose of a file's centre and angle, the rotation by the library's
/// deterministic cosine and sine (`shape::math`), so the command answers the
/// same bits on every platform.
fn pose<T: Real>(c: [f64; 2], angle: f64) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(c[0]), T::lit(c[1])),
        shape::math::rotation2(T::lit(angle)),
    )
}

impl ShapeSpec {
    /// The shape in its local frame around its own centre, and the pose that
    /// places it (a validated built-in shape).
    ///
    /// # Errors
    /// The shape's [`ShapeError`] (NaN cannot come from JSON, but sizes,
    /// degenerate or non-convex vertices can be wrong; an angle that is not
    /// finite is `NonFinite { field: "angle" }`). [`to_placed`](Self::to_placed)
    /// says which field too.
    pub fn to_shape<T: Real>(&self) -> Result<PlacedShape<T>, ShapeError> {
        self.to_placed().map_err(|e| e.error)
    }

    /// [`to_shape`](Self::to_shape), the error naming the field (and the
    /// index) at fault: `vertices[2]`, `points[1]`, `rows[0]`, `parts[3]`,
    /// `parts[1].vertices[0]`, or nothing for the shape as a whole.
    ///
    /// ```
    /// use kasanari::scene::ShapeSpec;
    /// let bowtie: ShapeSpec = serde_json::from_str(
    ///     r#"{"kind":"concave_polygon","vertices":[[0,0],[1,1],[1,0],[0,1]]}"#,
    /// ).unwrap();
    /// let e = bowtie.to_placed::<f64>().unwrap_err();
    /// assert_eq!(e.field, "vertices[0]");
    /// ```
    ///
    /// # Errors
    /// As [`to_shape`](Self::to_shape), with the field.
    pub fn to_placed<T: Real>(&self) -> Result<PlacedShape<T>, SpecError> {
        if let Some((part, pose)) = self.to_part::<T>()? {
            return Ok((boxed(part), pose));
        }
        Ok(match self {
            Self::Compound {
                center,
                angle,
                parts,
            } => {
                let angle = finite_angle(*angle)?;
                let parts = parts
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let at = |e: SpecError| SpecError {
                            field: if e.field.is_empty() {
                                format!("parts[{i}]")
                            } else {
                                format!("parts[{i}].{}", e.field)
                            },
                            error: e.error,
                        };
                        match p.0.to_part::<T>().map_err(at)? {
                            Some((part, pose)) => Ok((pose, part)),
                            // Unreachable through serde (`PartSpec` checks the
                            // kind); a part built by hand is refused.
                            None => Err(SpecError {
                                field: format!("parts[{i}]"),
                                error: ShapeError::NoParts,
                            }),
                        }
                    })
                    .collect::<Result<Vec<_>, SpecError>>()?;
                let compound = Compound::new(parts).map_err(|error| SpecError {
                    field: match error {
                        ShapeError::InvalidPartPose { index } => format!("parts[{index}]"),
                        _ => "parts".into(),
                    },
                    error,
                })?;
                (Box::new(compound), pose(*center, angle))
            }
            Self::Polyline {
                points,
                closed,
                one_sided,
            } => {
                let c = centroid::<T>(points);
                let v: Vec<Point2<T>> = points.iter().map(|p| local(*p, c)).collect();
                let chain = Polyline::new(&v, *closed).map_err(|error| SpecError {
                    field: vertex_field("points", &error),
                    error,
                })?;
                (Box::new(chain.with_one_sided(*one_sided)), pose(c, 0.0))
            }
            Self::ConcavePolygon { vertices } => {
                let c = centroid::<T>(vertices);
                let v: Vec<Point2<T>> = vertices.iter().map(|p| local(*p, c)).collect();
                let polygon = ConcavePolygon::new(&v).map_err(|error| SpecError {
                    field: vertex_field("vertices", &error),
                    error,
                })?;
                (Box::new(polygon), pose(c, 0.0))
            }
            Self::TileMap {
                origin,
                tile_size,
                rows,
            } => {
                let size = Vector2::new(T::lit(tile_size[0]), T::lit(tile_size[1]));
                let rows: Vec<&[bool]> = rows.iter().map(|r| r.0.as_slice()).collect();
                let map = TileMap::from_rows(size, &rows).map_err(|error| SpecError {
                    field: match &error {
                        ShapeError::RaggedRow { row, .. } => format!("rows[{row}]"),
                        ShapeError::NonFinite { .. }
                        | ShapeError::NonPositiveSize { .. }
                        | ShapeError::TooLarge { .. } => "tile_size".into(),
                        _ => "rows".into(),
                    },
                    error,
                })?;
                (Box::new(map), pose(*origin, 0.0))
            }
            // The convex kinds were answered above.
            _ => return Err(ShapeError::NoParts.into()),
        })
    }

    /// Whether the kind is a composite (`compound`, `polyline`,
    /// `concave_polygon`, `tile_map`), which cannot be a compound's part.
    #[must_use]
    pub fn is_composite(&self) -> bool {
        matches!(
            self,
            Self::Compound { .. }
                | Self::Polyline { .. }
                | Self::ConcavePolygon { .. }
                | Self::TileMap { .. }
        )
    }

    /// A convex kind as a compound's part and its pose; `None` for a
    /// composite kind.
    fn to_part<T: Real>(&self) -> Result<Option<PlacedPart<T>>, SpecError> {
        Ok(Some(match self {
            Self::Point { p } => (Point::new(Point2::origin())?.into(), pose(*p, 0.0)),
            Self::Segment { a, b } => {
                let c = centroid::<T>(&[*a, *b]);
                (
                    Segment::new(local(*a, c), local(*b, c))?.into(),
                    pose(c, 0.0),
                )
            }
            Self::Circle { center, radius } => {
                (Circle::new(T::lit(*radius))?.into(), pose(*center, 0.0))
            }
            Self::Aabb { min, max } => {
                let c = centroid::<T>(&[*min, *max]);
                (
                    Aabb::new(local(*min, c), local(*max, c))?.into(),
                    pose(c, 0.0),
                )
            }
            Self::Obb {
                center,
                half_extents,
                angle,
            } => (
                Obb::new(Vector2::new(
                    T::lit(half_extents[0]),
                    T::lit(half_extents[1]),
                ))?
                .into(),
                pose(*center, finite_angle(*angle)?),
            ),
            Self::Triangle { vertices } => {
                let c = centroid::<T>(vertices);
                let v = vertices.map(|p| local::<T>(p, c));
                (Triangle::new(v[0], v[1], v[2])?.into(), pose(c, 0.0))
            }
            Self::Polygon { vertices } => {
                let c = centroid::<T>(vertices);
                let v: Vec<Point2<T>> = vertices.iter().map(|p| local(*p, c)).collect();
                (ConvexPolygon::new(&v)?.into(), pose(c, 0.0))
            }
            Self::Capsule { a, b, radius } => {
                let c = centroid::<T>(&[*a, *b]);
                (
                    Capsule::new(local(*a, c), local(*b, c), T::lit(*radius))?.into(),
                    pose(c, 0.0),
                )
            }
            Self::Ellipse {
                center,
                radii,
                angle,
            } => (
                Ellipse::new(Vector2::new(T::lit(radii[0]), T::lit(radii[1])))?.into(),
                pose(*center, finite_angle(*angle)?),
            ),
            Self::RoundedPolygon { vertices, radius } => {
                let c = centroid::<T>(vertices);
                let v: Vec<Point2<T>> = vertices.iter().map(|p| local(*p, c)).collect();
                (
                    RoundedPolygon::new(&v, T::lit(*radius))?.into(),
                    pose(c, 0.0),
                )
            }
            Self::RoundedBox {
                center,
                half_extents,
                radius,
                angle,
            } => (
                RoundedPolygon::rounded_box(
                    Vector2::new(T::lit(half_extents[0]), T::lit(half_extents[1])),
                    T::lit(*radius),
                )?
                .into(),
                pose(*center, finite_angle(*angle)?),
            ),
            Self::Compound { .. }
            | Self::Polyline { .. }
            | Self::ConcavePolygon { .. }
            | Self::TileMap { .. } => return Ok(None),
        }))
    }

    /// The kind's name as written in files.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Point { .. } => "point",
            Self::Segment { .. } => "segment",
            Self::Circle { .. } => "circle",
            Self::Aabb { .. } => "aabb",
            Self::Obb { .. } => "obb",
            Self::Triangle { .. } => "triangle",
            Self::Polygon { .. } => "polygon",
            Self::Capsule { .. } => "capsule",
            Self::Ellipse { .. } => "ellipse",
            Self::RoundedPolygon { .. } => "rounded_polygon",
            Self::RoundedBox { .. } => "rounded_box",
            Self::Compound { .. } => "compound",
            Self::Polyline { .. } => "polyline",
            Self::ConcavePolygon { .. } => "concave_polygon",
            Self::TileMap { .. } => "tile_map",
        }
    }
}

/// An angle that is a finite number.
fn finite_angle(a: f64) -> Result<f64, ShapeError> {
    if a.is_finite() {
        Ok(a)
    } else {
        Err(ShapeError::NonFinite { field: "angle" })
    }
}

/// A convex part as a shape of its own.
fn boxed<T: Real>(part: ConvexPart<T>) -> Box<dyn Shape<T>> {
    match part {
        ConvexPart::Point(s) => Box::new(s),
        ConvexPart::Segment(s) => Box::new(s),
        ConvexPart::Circle(s) => Box::new(s),
        ConvexPart::Aabb(s) => Box::new(s),
        ConvexPart::Obb(s) => Box::new(s),
        ConvexPart::Triangle(s) => Box::new(s),
        ConvexPart::Polygon(s) => Box::new(s),
        ConvexPart::Capsule(s) => Box::new(s),
        ConvexPart::Ellipse(s) => Box::new(s),
        ConvexPart::RoundedPolygon(s) => Box::new(s),
    }
}

/// A scene loaded into a world: the world and each entry's handle, in order.
#[derive(Debug)]
pub struct SceneWorld<T: Real> {
    /// The world.
    pub world: World<T>,
    /// `handles[i]` is the handle of `shapes[i]`.
    pub handles: Vec<Handle>,
}

impl Scene {
    /// Builds a world with every shape; the cell size is given or chosen from the
    /// shapes' sizes.
    ///
    /// # Errors
    /// [`SceneError::Shape`] naming the first invalid shape, or
    /// [`SceneError::World`] for a shape that does not fit the precision.
    pub fn world<T: Real>(&self, cell_size: Option<T>) -> Result<SceneWorld<T>, SceneError> {
        build_world(&self.shapes, cell_size)
    }
}

/// Where a shape is, for messages: `shapes[3] (id wall, obb)` or `shapes[3] (obb)`.
fn shape_at(i: usize, e: &Entry) -> String {
    match &e.id {
        Some(_) => format!("shapes[{i}] (id {}, {})", e.label(i), e.shape.kind()),
        None => format!("shapes[{i}] ({})", e.shape.kind()),
    }
}

/// `at` followed by a SHAPE's field, when there is one: `shapes[2]
/// (tile_map) rows[1]`.
pub(crate) fn with_field(at: String, field: &str) -> String {
    if field.is_empty() {
        at
    } else {
        format!("{at} {field}")
    }
}

/// The world of a list of shapes (a scene's or a rays file's).
fn build_world<T: Real>(
    shapes: &[Entry],
    cell_size: Option<T>,
) -> Result<SceneWorld<T>, SceneError> {
    let mut world =
        World::<T>::new(cell_size.unwrap_or_else(T::one)).map_err(|error| SceneError::World {
            at: "cell size".into(),
            error,
        })?;
    let mut handles = Vec::with_capacity(shapes.len());
    for (i, e) in shapes.iter().enumerate() {
        let at = || shape_at(i, e);
        let (shape, pose) = e.shape.to_placed::<T>().map_err(|e| SceneError::Shape {
            at: with_field(at(), &e.field),
            error: e.error,
        })?;
        let h = world
            .insert_boxed(shape, pose, e.filter())
            .map_err(|error| SceneError::World { at: at(), error })?;
        handles.push(h);
    }
    if cell_size.is_none() {
        world.auto_cell_size();
    }
    Ok(SceneWorld { world, handles })
}

/// Why a world could not be saved as a scene.
#[derive(Debug, Clone, PartialEq)]
pub struct NotBuiltIn {
    /// The object that is not a built-in 2D shape.
    pub handle: Handle,
    /// Its kind.
    pub kind: ShapeKind,
}

impl std::fmt::Display for NotBuiltIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "object {} is of kind {}, which a scene file cannot describe",
            self.handle, self.kind
        )
    }
}

impl std::error::Error for NotBuiltIn {}

fn world_point<T: Real>(pose: &Isometry2<T>, p: Point2<T>) -> [f64; 2] {
    let w = pose * p;
    [w.x.as_f64(), w.y.as_f64()]
}

fn angle_of<T: Real>(pose: &Isometry2<T>) -> f64 {
    shape::math::angle_of(&pose.rotation).as_f64()
}

impl ShapeSpec {
    /// The spec of a built-in shape placed at `pose`, in world coordinates;
    /// `None` for a shape that is not one of the built-in 2D kinds (a
    /// rounded polygon is saved as `"rounded_polygon"`, a rounded box too;
    /// a compound's parts in its own frame; a concave polygon
    /// counter-clockwise; a tile map's ids as `#`, solid, or `.`).
    #[must_use]
    pub fn from_shape<T: Real>(shape: &dyn Shape<T>, pose: &Isometry2<T>) -> Option<Self> {
        let any = shape.as_any();
        let pose = &shape.effective_pose(pose);
        let t = [pose.translation.x.as_f64(), pose.translation.y.as_f64()];
        Some(if let Some(s) = any.downcast_ref::<Point<T>>() {
            Self::Point {
                p: world_point(pose, s.position()),
            }
        } else if let Some(s) = any.downcast_ref::<Segment<T>>() {
            Self::Segment {
                a: world_point(pose, s.a()),
                b: world_point(pose, s.b()),
            }
        } else if let Some(s) = any.downcast_ref::<Circle<T>>() {
            Self::Circle {
                center: t,
                radius: s.radius().as_f64(),
            }
        } else if let Some(s) = any.downcast_ref::<Aabb<T>>() {
            Self::Aabb {
                min: world_point(pose, s.min()),
                max: world_point(pose, s.max()),
            }
        } else if let Some(s) = any.downcast_ref::<Obb<T>>() {
            let h = s.half_extents();
            Self::Obb {
                center: t,
                half_extents: [h.x.as_f64(), h.y.as_f64()],
                angle: angle_of(pose),
            }
        } else if let Some(s) = any.downcast_ref::<Triangle<T>>() {
            Self::Triangle {
                vertices: s.vertices().map(|v| world_point(pose, v)),
            }
        } else if let Some(s) = any.downcast_ref::<ConvexPolygon<T>>() {
            Self::Polygon {
                vertices: s.vertices().iter().map(|v| world_point(pose, *v)).collect(),
            }
        } else if let Some(s) = any.downcast_ref::<Capsule<T>>() {
            Self::Capsule {
                a: world_point(pose, s.a()),
                b: world_point(pose, s.b()),
                radius: s.radius().as_f64(),
            }
        } else if let Some(s) = any.downcast_ref::<RoundedPolygon<T>>() {
            Self::RoundedPolygon {
                vertices: s.vertices().iter().map(|v| world_point(pose, *v)).collect(),
                radius: s.radius().as_f64(),
            }
        } else if let Some(s) = any.downcast_ref::<Ellipse<T>>() {
            let r = s.radii();
            Self::Ellipse {
                center: t,
                radii: [r.x.as_f64(), r.y.as_f64()],
                angle: angle_of(pose),
            }
        } else if let Some(s) = any.downcast_ref::<Compound<T>>() {
            Self::Compound {
                center: t,
                angle: angle_of(pose),
                parts: s
                    .parts()
                    .iter()
                    .map(|(part_pose, part)| {
                        Self::from_shape(part.as_ref().as_shape(), part_pose).map(PartSpec)
                    })
                    .collect::<Option<Vec<_>>>()?,
            }
        } else if let Some(s) = any.downcast_ref::<Polyline<T>>() {
            Self::Polyline {
                points: s.points().iter().map(|v| world_point(pose, *v)).collect(),
                closed: s.is_closed(),
                one_sided: s.is_one_sided(),
            }
        } else if let Some(s) = any.downcast_ref::<ConcavePolygon<T>>() {
            Self::ConcavePolygon {
                vertices: s.vertices().iter().map(|v| world_point(pose, *v)).collect(),
            }
        } else if let Some(s) = any.downcast_ref::<TileMap<T>>() {
            let size = s.tile_size();
            Self::TileMap {
                origin: t,
                tile_size: [size.x.as_f64(), size.y.as_f64()],
                rows: (0..s.height())
                    .rev()
                    .map(|row| TileRow((0..s.width()).map(|col| s.is_solid(col, row)).collect()))
                    .collect(),
            }
        } else {
            return None;
        })
    }
}

impl Scene {
    /// Saves a world as a scene: every object in handle order, in world
    /// coordinates, with its filter bits and its handle's index as `id`.
    ///
    /// # Errors
    /// [`NotBuiltIn`] for the first object that is not a built-in 2D shape (a
    /// user's own kind has no description in the format).
    ///
    /// ```
    /// use kasanari::nalgebra::Isometry2;
    /// use kasanari::prelude::*;
    /// use kasanari::scene::Scene;
    /// let mut world = World::<f64>::new(1.0).unwrap();
    /// world.insert(Circle::new(1.0).unwrap(), Isometry2::translation(3.0, 4.0), Filter::ALL).unwrap();
    /// let text = kasanari::serde_json::to_string(&Scene::from_world(&world).unwrap()).unwrap();
    /// assert_eq!(text, r#"{"version":1,"shapes":[{"id":0,"kind":"circle","center":[3.0,4.0],"radius":1.0}]}"#);
    /// let again: Scene = kasanari::serde_json::from_str(&text).unwrap();
    /// assert_eq!(again.world::<f64>(None).unwrap().world.len(), 1);
    /// ```
    pub fn from_world<T: Real>(world: &World<T>) -> Result<Self, NotBuiltIn> {
        let shapes = world
            .handles()
            .map(|h| {
                let object = world.get(h).map_err(|_| NotBuiltIn {
                    handle: h,
                    kind: ShapeKind::custom(0),
                })?;
                let shape =
                    ShapeSpec::from_shape(object.shape(), object.pose()).ok_or(NotBuiltIn {
                        handle: h,
                        kind: object.shape().kind(),
                    })?;
                let filter = object.filter();
                let bits = |b: u32| (b != u32::MAX).then_some(b);
                Ok(Entry {
                    id: Some(serde_json::Value::from(h.index())),
                    membership: bits(filter.membership),
                    mask: bits(filter.mask),
                    shape,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            version: FORMAT_VERSION,
            shapes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{lowest_bit, on_grid, power_of_two};

    #[test]
    fn lowest_bits_and_grids() {
        assert_eq!(lowest_bit(1.0), Some(0));
        assert_eq!(lowest_bit(6.0), Some(1));
        assert_eq!(lowest_bit(-0.375), Some(-3));
        assert_eq!(lowest_bit(1e6 + 3.0), Some(0));
        assert_eq!(lowest_bit(f64::from_bits(1)), Some(-1074));
        assert_eq!(lowest_bit(0.0), None);
        assert_eq!(power_of_two(-1074), f64::from_bits(1));
        assert_eq!(power_of_two(-3), 0.125);
        assert_eq!(power_of_two(10), 1024.0);
        // A triangle's centroid (1/3, 1/3) moves to the integers it lies on.
        assert_eq!(on_grid(1.0 / 3.0, [0.0, 1.0, 0.0].into_iter()), 0.0);
        assert_eq!(on_grid(5.0 + 1.0 / 3.0, [5.0, 6.0, 5.0].into_iter()), 5.0);
        // Eighths: the centroid of 0.125, 0.5 and 0.75 (0.4583...) moves to 0.5.
        assert_eq!(
            on_grid(0.458_333_333_333_333_3, [0.125, 0.5, 0.75].into_iter()),
            0.5
        );
        // All zero, or a grid finer than the centre's spacing: unchanged.
        assert_eq!(on_grid(0.0, [0.0, 0.0].into_iter()), 0.0);
        let fine = 1e-300;
        assert_eq!(on_grid(1e10 + 0.5, [1e10, fine].into_iter()), 1e10 + 0.5);
    }
}
