//! The bitboard position: two bitboards (`u64`, or `u128` past 64 bits) describe any board.

use super::{BitBoard, GameError, Geometry};
use std::fmt;

mod bits;

/// One of the two players. `First` (x in the UCI data) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who makes the first move (x).
    First,
    /// The player who moves second (o).
    Second,
}

impl Player {
    /// The other player.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Player::First.other(), Player::Second);
    /// ```
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The UCI / board-drawing symbol: `x` for the first player, `o` for the second.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Player::First.symbol(), 'x');
    /// ```
    pub fn symbol(self) -> char {
        match self {
            Player::First => 'x',
            Player::Second => 'o',
        }
    }
}

/// How a position stands: still open, won by the player who just moved, or a full-board draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The named player has four in a row.
    Won(Player),
    /// The board is full and nobody has four.
    Draw,
}

/// A Connect Four position on any [`Geometry`].
///
/// `current` holds the stones of the player to move and `mask` every stone, so playing a move is
/// two operations and the side to move never needs a branch. Positions are small and `Copy`:
/// searches copy them rather than undo moves.
///
/// `B` is the bitboard's integer (see [`BitBoard`]): `u64` by default, `u128` for boards past
/// 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B: BitBoard = u64> {
    current: B,
    mask: B,
    moves: u8,
    geom: Geometry<B>,
}

impl Default for Position {
    fn default() -> Self {
        Position::new(Geometry::STANDARD)
    }
}

impl Position {
    /// The same position in `u128` bitboards (see [`Geometry::widen`]).
    pub fn widen(&self) -> Position<u128> {
        self.in_bits()
    }

    /// The same position in bitboards of any integer (see [`Geometry::in_bits`]).
    pub fn in_bits<B: BitBoard>(&self) -> Position<B> {
        Position {
            current: B::from_u64(self.current),
            mask: B::from_u64(self.mask),
            moves: self.moves,
            geom: self.geom.in_bits(),
        }
    }
}

impl<B: BitBoard> Position<B> {
    /// The same position in `u64` bitboards, when its board fits 64 bits.
    pub fn narrow(&self) -> Option<Position> {
        Some(Position {
            current: self.current.to_u64()?,
            mask: self.mask.to_u64()?,
            moves: self.moves,
            geom: self.geom.narrow()?,
        })
    }

    /// The empty board of `geom`.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::new(Geometry::STANDARD);
    /// assert_eq!((p.moves_played(), p.side_to_move()), (0, Player::First));
    /// ```
    pub fn new(geom: Geometry<B>) -> Self {
        Position {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
            geom,
        }
    }

    /// The position after the move string `moves` (e.g. `"4453"`; columns 1-9, then a-z, as
    /// [`moves`](crate::game::moves) writes them) on `geom`.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "4453").unwrap();
    /// assert_eq!(p.moves_played(), 4);
    /// assert!(Position::from_moves(Geometry::STANDARD, "48").is_err());
    /// ```
    pub fn from_moves(geom: Geometry<B>, moves: &str) -> Result<Self, GameError> {
        let mut p = Position::new(geom);
        p.play_moves(moves)?;
        Ok(p)
    }

    /// Plays the moves of the move string `moves` in turn; errors name the 1-based move number.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let mut p = Position::new(Geometry::STANDARD);
    /// p.play_moves("44").unwrap();
    /// assert_eq!(p.column_height(3), 2);
    /// assert!(p.play_moves("9").is_err());
    /// ```
    pub fn play_moves(&mut self, moves: &str) -> Result<(), GameError> {
        let width = self.geom.width();
        for ch in moves.chars() {
            let at = self.moves_played() + 1;
            self.play(super::moves::parse_column(ch, at, width)?)?;
        }
        Ok(())
    }

    /// The board this position is on.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::new(Geometry::new(6, 5).unwrap());
    /// assert_eq!(p.geometry(), Geometry::new(6, 5).unwrap());
    /// ```
    #[inline]
    pub fn geometry(&self) -> Geometry<B> {
        self.geom
    }

    /// Number of columns.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::new(Geometry::STANDARD).width(), 7);
    /// ```
    #[inline]
    pub fn width(&self) -> usize {
        self.geom.width()
    }

    /// Number of rows.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::new(Geometry::STANDARD).height(), 6);
    /// ```
    #[inline]
    pub fn height(&self) -> usize {
        self.geom.height()
    }

