//! A small SVG writer for 2D scenes: shapes outlined (colliding or hit ones
//! filled), contact normals as arrows, rays as lines, closest points joined by
//! dashed segments, the grid faintly behind. World units, y up. A picture is
//! one canvas ([`Canvas::finish`]) or several side by side ([`sheet`]).

use std::fmt::Write as _;

use kasanari::scene::ShapeSpec;

pub struct Canvas {
    min: [f64; 2],
    max: [f64; 2],
    width: f64,
    body: String,
}

const OUTLINE: &str = "#33415c";
const HIT_FILL: &str = "#f4a261";
const ARROW: &str = "#c1121f";

impl Canvas {
    /// A canvas showing the world rectangle `[min, max]`, `width` pixels wide.
    pub fn new(min: [f64; 2], max: [f64; 2], width: f64) -> Self {
        let pad = 0.02 * (max[0] - min[0]).max(max[1] - min[1]).max(1e-9);
        Self {
            min: [min[0] - pad, min[1] - pad],
            max: [max[0] + pad, max[1] + pad],
            width,
            body: String::new(),
        }
    }

    fn scale(&self) -> f64 {
        self.width / (self.max[0] - self.min[0])
    }

    /// One pixel in world units.
    fn px(&self) -> f64 {
        1.0 / self.scale()
    }

    /// Faint lines every `cell` units (skipped when they would be denser than
    /// every 3 pixels).
    pub fn grid(&mut self, cell: f64) {
        if cell.is_nan() || cell <= 0.0 || cell * self.scale() < 3.0 {
            return;
        }
        let (x0, x1) = (
            (self.min[0] / cell).floor() as i64,
            (self.max[0] / cell).ceil() as i64,
        );
        let (y0, y1) = (
            (self.min[1] / cell).floor() as i64,
            (self.max[1] / cell).ceil() as i64,
        );
        let px = self.px();
        let _ = writeln!(self.body, "<g stroke=\"#e5e7eb\" stroke-width=\"{px}\">");
        for i in x0..=x1 {
            let x = i as f64 * cell;
            let _ = writeln!(
                self.body,
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/>",
                self.min[1], self.max[1]
            );
        }
        for j in y0..=y1 {
            let y = j as f64 * cell;
            let _ = writeln!(
                self.body,
                "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>",
                self.min[0], self.max[0]
            );
        }
        self.body.push_str("</g>\n");
    }

