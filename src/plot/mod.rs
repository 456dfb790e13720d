//! Charts drawn with plotters from plain data series, each saved as PNG and SVG.
//!
//! Two chart shapes cover every picture the project draws: [`LineChart`] (learning curves:
//! error, weights, scores or losses against games or iterations) and [`BarChart`]
//! (horizontal bars per category, optionally grouped, optionally with interval bars: feature
//! importance, Elo with confidence intervals, error rates per agent and benchmark file).
//! The charts know nothing about where the numbers come from; [`files`] reads the project's
//! CSV and JSON outputs into them.
//!
//! Text is drawn with DejaVu Sans compiled into the binary, so pictures look the same on a
//! machine without any system fonts.

pub mod files;

pub use files::short_label;

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;
use thiserror::Error;

/// The font family name charts ask for; [`register_fonts`] binds it to DejaVu Sans.
const FONT: &str = "sans-serif";

/// Chart size in pixels (and SVG units).
pub const SIZE: (u32, u32) = (1000, 620);

/// What is wrong with an input file of `c4 plot`.
#[derive(Debug, Error)]
pub enum InputProblem {
    /// The path does not exist.
    #[error("no such file or directory")]
    Missing,
    /// The file could not be read.
    #[error("{0}")]
    Unreadable(std::io::Error),
    /// Not CSV.
    #[error("{0}")]
    Csv(csv::Error),
    /// Not JSON.
    #[error("{0}")]
    Json(serde_json::Error),
    /// A column the chart needs is not there.
    #[error("no column '{name}' (columns: {columns})")]
    NoColumn {
        /// The column needed.
        name: String,
        /// The columns there are.
        columns: String,
    },
    /// A cell that should be a number.
    #[error("line {line}: column '{column}': '{cell}' is not a number")]
    NotANumber {
        /// 1-based line.
        line: usize,
        /// The column.
        column: String,
        /// The cell's text.
        cell: String,
    },
    /// A curve file of neither kind.
    #[error("a curve file needs a 'game' (LMS) or 'iteration' (GBT) column")]
    CurveKind,
    /// A JSON entry without the fields a chart needs.
    #[error("{what} {index}: needs {needs}")]
    Entry {
        /// What the entry is.
        what: &'static str,
        /// Its index.
        index: usize,
        /// The fields it needs.
        needs: &'static str,
    },
}

/// Why a chart could not be drawn or saved.
#[derive(Debug, Error)]
pub enum PlotError {
    /// plotters failed while drawing into `path`.
    #[error("drawing {path}: {source}", path = path.display())]
    Draw {
        /// The file being drawn.
        path: PathBuf,
        /// The backend's error (plotters' error type depends on the backend).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Nothing to draw.
    #[error("chart '{0}' has no data")]
    Empty(String),
    /// An input file could not be read or understood.
    #[error("{path}: {problem}", path = path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the line where known.
        problem: InputProblem,
    },
    /// Writing the picture failed.
    #[error("writing {path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Registers the embedded DejaVu Sans (regular and bold) as the charts' font, once.
pub fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a known-good TrueType file compiled in; failure would be a build
        // problem, and text would then be missing rather than the program failing.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A line through the points.
    Line,
    /// A line with a dot at every point.
    LinePoints,
    /// Dots only.
    Points,
}

/// One named series of (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// The points, in x order for lines.
    pub points: Vec<(f64, f64)>,
    /// How to draw it.
    pub mark: Mark,
}

/// Lines against a numeric x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Title at the top.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The series, drawn in order with the palette's colours.
    pub series: Vec<Series>,
    /// Fixed y range; `None` fits the data with a margin.
    pub y_range: Option<(f64, f64)>,
    /// A horizontal reference line (e.g. 50% score), with its label.
    pub reference: Option<(f64, String)>,
}

/// Horizontal bars, one row per category, one bar per group in each row.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Title at the top.
    pub title: String,
    /// Label of the value axis.
    pub value_label: String,
    /// Row names, top to bottom.
    pub categories: Vec<String>,
    /// (group name, one value per category); a single group draws no legend.
    pub groups: Vec<(String, Vec<f64>)>,
    /// Optional interval per category for the first group (low, high): drawn as a
    /// whisker over the bar, e.g. a confidence interval.
    pub intervals: Option<Vec<(f64, f64)>>,
    /// Draw dots instead of bars (for values whose zero means nothing, like Elo).
    pub dots: bool,
}