    /// Number of stones on the board.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::from_moves(Geometry::STANDARD, "123").unwrap().moves_played(), 3);
    /// ```
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// The player whose turn it is.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::from_moves(Geometry::STANDARD, "4").unwrap().side_to_move(), Player::Second);
    /// ```
    #[inline]
    pub fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Stones of the player to move.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "45").unwrap();
    /// assert_eq!(p.current_stones().count_ones(), 1); // the first player's stone in column 4
    /// ```
    #[inline]
    pub fn current_stones(&self) -> B {
        self.current
    }

    /// Stones of the player who just moved.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "45").unwrap();
    /// assert_eq!(p.opponent_stones(), p.stones_of(Player::Second));
    /// ```
    #[inline]
    pub fn opponent_stones(&self) -> B {
        self.current ^ self.mask
    }

    /// Every stone on the board.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "445").unwrap();
    /// assert_eq!(p.mask().count_ones(), 3);
    /// assert_eq!(p.mask(), p.current_stones() | p.opponent_stones());
    /// ```
    #[inline]
    pub fn mask(&self) -> B {
        self.mask
    }

    /// Stones of `player`.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "445").unwrap();
    /// assert_eq!(p.stones_of(Player::First).count_ones(), 2);
    /// ```
    pub fn stones_of(&self, player: Player) -> B {
        if player == self.side_to_move() {
            self.current
        } else {
            self.opponent_stones()
        }
    }

    /// Who occupies cell (`col`, `row`), 0-based, row 0 at the bottom.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "44").unwrap();
    /// assert_eq!(p.cell(3, 0), Some(Player::First));
    /// assert_eq!(p.cell(3, 1), Some(Player::Second));
    /// assert_eq!(p.cell(3, 2), None);
    /// ```
    pub fn cell(&self, col: usize, row: usize) -> Option<Player> {
        let bit = self.geom.cell_bit(col, row);
        if self.mask & bit == B::ZERO {
            None
        } else if self.current & bit != B::ZERO {
            Some(self.side_to_move())
        } else {
            Some(self.side_to_move().other())
        }
    }

    /// Number of stones in column `col` (0-based).
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// assert_eq!(Position::from_moves(Geometry::STANDARD, "4441").unwrap().column_height(3), 3);
    /// ```
    pub fn column_height(&self, col: usize) -> usize {
        (self.mask & self.geom.column_mask(col)).count_ones() as usize
    }

    /// Whether column `col` (0-based) exists and has room.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "111111").unwrap();
    /// assert!(!p.can_play(0) && p.can_play(1) && !p.can_play(7));
    /// ```
    #[inline]
    pub fn can_play(&self, col: usize) -> bool {
        col < self.width() && self.mask & self.geom.top_mask(col) == B::ZERO
    }

    /// The 0-based columns that can take a stone, left to right (none once the game is over).
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "111111").unwrap();
    /// assert_eq!(p.legal_columns().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
    /// ```
    pub fn legal_columns(&self) -> impl Iterator<Item = usize> + '_ {
        let over = self.last_move_won();
        (0..self.width()).filter(move |&c| !over && self.can_play(c))
    }

    /// The player who just moved has four in a row.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "1212121").unwrap();
    /// assert!(p.last_move_won());
    /// ```
    #[inline]
    pub fn last_move_won(&self) -> bool {
        self.geom.has_four(self.opponent_stones())
    }

    /// Every cell is filled.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::new(4, 4).unwrap(), "4321311144234232").unwrap();
    /// assert!(p.is_full());
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        self.moves_played() == self.geom.cells()
    }

    /// Won, drawn or still going.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::from_moves(Geometry::STANDARD, "1212121").unwrap();
    /// assert_eq!(p.outcome(), Outcome::Won(Player::First));
    /// assert_eq!(Position::new(Geometry::STANDARD).outcome(), Outcome::Ongoing);
    /// ```
    pub fn outcome(&self) -> Outcome {
        if self.last_move_won() {
            Outcome::Won(self.side_to_move().other())
        } else if self.is_full() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    /// Plays column `col` (0-based) after checking that the move is legal.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let mut p = Position::from_moves(Geometry::STANDARD, "111111").unwrap();
    /// assert!(p.play(0).is_err()); // full column
    /// p.play(1).unwrap();
    /// assert_eq!(p.moves_played(), 7);
    /// ```
    pub fn play(&mut self, col: usize) -> Result<(), GameError> {
        let at = self.moves_played() + 1;
        if col >= self.width() {
            return Err(GameError::ColumnOutOfRange {
                at,
                column: col + 1,
                width: self.width(),
            });
        }
        if self.last_move_won() {
            return Err(GameError::GameOver { at });
        }
        if !self.can_play(col) {
            return Err(GameError::ColumnFull {
                at,
                column: col + 1,
            });
        }
        self.play_col(col);
        Ok(())
    }

    /// Plays column `col` (0-based); the caller guarantees it is legal.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let mut p = Position::new(Geometry::STANDARD);
    /// p.play_col(3);
    /// assert_eq!(p, Position::from_moves(Geometry::STANDARD, "4").unwrap());
    /// ```
    #[inline]
    pub fn play_col(&mut self, col: usize) {
        let bit = (self.mask + self.geom.cell_bit(col, 0)) & self.geom.column_mask(col);
        self.play_bit(bit);
    }

    /// Plays the move whose single bit is `bit` (a bit of [`Position::possible`]).
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let mut p = Position::new(Geometry::STANDARD);
    /// let bit = p.possible() & Geometry::STANDARD.column_mask(3);
    /// p.play_bit(bit);
    /// assert_eq!(p, Position::from_moves(Geometry::STANDARD, "4").unwrap());
    /// ```
    #[inline]
    pub fn play_bit(&mut self, bit: B) {
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// The position after column `col` (0-based), if legal.
    ///
    /// ```
    /// use connect4_engine::game::{Geometry, Outcome, Player, Position};
    /// let p = Position::new(Geometry::STANDARD);
    /// assert_eq!(p.after(3).unwrap().moves_played(), 1);
    /// assert!(p.after(9).is_none());
    /// ```
    pub fn after(&self, col: usize) -> Option<Self> {
        let mut p = *self;
        p.play(col).ok()?;
        Some(p)
    }
}

impl std::str::FromStr for Position {
    type Err = GameError;

    /// A move string on the standard 7x6 board, e.g. `"4453".parse::<Position>()`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_moves(Geometry::STANDARD, s)
    }
}

impl<B: BitBoard> fmt::Display for Position<B> {
    /// Draws the board top row first, `x`/`o`/`.`, with column numbers underneath.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height()).rev() {
            for col in 0..self.width() {
                let c = self.cell(col, row).map_or('.', Player::symbol);
                if col > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        for col in 0..self.width() {
            if col > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", (col + 1) % 10)?;
        }
        Ok(())
    }
}