    /// A shape given in a frame placed at `offset`, turned by `angle`.
    pub fn shape(&mut self, spec: &ShapeSpec, offset: [f64; 2], angle: f64, hit: bool) {
        let fill = if hit {
            format!("fill=\"{HIT_FILL}\" fill-opacity=\"0.75\"")
        } else {
            "fill=\"none\"".into()
        };
        let px = self.px();
        let style = format!("{fill} stroke=\"{OUTLINE}\" stroke-width=\"{px}\"");
        // An Aabb never turns.
        let angle = if matches!(spec, ShapeSpec::Aabb { .. }) {
            0.0
        } else {
            angle
        };
        let _ = write!(
            self.body,
            "<g transform=\"translate({} {}) rotate({})\">",
            offset[0],
            offset[1],
            angle.to_degrees()
        );
        if let ShapeSpec::Compound {
            center,
            angle: turn,
            parts,
        } = spec
        {
            // The parts in the compound's frame; an Aabb part stays
            // axis-aligned (turned back about its own centre).
            let _ = write!(
                self.body,
                "<g transform=\"translate({} {}) rotate({})\">",
                center[0],
                center[1],
                turn.to_degrees()
            );
            for part in parts {
                if let ShapeSpec::Aabb { min, max } = &part.0 {
                    let c = [(min[0] + max[0]) * 0.5, (min[1] + max[1]) * 0.5];
                    let _ = write!(
                        self.body,
                        "<g transform=\"rotate({} {} {})\">",
                        -(turn + angle).to_degrees(),
                        c[0],
                        c[1]
                    );
                    self.shape(&part.0, [0.0, 0.0], 0.0, hit);
                    self.body.push_str("</g>");
                } else {
                    self.shape(&part.0, [0.0, 0.0], 0.0, hit);
                }
            }
            self.body.push_str("</g></g>\n");
            return;
        }
        let b = &mut self.body;
        match spec {
            ShapeSpec::Point { p } => {
                let r = 2.0 * px;
                let _ = write!(
                    b,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{}\"/>",
                    p[0],
                    p[1],
                    if hit { ARROW } else { OUTLINE }
                );
            }
            ShapeSpec::Segment { a, b: e } => {
                let colour = if hit { HIT_FILL } else { OUTLINE };
                let w = if hit { 2.0 * px } else { px };
                let _ = write!(
                    b,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{w}\"/>",
                    a[0], a[1], e[0], e[1]
                );
            }
            ShapeSpec::Circle { center, radius } => {
                let _ = write!(
                    b,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\" {style}/>",
                    center[0], center[1]
                );
            }
            ShapeSpec::Aabb { min, max } => {
                let _ = write!(
                    b,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {style}/>",
                    min[0],
                    min[1],
                    max[0] - min[0],
                    max[1] - min[1]
                );
            }
            ShapeSpec::Obb {
                center,
                half_extents: h,
                angle,
            } => {
                let _ = write!(
                    b,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" transform=\"rotate({} {} {})\" {style}/>",
                    center[0] - h[0],
                    center[1] - h[1],
                    2.0 * h[0],
                    2.0 * h[1],
                    angle.to_degrees(),
                    center[0],
                    center[1]
                );
            }
            ShapeSpec::Triangle { vertices } => polygon(b, vertices, &style),
            ShapeSpec::Polygon { vertices } => polygon(b, vertices, &style),
            ShapeSpec::Capsule { a, b: e, radius } => {
                polygon(b, &capsule_outline(*a, *e, *radius), &style)
            }
            ShapeSpec::Ellipse {
                center,
                radii,
                angle,
            } => {
                let _ = write!(
                    b,
                    "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" transform=\"rotate({} {} {})\" {style}/>",
                    center[0],
                    center[1],
                    radii[0],
                    radii[1],
                    angle.to_degrees(),
                    center[0],
                    center[1]
                );
            }
            ShapeSpec::RoundedPolygon { vertices, radius } => {
                rounded_polygon(b, vertices, *radius, &style);
            }
            ShapeSpec::RoundedBox {
                center,
                half_extents: h,
                radius,
                angle,
            } => {
                let (sn, cs) = angle.sin_cos();
                let (x, y) = (h[0] - radius, h[1] - radius);
                let core = [[-x, -y], [x, -y], [x, y], [-x, y]].map(|p| {
                    [
                        center[0] + cs * p[0] - sn * p[1],
                        center[1] + sn * p[0] + cs * p[1],
                    ]
                });
                rounded_polygon(b, &core, *radius, &style);
            }
            ShapeSpec::Polyline {
                points,
                closed,
                one_sided,
            } => {
                let colour = if hit { HIT_FILL } else { OUTLINE };
                let w = if hit { 2.0 * px } else { 1.5 * px };
                let pts: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", p[0], p[1]))
                    .collect();
                let tag = if *closed { "polygon" } else { "polyline" };
                let _ = write!(
                    b,
                    "<{tag} points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{w}\" stroke-linejoin=\"round\"/>",
                    pts.join(" ")
                );
                if *one_sided {
                    // The front (right) side: a short tick out of each
                    // segment's middle.
                    let n = points.len();
                    let edges = if *closed { n } else { n.saturating_sub(1) };
                    let _ = write!(b, "<g stroke=\"{colour}\" stroke-width=\"{px}\">");
                    for i in 0..edges {
                        let (a, e) = (points[i], points[(i + 1) % n]);
                        let (dx, dy) = (e[0] - a[0], e[1] - a[1]);
                        let len = dx.hypot(dy);
                        if len.is_nan() || len <= 0.0 {
                            continue;
                        }
                        let tick = (6.0 * px).min(0.25 * len);
                        let m = [(a[0] + e[0]) * 0.5, (a[1] + e[1]) * 0.5];
                        let t = [m[0] + dy / len * tick, m[1] - dx / len * tick];
                        let _ = write!(
                            b,
                            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                            m[0], m[1], t[0], t[1]
                        );
                    }
                    b.push_str("</g>");
                }
            }
            ShapeSpec::ConcavePolygon { vertices } => {
                // The convex parts' outlines, faint (their diagonals show),
                // then the outline.
                let v: Vec<kasanari::nalgebra::Point2<f64>> = vertices
                    .iter()
                    .map(|p| kasanari::nalgebra::Point2::new(p[0], p[1]))
                    .collect();
                if let Ok(c) = kasanari::shape::ConcavePolygon::new(&v) {
                    let faint = format!(
                        "fill=\"none\" stroke=\"{OUTLINE}\" stroke-opacity=\"0.3\" stroke-width=\"{px}\" stroke-dasharray=\"{} {}\"",
                        3.0 * px,
                        2.0 * px
                    );
                    for part in c.parts() {
                        let pts: Vec<[f64; 2]> =
                            part.vertices().iter().map(|p| [p.x, p.y]).collect();
                        polygon(b, &pts, &faint);
                    }
                }
                polygon(b, vertices, &style);
            }
            ShapeSpec::TileMap {
                origin,
                tile_size,
                rows,
            } => {
                // Each row's runs of solid tiles, merged into one rectangle.
                let fill = if hit { HIT_FILL } else { "#9ca3af" };
                let _ = write!(
                    b,
                    "<g fill=\"{fill}\" fill-opacity=\"0.75\" stroke=\"{OUTLINE}\" stroke-width=\"{px}\">"
                );
                let height = rows.len();
                for (k, row) in rows.iter().enumerate() {
                    let y = origin[1] + (height - 1 - k) as f64 * tile_size[1];
                    let mut col = 0;
                    while col < row.0.len() {
                        if !row.0[col] {
                            col += 1;
                            continue;
                        }
                        let start = col;
                        while col < row.0.len() && row.0[col] {
                            col += 1;
                        }
                        let _ = write!(
                            b,
                            "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"{}\"/>",
                            origin[0] + start as f64 * tile_size[0],
                            (col - start) as f64 * tile_size[0],
                            tile_size[1]
                        );
                    }
                }
                b.push_str("</g>");
            }
            // Drawn above.
            ShapeSpec::Compound { .. } => {}
        }
        self.body.push_str("</g>\n");
    }

