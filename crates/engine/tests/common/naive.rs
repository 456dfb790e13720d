//! A plain model of the game and an exhaustive minimax over it: the independent oracle the
//! solver and the bitboards are checked against. Included by path from the engine's tests.

use std::collections::HashMap;

/// A plain 2-D array board: 0 empty, 1 first player, 2 second player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    pub w: usize,
    pub h: usize,
    /// cells[col][row], row 0 at the bottom.
    pub cells: Vec<Vec<u8>>,
    pub moves: usize,
}

impl Naive {
    pub fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            cells: vec![vec![0; h]; w],
            moves: 0,
        }
    }

    pub fn to_move(&self) -> u8 {
        if self.moves.is_multiple_of(2) { 1 } else { 2 }
    }

    pub fn height_of(&self, col: usize) -> usize {
        self.cells[col].iter().take_while(|&&c| c != 0).count()
    }

    pub fn can_play(&self, col: usize) -> bool {
        col < self.w && self.height_of(col) < self.h
    }

    pub fn play(&mut self, col: usize) {
        let r = self.height_of(col);
        self.cells[col][r] = self.to_move();
        self.moves += 1;
    }

    /// Whether `player` has four in a row anywhere.
    pub fn has_four(&self, player: u8) -> bool {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
        for c in 0..self.w as i32 {
            for r in 0..self.h as i32 {
                for (dc, dr) in dirs {
                    if (0..4).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        cc >= 0
                            && rr >= 0
                            && cc < self.w as i32
                            && rr < self.h as i32
                            && self.cells[cc as usize][rr as usize] == player
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn full(&self) -> bool {
        self.moves == self.w * self.h
    }

    /// The cells, column by column: a memo key for boards of any size.
    fn key(&self) -> Vec<u8> {
        self.cells.iter().flatten().copied().collect()
    }
}

/// Exact score by exhaustive minimax (no pruning, memoised): the side to move's value with
/// the benchmark convention, `ceil(cells/2) + 1 - k` for a win with the k-th stone.
pub fn minimax(n: &Naive, memo: &mut HashMap<Vec<u8>, i32>) -> i32 {
    let key = n.key();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let best = (0..n.w)
        .filter_map(|col| column_value(n, col, memo))
        .max()
        .unwrap_or(i32::MIN);
    memo.insert(key, best);
    best
}

/// The exact value of playing `col` for the player to move (`None` if the column is full):
/// the win itself, a draw on the last cell, or minus the opponent's minimax value.
pub fn column_value(n: &Naive, col: usize, memo: &mut HashMap<Vec<u8>, i32>) -> Option<i32> {
    if !n.can_play(col) {
        return None;
    }
    let half = (n.w * n.h).div_ceil(2) as i32;
    let me = n.to_move();
    let mut child = n.clone();
    child.play(col);
    Some(if child.has_four(me) {
        // My k-th stone, k = stones of mine after the move.
        let k = child.cells.iter().flatten().filter(|&&c| c == me).count() as i32;
        half + 1 - k
    } else if child.full() {
        0
    } else {
        -minimax(&child, memo)
    })
}

/// A tiny deterministic generator so tests need no seeding crate.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
