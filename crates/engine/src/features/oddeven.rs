//! Features from the odd/even threat theory of Connect Four (Allis, "A Knowledge-based
//! Approach of Connect-Four", 1988): who wins a blocked-up game is decided by zugzwang, and
//! which threats count depends on the row's parity. Rows are numbered 1..=h from the bottom.
//! On a board of even height, the second player gets the even squares by playing "follow-up"
//! (answering in the same column), so a first player's threat pays on an odd row and a second
//! player's on an even row; the lowest threat of a column is the one that can come to pass,
//! since nobody will play under their opponent's threat.
//!
//! Each player's values are given for the side to move first, then the opponent, so one model
//! serves both colours; the colour itself is a feature, since parity depends on it.

use crate::game::{Geometry, Player, Position};

/// Values per player.
const PER_PLAYER: usize = 6;

/// Number of features.
pub(crate) const ODD_EVEN_LEN: usize = 2 * PER_PLAYER + 3;

/// Feature names in column order.
pub(crate) fn odd_even_names() -> Vec<String> {
    let mut v = Vec::with_capacity(ODD_EVEN_LEN);
    for who in ["mover", "opponent"] {
        for n in [
            // Threat cells on the player's own parity (odd rows for the first player, even
            // for the second) and on the other parity.
            "threats_good",
            "threats_bad",
            // Threat cells that can be played now (the next empty cell of their column).
            "threats_playable",
            // Columns whose lowest threat (of either player) is this player's.
            "lowest_threats",
            // Columns whose lowest threat is this player's and on their own parity.
            "lowest_good_threats",
            // Row of the lowest such threat, h + 1 when there is none.
            "lowest_good_row",
        ] {
            v.push(format!("{n}_{who}"));
        }
    }
    // 1 when the side to move controls zugzwang (below), else 0.
    v.push("zugzwang_mover".into());
    v.push("stones".into());
    v.push("mover_is_first".into());
    v
}