    /// An arrow from `at` along the unit `dir`, `len` world units long, with a
    /// head a few pixels wide.
    pub fn arrow(&mut self, at: [f64; 2], dir: [f64; 2], len: f64) {
        self.arrow_in(at, dir, len, ARROW);
    }

    /// [`Canvas::arrow`] in another colour.
    pub fn arrow_in(&mut self, at: [f64; 2], dir: [f64; 2], len: f64, colour: &str) {
        let px = self.px();
        let end = [at[0] + dir[0] * len, at[1] + dir[1] * len];
        let head = (6.0 * px).min(len * 0.5);
        let (bx, by) = (end[0] - dir[0] * head, end[1] - dir[1] * head);
        let (nx, ny) = (-dir[1] * head * 0.5, dir[0] * head * 0.5);
        let _ = writeln!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{bx}\" y2=\"{by}\" stroke=\"{colour}\" stroke-width=\"{}\"/><polygon points=\"{},{} {},{} {},{}\" fill=\"{colour}\"/>",
            at[0],
            at[1],
            1.2 * px,
            end[0],
            end[1],
            bx + nx,
            by + ny,
            bx - nx,
            by - ny
        );
    }

    /// A segment from `a` to `b`, solid or dashed.
    pub fn line(&mut self, a: [f64; 2], b: [f64; 2], colour: &str, dashed: bool) {
        let px = self.px();
        let dash = if dashed {
            format!(" stroke-dasharray=\"{} {}\"", 5.0 * px, 3.0 * px)
        } else {
            String::new()
        };
        let _ = writeln!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\"{dash}/>",
            a[0],
            a[1],
            b[0],
            b[1],
            1.2 * px
        );
    }

    /// A dot at `at`, `radius` pixels, filled or as a ring.
    pub fn dot(&mut self, at: [f64; 2], radius: f64, colour: &str, filled: bool) {
        let px = self.px();
        let paint = if filled {
            format!("fill=\"{colour}\"")
        } else {
            format!(
                "fill=\"white\" stroke=\"{colour}\" stroke-width=\"{}\"",
                1.2 * px
            )
        };
        let _ = writeln!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {paint}/>",
            at[0],
            at[1],
            radius * px
        );
    }

    /// A short bar across the unit `dir` at `at` (where a ray stops).
    pub fn bar(&mut self, at: [f64; 2], dir: [f64; 2], colour: &str) {
        let h = 5.0 * self.px();
        let (nx, ny) = (-dir[1] * h, dir[0] * h);
        self.line(
            [at[0] - nx, at[1] - ny],
            [at[0] + nx, at[1] + ny],
            colour,
            false,
        );
    }

    /// Text whose baseline starts at `at`, 12 pixels high, upright.
    pub fn label(&mut self, at: [f64; 2], text: &str) {
        let px = self.px();
        let _ = writeln!(
            self.body,
            "<text transform=\"translate({} {}) scale({px} {})\" font-size=\"12\" fill=\"{OUTLINE}\">{}</text>",
            at[0],
            at[1],
            -px,
            escape(text)
        );
    }

    /// The picture's height in pixels, with its title line.
    fn height(&self) -> f64 {
        (self.max[1] - self.min[1]) * self.scale() + 30.0
    }

    /// The title line and the world group, in the picture's own pixels.
    fn content(&self, title: &str) -> String {
        let s = self.scale();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<text x=\"8\" y=\"20\" font-size=\"14\">{}</text>",
            escape(title)
        );
        // World to pixels: y up, origin at min.
        let _ = writeln!(
            out,
            "<g transform=\"translate(0 {:.3}) scale({s} {}) translate({} {})\">",
            self.height(),
            -s,
            -self.min[0],
            -self.min[1]
        );
        out.push_str(&self.body);
        out.push_str("</g>\n");
        out
    }

    /// The finished document, with a title line.
    pub fn finish(self, title: &str) -> String {
        let (width, height) = (self.width, self.height());
        let mut out = open(width, height);
        out.push_str(&self.content(title));
        out.push_str("</svg>\n");
        out
    }
}

