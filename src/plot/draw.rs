//! Drawing the two chart shapes on any plotters backend (PNG or SVG).

use super::{BarChart, FONT, LineChart, Mark};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

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

pub(super) fn lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &LineChart,
) -> DrawResult<DB> {
    let ((x0, x1), (y0, y1)) = line_ranges(c);
    let mut chart = ChartBuilder::on(root)
        .caption(&c.title, (FONT, 26).into_font().style(FontStyle::Bold))
        .margin(16)
        // Room for the last x tick's label, centred on the right edge.
        .margin_right(40)
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
        let style = match s.mark {
            Mark::Thin => ShapeStyle::from(&col.mix(0.45)).stroke_width(1),
            Mark::Thick => ShapeStyle::from(&col).stroke_width(4),
            _ => style,
        };
        let anno = match s.mark {
            Mark::Line | Mark::Thin | Mark::Thick => {
                chart.draw_series(LineSeries::new(pts, style))?
            }
            Mark::Band => {
                chart.draw_series(std::iter::once(Polygon::new(pts, col.mix(0.18).filled())))?
            }
            Mark::LinePoints => chart.draw_series(LineSeries::new(pts, style).point_size(3))?,
            Mark::Points => {
                chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?
            }
        };
        if !s.name.is_empty() {
            anno.label(s.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
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

/// The axes of a line chart: x over every finite point (widened when it is one value), y
/// the chart's fixed range or every finite value and the reference line, padded.
fn line_ranges(c: &LineChart) -> ((f64, f64), (f64, f64)) {
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
    ((x0, x1), (y0, y1))
}

pub(super) fn bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &BarChart,
) -> DrawResult<DB> {
    let n = c.categories.len();
    let (x0, x1) = bar_range(c);
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
        draw_intervals(&mut chart, iv, n, band)?;
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

/// The value axis of a bar chart: every finite value and interval end (and 0 under bars),
/// padded.
fn bar_range(c: &BarChart) -> (f64, f64) {
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
    padded(lo, hi)
}

/// The 95% intervals of a bar chart's first group: a line with end ticks across each row.
fn draw_intervals<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    iv: &[(f64, f64)],
    n: usize,
    band: f64,
) -> DrawResult<DB> {
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
    Ok(())
}