/// Writes the odd/even features of `pos` into `out` (`ODD_EVEN_LEN` values).
///
/// Zugzwang control, the simplest rule of the theory: the first player controls it when some
/// column's lowest threat is a first player's odd threat (the second player cannot then fill
/// the board by follow-up without giving it up); otherwise the second player controls it.
pub(crate) fn odd_even(g: Geometry, pos: &Position, out: &mut [f64]) {
    debug_assert_eq!(out.len(), ODD_EVEN_LEN);
    let (h, w) = (g.height(), g.width());
    let mask = pos.mask();
    let mover_first = pos.side_to_move() == Player::First;
    let stones = [pos.current_stones(), pos.opponent_stones()];
    let threats = [
        g.winning_cells(stones[0], mask),
        g.winning_cells(stones[1], mask),
    ];
    // Odd rows (1, 3, ...) are bit rows 0, 2, ...
    let mut odd_rows = 0u64;
    for r in (0..h).step_by(2) {
        odd_rows |= g.bottom_mask() << r;
    }
    let all_rows = g.board_mask();
    // Good rows of player p (0 = mover, 1 = opponent).
    let good = |p: usize| {
        let first = (p == 0) == mover_first;
        if first {
            odd_rows
        } else {
            all_rows & !odd_rows
        }
    };
    let mut lowest = [0u32; 2];
    let mut lowest_good = [0u32; 2];
    let mut lowest_good_row = [h + 1; 2];
    for c in 0..w {
        let col = g.column_mask(c);
        let in_col = [threats[0] & col, threats[1] & col];
        let either = in_col[0] | in_col[1];
        if either == 0 {
            continue;
        }
        let bit = either & either.wrapping_neg();
        let row = (bit.trailing_zeros() as usize) % (h + 1);
        for p in 0..2 {
            if in_col[p] & bit != 0 {
                lowest[p] += 1;
                if good(p) & bit != 0 {
                    lowest_good[p] += 1;
                    lowest_good_row[p] = lowest_good_row[p].min(row + 1);
                }
            }
        }
    }
    for p in 0..2 {
        let o = &mut out[p * PER_PLAYER..(p + 1) * PER_PLAYER];
        o[0] = (threats[p] & good(p)).count_ones() as f64;
        o[1] = (threats[p] & !good(p)).count_ones() as f64;
        o[2] = (threats[p] & pos.possible()).count_ones() as f64;
        o[3] = lowest[p] as f64;
        o[4] = lowest_good[p] as f64;
        o[5] = lowest_good_row[p] as f64;
    }
    let first = if mover_first { 0 } else { 1 };
    let first_controls = lowest_good[first] > 0;
    let mover_controls = first_controls == mover_first;
    out[2 * PER_PLAYER] = f64::from(u8::from(mover_controls));
    out[2 * PER_PLAYER + 1] = pos.moves_played() as f64;
    out[2 * PER_PLAYER + 2] = f64::from(u8::from(mover_first));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feats(moves: &str) -> Vec<f64> {
        let g = Geometry::STANDARD;
        let mut out = vec![0.0; ODD_EVEN_LEN];
        odd_even(g, &Position::from_moves(g, moves).unwrap(), &mut out);
        out
    }

    #[test]
    fn names_match_the_values() {
        assert_eq!(odd_even_names().len(), ODD_EVEN_LEN);
    }

    #[test]
    fn a_first_player_odd_threat_gives_zugzwang_to_the_first_player() {
        // Drawn (x first, o second), rows from the bottom:
        //   row 3  .  .  .  .  .  .  .
        //   row 2  .  o  o  o  .  .  .
        //   row 1  o  x  x  x  .  x  .     (a1 o, b1-d1 x, f1 x)
        // x: b1 c1 d1 f1 -> threatens e1 (row 1, odd: good for x, playable, and it is the
        // lowest threat of column e). o: b2 c2 d2 -> threatens a2 (row 2, even: good for o,
        // playable, lowest of column a) and e2 (row 2, above x's e1: not the lowest of e).
        // Moves: x d1, o d2, x c1, o c2, x b1, o b2, x f1, o a1; x to move.
        let f = feats("44332261");
        // Mover = x (first player).
        assert_eq!(&f[0..6], &[1.0, 0.0, 1.0, 1.0, 1.0, 1.0], "x: {f:?}");
        // Opponent = o: threats a2 and e2, both even (good); a2 playable; lowest in a only.
        assert_eq!(&f[6..12], &[2.0, 0.0, 1.0, 1.0, 1.0, 2.0], "o: {f:?}");
        // x's lowest threat e1 is odd: x controls zugzwang; 8 stones; x moves first.
        assert_eq!(&f[12..15], &[1.0, 8.0, 1.0]);
    }

    #[test]
    fn the_second_player_controls_zugzwang_by_default_and_views_flip_with_the_mover() {
        // After one more move (x g1) o is to move: the mover's block is now o's.
        let f = feats("442");
        // No threats anywhere: o (mover, second player) controls zugzwang by default.
        assert_eq!(
            &f[0..12],
            &[0.0, 0.0, 0.0, 0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
        );
        assert_eq!(&f[12..15], &[1.0, 3.0, 0.0]);
        // x to move with no threats: x does not control it.
        let f = feats("44");
        assert_eq!(f[12], 0.0);
        assert_eq!(f[14], 1.0);
    }

    #[test]
    fn an_even_threat_of_the_first_player_is_bad_for_it() {
        // x: a2 b2 c2 (on top of o's a1 b1 c1) threatens d2 (row 2, even: bad for x);
        // o: a1 b1 c1 threatens d1 (row 1, odd: bad for o, playable, lowest in d).
        // Moves: x g1, o a1, x a2, o b1, x b2, o c1, x c2; o to move.
        let f = feats("7112233");
        // Mover = o (second player): one threat d1, odd row: bad, playable, lowest, not good.
        assert_eq!(&f[0..6], &[0.0, 1.0, 1.0, 1.0, 0.0, 7.0], "o: {f:?}");
        // Opponent = x (first player): d2 on row 2 is bad for x, not playable, not lowest.
        assert_eq!(&f[6..12], &[0.0, 1.0, 0.0, 0.0, 0.0, 7.0], "x: {f:?}");
        // x has no lowest odd threat: o, the mover, controls zugzwang.
        assert_eq!(&f[12..15], &[1.0, 7.0, 0.0]);
    }
}