/// A chart of either shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// Lines.
    Line(LineChart),
    /// Bars.
    Bar(BarChart),
}

impl Chart {
    /// The chart's title.
    pub fn title(&self) -> &str {
        match self {
            Chart::Line(c) => &c.title,
            Chart::Bar(c) => &c.title,
        }
    }

    /// Draws the chart to `STEM.png` and `STEM.svg` (each written atomically); returns both
    /// paths.
    pub fn save(&self, stem: &Path) -> Result<[PathBuf; 2], PlotError> {
        register_fonts();
        let png = stem.with_extension("png");
        let svg = stem.with_extension("svg");
        let draw_err = |path: &Path| {
            let path = path.to_path_buf();
            move |e: Box<dyn std::error::Error + Send + Sync>| PlotError::Draw { path, source: e }
        };
        // PNG: plotters' encoder writes files only, and picks the format by extension, so
        // draw into a temporary `.tmp.png` beside the target and rename it into place.
        let tmp = png.with_extension("tmp.png");
        {
            let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
            self.draw(&root).map_err(draw_err(&png))?;
            root.present().map_err(|e| draw_err(&png)(Box::new(e)))?;
        }
        std::fs::rename(&tmp, &png).map_err(|source| PlotError::Io {
            path: png.clone(),
            source,
        })?;
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
            self.draw(&root).map_err(draw_err(&svg))?;
            root.present().map_err(|e| draw_err(&svg)(Box::new(e)))?;
        }
        // Written the way the PNG is (temporary file, then rename) so that plot depends on
        // no other module of the crate.
        let tmp = svg.with_extension("tmp.svg");
        std::fs::write(&tmp, text.as_bytes())
            .and_then(|()| std::fs::rename(&tmp, &svg))
            .map_err(|source| {
                let _ = std::fs::remove_file(&tmp);
                PlotError::Io {
                    path: svg.clone(),
                    source,
                }
            })?;
        Ok([png, svg])
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        match self {
            Chart::Line(c) => draw_lines(root, c),
            Chart::Bar(c) => draw_bars(root, c),
        }?;
        Ok(())
    }
}

/// Tick label for a value on an axis spanning `span`: no decimals on wide axes.
fn tick(v: f64, span: f64) -> String {
    if span >= 20.0 {
        format!("{v:.0}")
    } else if span >= 2.0 {
        format!("{v:.1}")
    } else if span >= 0.2 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The palette: distinguishable colours, in series order.
fn colour(i: usize) -> RGBColor {
    const P: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    P[i % P.len()]
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// `(lo, hi)` widened by 5% (and to a unit interval around a single value).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        return (lo - 0.5, hi + 0.5);
    }
    let m = 0.05 * (hi - lo);
    (lo - m, hi + m)
}

fn draw_lines<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &LineChart) -> DrawResult<DB> {
    let all = || c.series.iter().flat_map(|s| s.points.iter());
    let fold = |f: fn(&(f64, f64)) -> f64| {
        all()
            .map(f)
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            })
    };
    let (x0, x1) = fold(|p| p.0);
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { padded(x0, x1) };
    let (y0, y1) = match c.y_range {
        Some(r) => r,
        None => {
            let (mut a, mut b) = fold(|p| p.1);
            if let Some((r, _)) = &c.reference {
                a = a.min(*r);
                b = b.max(*r);
            }
            padded(a, b)
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(&c.title, (FONT, 26).into_font().style(FontStyle::Bold))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let (xs, ys) = (x1 - x0, y1 - y0);
    chart
        .configure_mesh()
        .x_label_formatter(&|v| tick(*v, xs))
        .y_label_formatter(&|v| tick(*v, ys))
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 18))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    if let Some((r, label)) = &c.reference {
        let style = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1);
        chart
            .draw_series(LineSeries::new(vec![(x0, *r), (x1, *r)], style))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    for (i, s) in c.series.iter().enumerate() {
        let col = colour(i);
        let style = ShapeStyle::from(&col).stroke_width(2);
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|p| p.1.is_finite())
            .collect();
        let anno = match s.mark {
            Mark::Line => chart.draw_series(LineSeries::new(pts, style))?,
            Mark::LinePoints => chart.draw_series(LineSeries::new(pts, style).point_size(3))?,
            Mark::Points => {
                chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?
            }
        };
        anno.label(s.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    if c.series.len() > 1 || c.reference.is_some() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FONT, 15))
            .draw()?;
    }
    Ok(())
}