/// The opening of a document `width` × `height` pixels on white.
fn open(width: f64, height: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    out
}

/// Several pictures, each with its caption, `columns` to a row under one
/// title; each keeps its own scale (a nested `<svg>` clips it to its place).
pub fn sheet(title: &str, panels: Vec<(Canvas, String)>, columns: usize) -> String {
    let columns = columns.max(1);
    let width = panels.iter().map(|(c, _)| c.width).fold(0.0, f64::max);
    let mut rows = String::new();
    let mut y = 30.0;
    for row in panels.chunks(columns) {
        let row_height = row.iter().map(|(c, _)| c.height()).fold(0.0, f64::max);
        for (k, (canvas, caption)) in row.iter().enumerate() {
            let _ = writeln!(
                rows,
                "<svg x=\"{:.0}\" y=\"{y:.0}\" width=\"{:.0}\" height=\"{:.0}\">",
                k as f64 * width,
                canvas.width,
                canvas.height()
            );
            rows.push_str(&canvas.content(caption));
            rows.push_str("</svg>\n");
        }
        y += row_height + 10.0;
    }
    let total_width = width * panels.len().clamp(1, columns) as f64;
    let mut out = open(total_width, y);
    let _ = writeln!(
        out,
        "<text x=\"8\" y=\"20\" font-size=\"16\">{}</text>",
        escape(title)
    );
    out.push_str(&rows);
    out.push_str("</svg>\n");
    out
}

