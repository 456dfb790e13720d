//! Every line of four cells on a board: the unit that heuristics and features count.

use super::{BitBoard, Geometry};

/// The direction a line of four runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Left to right along a row.
    Horizontal,
    /// Bottom to top along a column.
    Vertical,
    /// Up and to the right.
    DiagonalUp,
    /// Down and to the right.
    DiagonalDown,
}

/// Four aligned cells of a board, as a bit mask over [`Position`](super::Position) bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line<B: BitBoard = u64> {
    /// The four cells' bits.
    pub mask: B,
    /// Which way the line runs.
    pub direction: Direction,
    /// The first cell's column and row (0-based): the leftmost cell, or the lowest of a
    /// vertical line.
    pub start: (usize, usize),
}

impl<B: BitBoard> Geometry<B> {
    /// All lines of four on this board, horizontal first, then vertical, then the two
    /// diagonals (69 on 7x6: 24 + 21 + 12 + 12). Empty when the board is too small for a four.
    pub fn lines(&self) -> Vec<Line<B>> {
        let (w, h) = (self.width() as isize, self.height() as isize);
        let steps = [
            (Direction::Horizontal, 1, 0),
            (Direction::Vertical, 0, 1),
            (Direction::DiagonalUp, 1, 1),
            (Direction::DiagonalDown, 1, -1),
        ];
        let mut out = Vec::new();
        for (direction, dc, dr) in steps {
            for c in 0..w {
                for r in 0..h {
                    let end = (c + 3 * dc, r + 3 * dr);
                    if end.0 < 0 || end.0 >= w || end.1 < 0 || end.1 >= h {
                        continue;
                    }
                    let mask = (0..4).fold(B::ZERO, |m, i| {
                        m | self.cell_bit((c + i * dc) as usize, (r + i * dr) as usize)
                    });
                    out.push(Line {
                        mask,
                        direction,
                        start: (c as usize, r as usize),
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_69_lines() {
        let lines = Geometry::STANDARD.lines();
        let count = |d| lines.iter().filter(|l| l.direction == d).count();
        assert_eq!(count(Direction::Horizontal), 24);
        assert_eq!(count(Direction::Vertical), 21);
        assert_eq!(count(Direction::DiagonalUp), 12);
        assert_eq!(count(Direction::DiagonalDown), 12);
        assert!(lines.iter().all(|l| l.mask.count_ones() == 4));
        assert!(
            lines
                .iter()
                .all(|l| l.mask & !Geometry::STANDARD.board_mask() == 0)
        );
    }

    #[test]
    fn small_boards() {
        assert_eq!(Geometry::new(3, 3).unwrap().lines().len(), 0);
        // 4x4: 4 rows, 4 columns, 2 diagonals.
        assert_eq!(Geometry::new(4, 4).unwrap().lines().len(), 10);
    }
}
