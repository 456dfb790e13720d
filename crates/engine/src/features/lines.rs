//! The `lines` feature set: one value per line of four, saying who can still complete it and
//! how far they are.
//!
//! Connect Four is decided by lines of four, and a tree reading single cells has to find
//! every line's cells by a chain of splits. Giving it each line's state directly made the
//! largest single gain on the UCI holdout (docs/results.md, "Gradient-boosted trees"): the
//! tree asks "is this line still open for the mover, and how full?" in one split.

use crate::game::Direction;
use crate::game::{Geometry, Position};

/// The value of a line holding stones of both players: it can never be completed. Placed
/// below every live value (-3..=3) so that one threshold separates dead lines from live ones.
pub const DEAD_LINE: f64 = -9.0;

/// Number of `lines` features on `geom`: one per line of four.
pub(crate) fn lines_len(geom: Geometry) -> usize {
    geom.lines().len()
}

/// Feature names: `line_<direction>_<first cell>`, the first cell being the leftmost (the
/// lowest of a vertical line): `line_h_a1` is a1-d1, `line_down_a4` is a4-d1.
pub(crate) fn line_names(geom: Geometry) -> Vec<String> {
    geom.lines()
        .iter()
        .map(|l| {
            let dir = match l.direction {
                Direction::Horizontal => "h",
                Direction::Vertical => "v",
                Direction::DiagonalUp => "up",
                Direction::DiagonalDown => "down",
            };
            let (c, r) = l.start;
            format!(
                "line_{dir}_{}",
                crate::game::uci::cell_name(geom, c * geom.height() + r)
            )
        })
        .collect()
}

/// Writes one value per line mask in `lines`: the mover's stones in it (1-3) if only the
/// mover has stones there, minus the opponent's if only the opponent has, 0 for an empty
/// line and [`DEAD_LINE`] for a line holding both colours.
pub(crate) fn line_values(lines: &[u64], pos: &Position, out: &mut [f64]) {
    let (me, them) = (pos.current_stones(), pos.opponent_stones());
    for (o, &line) in out.iter_mut().zip(lines) {
        let (m, t) = ((line & me).count_ones(), (line & them).count_ones());
        *o = match (m, t) {
            (0, t) => -f64::from(t),
            (m, 0) => f64::from(m),
            _ => DEAD_LINE,
        };
    }
}