/// The box `[min, max]` grown about its centre so that neither side is less
/// than three quarters of the other (a line of shapes still gets a picture of
/// some height, a column not too tall a one); a box of no size becomes one
/// unit wide.
pub fn balanced(min: [f64; 2], max: [f64; 2]) -> ([f64; 2], [f64; 2]) {
    let size = (max[0] - min[0]).max(max[1] - min[1]);
    let size = if size > 0.0 { size } else { 1.0 };
    let mut lo = min;
    let mut hi = max;
    for k in 0..2 {
        let side = hi[k] - lo[k];
        if side.is_nan() || side < 0.75 * size {
            let centre = 0.5 * lo[k] + 0.5 * hi[k];
            lo[k] = centre - 0.375 * size;
            hi[k] = centre + 0.375 * size;
        }
    }
    (lo, hi)
}

fn polygon(b: &mut String, vertices: &[[f64; 2]], style: &str) {
    let pts: Vec<String> = vertices
        .iter()
        .map(|p| format!("{},{}", p[0], p[1]))
        .collect();
    let _ = write!(b, "<polygon points=\"{}\" {style}/>", pts.join(" "));
}

/// A convex polygon grown by `r` as an SVG path: at each vertex the arc of
/// radius `r` from the previous edge's outward normal to the next edge's,
/// then the next edge offset by `r`. The arcs turn counter-clockwise in the
/// drawing's own coordinates (sweep flag 1) and each is less than half a
/// turn (large-arc flag 0); clockwise input is walked backwards.
fn rounded_polygon(b: &mut String, vertices: &[[f64; 2]], r: f64, style: &str) {
    let n = vertices.len();
    if n < 3 {
        return;
    }
    let twice_area: f64 = (0..n)
        .map(|i| {
            let (p, q) = (vertices[i], vertices[(i + 1) % n]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum();
    let v = |i: usize| {
        if twice_area >= 0.0 {
            vertices[i % n]
        } else {
            vertices[(n - i % n) % n]
        }
    };
    // The outward unit normal of the edge from v(i) to v(i + 1).
    let normal = |i: usize| {
        let (p, q) = (v(i), v(i + 1));
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let len = dx.hypot(dy).max(f64::MIN_POSITIVE);
        [dy / len, -dx / len]
    };
    let off = |p: [f64; 2], m: [f64; 2]| [p[0] + r * m[0], p[1] + r * m[1]];
    let start = off(v(0), normal(n - 1));
    let mut d = format!("M{},{}", start[0], start[1]);
    for i in 0..n {
        let m = normal(i);
        let arc_end = off(v(i), m);
        let edge_end = off(v(i + 1), m);
        let _ = write!(
            d,
            " A{r},{r} 0 0 1 {},{} L{},{}",
            arc_end[0], arc_end[1], edge_end[0], edge_end[1]
        );
    }
    let _ = write!(b, "<path d=\"{d} Z\" {style}/>");
}

/// The outline of a capsule as a polygon: two half circles of 12 steps joined.
fn capsule_outline(a: [f64; 2], b: [f64; 2], r: f64) -> Vec<[f64; 2]> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let base = d[1].atan2(d[0]);
    let mut out = Vec::with_capacity(26);
    for (c, start) in [
        (b, base - std::f64::consts::FRAC_PI_2),
        (a, base + std::f64::consts::FRAC_PI_2),
    ] {
        for k in 0..=12 {
            let t = start + std::f64::consts::PI * f64::from(k) / 12.0;
            out.push([c[0] + r * t.cos(), c[1] + r * t.sin()]);
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
