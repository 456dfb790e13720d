//! Exact reconstruction of the UCI position set from the rules alone.
//!
//! What the data shows (checked by `tests/uci.rs` against the published file):
//! - "not forced" excludes every position where the side to move (`x`) has an immediate win
//!   or where the opponent (`o`) threatens to win on a cell that is playable now. Of the
//!   182,383 8-ply positions without a four, 134,934 are not forced.
//! - Mirror images are stored once: the file holds 67,377 mirror pairs by one member each and
//!   the 180 symmetric positions, 67,557 rows in all. The member kept is the one that a
//!   depth-first enumeration trying columns centre first (d, c, e, b, f, a, g) reaches first;
//!   no ordering of the cells or bitboards explains the choice.

use connect4_engine::game::{Geometry, Position};
use std::collections::HashSet;

/// Column order of the enumeration that picks which mirror image the file keeps: centre
/// first, then alternately left and right (d, c, e, b, f, a, g on 7 columns).
pub(crate) fn centre_first_order(width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..width).collect();
    // Left of the centre comes first on ties: d, c, e, b, f, ...
    let centre2 = width as i64 - 1; // twice the centre column
    order.sort_by_key(|&c| {
        let d = 2 * c as i64 - centre2;
        (d.abs(), d > 0)
    });
    order
}

/// Whether the side to move is forced: it can win at once (it must take the win) or the
/// opponent threatens a four on a playable cell (it must block).
pub(crate) fn is_forced(pos: &Position) -> bool {
    pos.can_win_next() || pos.opponent_winning_cells() & pos.possible() != 0
}

#[cfg(test)] // only the tests ask
/// Every position with `ply` stones that legal play reaches without either player having
/// four in a row, transpositions counted once, in depth-first order (centre first).
pub(crate) fn positions_at_ply(geom: Geometry, ply: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    visit(
        &Position::new(geom),
        ply,
        &centre_first_order(geom.width()),
        &mut |p| {
            if seen.insert(p.key()) {
                out.push(*p);
            }
        },
    );
    out
}

/// The UCI position set for `ply` stones on `geom`: positions no one has won, where the next
/// move is not forced, one of each mirror pair (the first reached, centre first). On 7x6 with
/// ply 8 this is exactly the 67,557 positions of `connect-4.data`.
pub fn enumerate_uci(geom: Geometry, ply: usize) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    visit(
        &Position::new(geom),
        ply,
        &centre_first_order(geom.width()),
        &mut |p| {
            let first_of_pair = !seen.contains(&p.mirror().key());
            if seen.insert(p.key()) && first_of_pair && !is_forced(p) {
                out.push(*p);
            }
        },
    );
    out
}

/// Depth-first walk over move sequences of exactly `depth` more moves that never complete a
/// four, calling `leaf` on every position reached (once per sequence).
fn visit(pos: &Position, depth: usize, order: &[usize], leaf: &mut dyn FnMut(&Position)) {
    if depth == 0 {
        leaf(pos);
        return;
    }
    for &col in order {
        if pos.can_play(col) && !pos.is_winning_move(col) {
            visit(&pos.after(col).expect("playable"), depth - 1, order, leaf);
        }
    }
}

/// How an enumerated position set compares with the UCI file's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetComparison {
    /// Rows in the file.
    pub rows: usize,
    /// Positions of the file that the enumeration lacks.
    pub missing: usize,
    /// Enumerated positions that the file lacks.
    pub extra: usize,
}

/// Compares `positions` with the rows of the UCI file at `path` (exact keys).
pub fn compare_with_uci(
    positions: &[Position],
    path: &std::path::Path,
) -> Result<SetComparison, crate::datasets::uci::UciError> {
    let rows = crate::datasets::uci::read_uci(path)?;
    let file: HashSet<u64> = rows.iter().map(|r| r.position.key()).collect();
    let ours: HashSet<u64> = positions.iter().map(|p| p.key()).collect();
    Ok(SetComparison {
        rows: rows.len(),
        missing: file.difference(&ours).count(),
        extra: ours.difference(&file).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_first_on_several_widths() {
        assert_eq!(centre_first_order(7), vec![3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(centre_first_order(4), vec![1, 2, 0, 3]);
        assert_eq!(centre_first_order(1), vec![0]);
    }

    #[test]
    fn small_counts_match_known_sequence() {
        // Positions after n plies on 7x6 (OEIS A212693): 1, 7, 49, 238, 1120.
        let g = Geometry::default();
        let counts: Vec<usize> = (0..5).map(|n| positions_at_ply(g, n).len()).collect();
        assert_eq!(counts, vec![1, 7, 49, 238, 1120]);
    }

    #[test]
    fn forced_positions() {
        let g = Geometry::default();
        // x has three in column 1 and can win.
        assert!(is_forced(&Position::from_moves(g, "121212").unwrap()));
        // o has three in column 2 after x played elsewhere: x must block.
        assert!(is_forced(&Position::from_moves(g, "1212127").unwrap()));
        assert!(!is_forced(&Position::from_moves(g, "4444").unwrap()));
    }
}
