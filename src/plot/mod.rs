//! Charts drawn with plotters from plain data series, each saved as PNG and SVG.
//!
//! Not here: any other module of the crate: plot imports none, except [`evaluation`], which
//! reads the arena's evaluation report.
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

mod draw;
pub mod evaluation;
pub mod files;
pub mod level;

pub use files::short_label;

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;
use thiserror::Error;

/// The font family name charts ask for; [`register_fonts`] binds it to DejaVu Sans.
const FONT: &str = "sans-serif";

/// Chart size in pixels (and SVG units).
pub(crate) const SIZE: (u32, u32) = (1000, 620);

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
    /// A thin, faded line (one of many runs); no legend entry when the name is empty.
    Thin,
    /// A thick line (e.g. the mean of the runs).
    Thick,
    /// A shaded area: the points trace its outline (the lower edge forward, the upper edge
    /// back), e.g. a 95% band around a mean.
    Band,
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
            Chart::Line(c) => draw::lines(root, c),
            Chart::Bar(c) => draw::bars(root, c),
        }?;
        Ok(())
    }
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
