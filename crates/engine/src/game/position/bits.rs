//! The position's bit-level questions, the solver's and the evaluators' hot path: playable
//! and winning cells, safe moves, move ordering scores, keys and mirror images.

use super::Position;
use crate::game::{BitBoard, Geometry};

impl<B: BitBoard> Position<B> {
    /// One bit per playable column: the lowest empty cell.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::new(Geometry::STANDARD).possible().count_ones(), 7);
    /// ```
    #[inline]
    pub fn possible(&self) -> B {
        (self.mask + self.geom.bottom_mask()) & self.geom.board_mask()
    }

    /// Empty cells where the player to move would complete four.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "121212").unwrap();
    /// assert_eq!(p.winning_cells().count_ones(), 1); // on top of column 1
    /// ```
    #[inline]
    pub fn winning_cells(&self) -> B {
        self.geom.winning_cells(self.current, self.mask)
    }

    /// Empty cells where the opponent would complete four.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "1212123").unwrap();
    /// assert_eq!(p.opponent_winning_cells().count_ones(), 1);
    /// ```
    #[inline]
    pub fn opponent_winning_cells(&self) -> B {
        self.geom.winning_cells(self.opponent_stones(), self.mask)
    }

    /// The player to move can win with the next stone.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert!(Position::from_moves(Geometry::STANDARD, "121212").unwrap().can_win_next());
    /// assert!(!Position::new(Geometry::STANDARD).can_win_next());
    /// ```
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != B::ZERO
    }

    /// Playing column `col` (0-based, must be playable) wins at once.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "121212").unwrap();
    /// assert!(p.is_winning_move(0) && !p.is_winning_move(1));
    /// ```
    #[inline]
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.winning_cells() & self.possible() & self.geom.column_mask(col) != B::ZERO
    }

    /// Moves that do not let the opponent win at once. Must only be called when the player to
    /// move cannot win immediately. If the opponent has a playable winning cell, the only
    /// candidate is to block it (two such cells: nothing saves us, the result is empty); and no
    /// move may fill the cell just below an opponent's winning cell, which would let them play
    /// it next.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// // The second player must block column 1.
    /// let p = Position::from_moves(Geometry::STANDARD, "12121").unwrap();
    /// let safe = p.possible_non_losing_moves();
    /// assert_eq!(safe, p.possible() & Geometry::STANDARD.column_mask(0));
    /// ```
    #[inline]
    pub fn possible_non_losing_moves(&self) -> B {
        let mut possible = self.possible();
        let opponent_win = self.opponent_winning_cells();
        let forced = possible & opponent_win;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(opponent_win >> 1u32)
    }

    /// The playable cells the one-move rule allows: the winning ones when a stone wins at
    /// once, else those that hand the opponent no immediate win, else (a lost position still
    /// plays) every playable cell. Self-play's greedy moves and guided openings choose among
    /// these.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Position};
    /// let g = Geometry::STANDARD;
    /// let win = Position::from_moves(g, "121212").unwrap(); // the first player wins in column 1
    /// assert_eq!(win.one_move_rule_cells(), win.possible() & g.column_mask(0));
    /// let block = Position::from_moves(g, "12121").unwrap(); // the second player must block
    /// assert_eq!(block.one_move_rule_cells(), block.possible() & g.column_mask(0));
    /// ```
    #[inline]
    pub fn one_move_rule_cells(&self) -> B {
        let wins = self.winning_cells() & self.possible();
        if wins != B::ZERO {
            return wins;
        }
        let safe = self.possible_non_losing_moves();
        if safe == B::ZERO {
            self.possible()
        } else {
            safe
        }
    }

    /// How many winning cells the player to move would have after playing `bit`: the move
    /// ordering heuristic (moves that create threats first).
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "2233").unwrap();
    /// let c4 = p.possible() & Geometry::STANDARD.column_mask(3);
    /// assert_eq!(p.move_score(c4), 2); // three in a row, open at both ends
    /// ```
    #[inline]
    pub fn move_score(&self, bit: B) -> u32 {
        self.geom
            .winning_cells(self.current | bit, self.mask | bit)
            .count_ones()
    }

    /// A number that identifies the position among all positions of its geometry: the stones
    /// of the player to move plus one extra bit on top of every column's stack. Fits in
    /// `width * (height + 1)` bits.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let a = Position::from_moves(Geometry::STANDARD, "1234").unwrap();
    /// let b = Position::from_moves(Geometry::STANDARD, "3214").unwrap();
    /// assert_eq!(a.key(), b.key()); // the same stones, reached another way
    /// ```
    #[inline]
    pub fn key(&self) -> B {
        self.current + self.mask + self.geom.bottom_mask()
    }

    /// The same position mirrored left to right.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "12").unwrap();
    /// assert_eq!(p.mirror(), Position::from_moves(Geometry::STANDARD, "76").unwrap());
    /// ```
    pub fn mirror(&self) -> Self {
        Position {
            current: self.geom.mirror_bits(self.current),
            mask: self.geom.mirror_bits(self.mask),
            moves: self.moves,
            geom: self.geom,
        }
    }

    /// The smaller of the keys of the position and of its mirror image: equal for the two
    /// mirror images, so symmetric positions share one entry wherever it is used.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "12").unwrap();
    /// assert_eq!(p.canonical_key(), p.mirror().canonical_key());
    /// ```
    #[inline]
    pub fn canonical_key(&self) -> B {
        let k = self.key();
        let m = self.geom.mirror_bits(k);
        k.min(m)
    }

    /// Builds a position from raw bitboards; returns `None` when they are inconsistent
    /// (stones outside the board, floating stones, impossible counts, a four for the side to
    /// move).
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "4453").unwrap();
    /// assert_eq!(Position::from_bits(p.geometry(), p.current_stones(), p.mask()), Some(p));
    /// ```
    pub fn from_bits(geom: Geometry<B>, current: B, mask: B) -> Option<Self> {
        if mask & !geom.board_mask() != B::ZERO || current & !mask != B::ZERO {
            return None;
        }
        // Gravity: each column's stones form a run from the bottom exactly when adding the
        // bottom bit carries through the whole run and lands on an empty cell (or sentinel).
        if (mask + geom.bottom_mask()) & mask != B::ZERO {
            return None;
        }
        let moves = mask.count_ones();
        let mine = current.count_ones();
        let theirs = moves - mine;
        if theirs < mine || theirs > mine + 1 || moves.is_multiple_of(2) != (theirs == mine) {
            return None;
        }
        if geom.has_four(current) {
            return None;
        }
        Some(Position {
            current,
            mask,
            moves: moves as u8,
            geom,
        })
    }
}
