//! A plain model of the game and an exhaustive minimax over it: the independent oracle the
//! solver and the bitboards are checked against. Included by path from the engine's tests.

use connect4_engine::seed::splitmix64;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A plain array board: 0 empty, 1 first player, 2 second player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    pub w: usize,
    pub h: usize,
    /// Column by column, row 0 at the bottom: the cell (col, row) is `cells[col * h + row]`.
    pub cells: Vec<u8>,
    pub moves: usize,
}

impl Naive {
    pub fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            cells: vec![0; w * h],
            moves: 0,
        }
    }

    pub fn to_move(&self) -> u8 {
        if self.moves.is_multiple_of(2) { 1 } else { 2 }
    }

    /// What the cell at `col`, `row` holds.
    pub fn cell(&self, col: usize, row: usize) -> u8 {
        self.cells[col * self.h + row]
    }

    pub fn height_of(&self, col: usize) -> usize {
        self.cells[col * self.h..(col + 1) * self.h]
            .iter()
            .take_while(|&&c| c != 0)
            .count()
    }

    pub fn can_play(&self, col: usize) -> bool {
        col < self.w && self.height_of(col) < self.h
    }

    pub fn play(&mut self, col: usize) {
        let r = self.height_of(col);
        self.cells[col * self.h + r] = self.to_move();
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
                            && self.cell(cc as usize, rr as usize) == player
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
}

/// The minimax memo: a position's cells to its value. Hashed with a multiply-and-rotate
/// (the memo holds millions of short keys from one process; no adversary chooses them).
pub type Memo = HashMap<Vec<u8>, i32, BuildHasherDefault<QuickHash>>;

/// The memo's hasher: eight bytes at a time, each word mixed in by a multiply, and
/// splitmix64's finaliser at the end so that the low bits (the table's index) depend on all.
#[derive(Default)]
pub struct QuickHash(u64);

impl Hasher for QuickHash {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        splitmix64(self.0)
    }
}

/// Exact score by exhaustive minimax (no pruning, memoised): the side to move's value with
/// the benchmark convention, `ceil(cells/2) + 1 - k` for a win with the k-th stone.
pub fn minimax(n: &Naive, memo: &mut Memo) -> i32 {
    if let Some(&v) = memo.get(&n.cells) {
        return v;
    }
    let best = (0..n.w)
        .filter_map(|col| column_value(n, col, memo))
        .max()
        .unwrap_or(i32::MIN);
    memo.insert(n.cells.clone(), best);
    best
}

/// The exact value of playing `col` for the player to move (`None` if the column is full):
/// the win itself, a draw on the last cell, or minus the opponent's minimax value.
pub fn column_value(n: &Naive, col: usize, memo: &mut Memo) -> Option<i32> {
    if !n.can_play(col) {
        return None;
    }
    let half = (n.w * n.h).div_ceil(2) as i32;
    let me = n.to_move();
    let mut child = n.clone();
    child.play(col);
    Some(if child.has_four(me) {
        // My k-th stone, k = stones of mine after the move.
        let k = child.cells.iter().filter(|&&c| c == me).count() as i32;
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