fn draw_bars<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &BarChart) -> DrawResult<DB> {
    let n = c.categories.len();
    let values = || {
        c.groups
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|v| v.is_finite())
    };
    let mut lo = values().fold(f64::INFINITY, f64::min);
    let mut hi = values().fold(f64::NEG_INFINITY, f64::max);
    if let Some(iv) = &c.intervals {
        for &(a, b) in iv {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    if !c.dots {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    let (x0, x1) = padded(lo, hi);
    // Rows: category i occupies y in [i, i+1), top to bottom, so y runs from n down to 0.
    let longest = c
        .categories
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(4);
    let mut chart = ChartBuilder::on(root)
        .caption(&c.title, (FONT, 26).into_font().style(FontStyle::Bold))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size((longest as u32 * 8 + 20).clamp(60, 330))
        .build_cartesian_2d(x0..x1, 0.0..n as f64)?;
    let cats = c.categories.clone();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n.max(1) * 2 + 1)
        .y_label_formatter(&|y| {
            // Labels sit at row centres (i + 0.5 from the top).
            let r = n as f64 - y - 0.5;
            if (r - r.round()).abs() < 1e-6 && r >= 0.0 && (r.round() as usize) < n {
                cats[r.round() as usize].clone()
            } else {
                String::new()
            }
        })
        .x_label_formatter(&|v| tick(*v, x1 - x0))
        .x_desc(c.value_label.as_str())
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 18))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let g = c.groups.len().max(1) as f64;
    let band = 0.8 / g;
    let base = if c.dots { x0 } else { 0.0 };
    for (gi, (name, vals)) in c.groups.iter().enumerate() {
        let col = colour(gi);
        let top = |i: usize| n as f64 - i as f64 - 0.1 - band * gi as f64;
        let anno = if c.dots {
            chart.draw_series(
                vals.iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite())
                    .map(|(i, &v)| Circle::new((v, top(i) - band / 2.0), 6, col.filled())),
            )?
        } else {
            chart.draw_series(vals.iter().enumerate().filter(|(_, v)| v.is_finite()).map(
                |(i, &v)| {
                    Rectangle::new([(base, top(i)), (v, top(i) - band)], col.mix(0.85).filled())
                },
            ))?
        };
        if c.groups.len() > 1 {
            anno.label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], col.filled()));
        }
    }
    if let Some(iv) = &c.intervals {
        let style = ShapeStyle::from(&BLACK).stroke_width(2);
        for (i, &(a, b)) in iv.iter().enumerate().take(n) {
            let y = n as f64 - i as f64 - 0.1 - band / 2.0;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(a, y), (b, y)],
                style,
            )))?;
            for x in [a, b] {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, y - band / 5.0), (x, y + band / 5.0)],
                    style,
                )))?;
            }
        }
    }
    if c.groups.len() > 1 {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FONT, 15))
            .draw()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_are_written() {
        let dir = std::env::temp_dir().join(format!("c4-plot-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = Chart::Line(LineChart {
            title: "Test".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                name: "s".into(),
                points: vec![(0.0, 1.0), (1.0, 2.0), (2.0, 1.5)],
                mark: Mark::LinePoints,
            }],
            y_range: None,
            reference: Some((1.0, "one".into())),
        });
        let bars = Chart::Bar(BarChart {
            title: "Bars".into(),
            value_label: "v".into(),
            categories: vec!["a".into(), "b".into()],
            groups: vec![
                ("g1".into(), vec![1.0, 2.0]),
                ("g2".into(), vec![0.5, f64::NAN]),
            ],
            intervals: Some(vec![(0.5, 1.5), (1.0, 3.0)]),
            dots: false,
        });
        for (chart, stem) in [(line, "line"), (bars, "bars")] {
            let [png, svg] = chart.save(&dir.join(stem)).unwrap();
            let bytes = std::fs::read(&png).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            let text = std::fs::read_to_string(&svg).unwrap();
            assert!(text.starts_with("<svg"), "{}", &text[..40]);
            assert!(text.contains(chart.title()), "the title is drawn as text");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
