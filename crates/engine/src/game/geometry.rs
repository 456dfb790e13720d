//! Board dimensions and the bit masks derived from them.
//!
//! Bit layout (as in Pascal Pons' solver): column `c`, row `r` (0 = bottom) is bit
//! `c * (height + 1) + r`. Each column has one extra, always-empty sentinel bit on top, so that
//! shifting a bitboard by `height + 1` (a column), `height` or `height + 2` (the diagonals)
//! never carries a stone from the top of one column into the bottom of the next.

use super::GameError;
use super::bitboard::BitBoard;

/// Width and height of a board, with the masks every bitboard operation needs precomputed.
/// `B` is the integer its bitboards live in (see [`BitBoard`]): `u64`, the default, for
/// boards of up to 64 bits, `u128` for the wider ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry<B: BitBoard = u64> {
    width: u8,
    height: u8,
    /// One bit at the bottom of every column.
    bottom: B,
    /// Every playable cell (no sentinel bits).
    board: B,
}

/// The bits a `width` x `height` board needs, `width * (height + 1)`, after the checks every
/// board size passes (not empty, columns nameable by a move string).
fn checked_bits(width: usize, height: usize) -> Result<usize, GameError> {
    if width == 0 || height == 0 {
        return Err(GameError::BoardEmpty { width, height });
    }
    if width > super::moves::MAX_WIDTH {
        return Err(GameError::TooWide { width, height });
    }
    Ok(width.saturating_mul(height.saturating_add(1)))
}

/// Whether a `width` x `height` board needs a wide (`u128`) bitboard: `Ok(false)` for boards
/// of up to 64 bits, `Ok(true)` up to 128, else the error [`Geometry::sized`] would give.
/// Where a board's size is read (a flag, a request), this picks the monomorphised code.
///
/// ```
/// use connect4_engine::game::needs_wide;
/// assert_eq!(needs_wide(7, 6), Ok(false));
/// assert_eq!(needs_wide(8, 8), Ok(true));
/// assert!(needs_wide(12, 10).is_err()); // 132 bits
/// ```
pub fn needs_wide(width: usize, height: usize) -> Result<bool, GameError> {
    let bits = checked_bits(width, height)?;
    if bits > u128::BITS as usize {
        return Err(GameError::BoardTooLarge {
            width,
            height,
            bits,
            limit: u128::BITS as usize,
        });
    }
    Ok(bits > u64::BITS as usize)
}

impl Geometry {
    /// The standard 7 columns x 6 rows board.
    pub const STANDARD: Geometry = Geometry::build(7, 6);

    /// A `width` x `height` board of up to 64 bits: `width * (height + 1)` must be at most
    /// 64, and the width at most [`moves::MAX_WIDTH`](super::moves::MAX_WIDTH) (what move
    /// strings name). Wider boards: [`Geometry::sized`] with `u128`.
    pub fn new(width: usize, height: usize) -> Result<Self, GameError> {
        Self::sized(width, height)
    }

    const fn build(width: u8, height: u8) -> Self {
        let mut bottom = 0u64;
        let mut c = 0;
        while c < width as u32 {
            bottom |= 1u64 << (c * (height as u32 + 1));
            c += 1;
        }
        // Each column's `height` playable bits are bottom * (2^height - 1) without carries.
        let board = bottom.wrapping_mul((1u64 << height) - 1);
        Geometry {
            width,
            height,
            bottom,
            board,
        }
    }

    /// The same board with `u128` bitboards (every 64-bit board is also a wide one): the
    /// bridge tests use to hold the wide code to the narrow one.
    pub fn widen(self) -> Geometry<u128> {
        self.in_bits()
    }

    /// The same board in bitboards of any integer (a 64-bit board fits every one): what
    /// code generic over the integer uses to read 64-bit data (labelled positions, books).
    pub fn in_bits<B: BitBoard>(self) -> Geometry<B> {
        Geometry {
            width: self.width,
            height: self.height,
            bottom: B::from_u64(self.bottom),
            board: B::from_u64(self.board),
        }
    }
}

impl<B: BitBoard> Geometry<B> {
    /// A `width` x `height` board in `B`'s bitboards: `width * (height + 1)` must be at most
    /// `B::BITS` (64 or 128), the width at most [`moves::MAX_WIDTH`](super::moves::MAX_WIDTH).
    ///
    /// ```
    /// use connect4_engine::game::Geometry;
    /// let g = Geometry::<u128>::sized(8, 8).unwrap();
    /// assert_eq!((g.cells(), g.key_bits()), (64, 72));
    /// assert!(Geometry::<u64>::sized(8, 8).is_err());
    /// ```
    pub fn sized(width: usize, height: usize) -> Result<Self, GameError> {
        let bits = checked_bits(width, height)?;
        if bits > B::BITS as usize {
            return Err(GameError::BoardTooLarge {
                width,
                height,
                bits,
                limit: B::BITS as usize,
            });
        }
        let mut bottom = B::ZERO;
        for c in 0..width {
            bottom |= B::ONE << (c * (height + 1));
        }
        let column = (B::ONE << height) - B::ONE;
        let board = (0..width).fold(B::ZERO, |m, c| m | column << (c * (height + 1)));
        Ok(Geometry {
            width: width as u8,
            height: height as u8,
            bottom,
            board,
        })
    }

    /// The same board with `u64` bitboards, when it fits: how a wide geometry reaches what
    /// exists for narrow boards only (books, learned models).
    pub fn narrow(self) -> Option<Geometry> {
        Some(Geometry {
            width: self.width,
            height: self.height,
            bottom: self.bottom.to_u64()?,
            board: self.board.to_u64()?,
        })
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of cells, `width * height`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width() * self.height()
    }

    /// Bits used by a key: `width * (height + 1)`.
    #[inline]
    pub fn key_bits(&self) -> u32 {
        self.width as u32 * (self.height as u32 + 1)
    }

    /// One bit at the bottom of every column.
    #[inline]
    pub(crate) fn bottom_mask(&self) -> B {
        self.bottom
    }

    /// Every playable cell.
    #[inline]
    pub(crate) fn board_mask(&self) -> B {
        self.board
    }

    /// The bit of cell (`col`, `row`), both 0-based, row 0 at the bottom.
    #[inline]
    pub fn cell_bit(&self, col: usize, row: usize) -> B {
        B::ONE << (col * (self.height() + 1) + row)
    }

    /// All playable cells of column `col` (0-based).
    #[inline]
    pub fn column_mask(&self, col: usize) -> B {
        ((B::ONE << self.height()) - B::ONE) << (col * (self.height() + 1))
    }

    /// The top playable cell of column `col` (0-based).
    #[inline]
    pub(crate) fn top_mask(&self, col: usize) -> B {
        B::ONE << (self.height() - 1 + col * (self.height() + 1))
    }

    /// Score of a win by the player to move when `moves` stones are on the board and the
    /// winning stone is the next one: `ceil(cells/2) + 1 - k` where `k` counts the winner's
    /// stones including the winning one (22 - k on 7x6, as in the standard benchmark files).
    #[inline]
    pub fn win_score(&self, moves: usize) -> i32 {
        self.cells().div_ceil(2) as i32 - (moves / 2) as i32
    }

    /// Columns ordered centre first, alternating left and right (3,2,4,1,5,0,6 on 7 columns):
    /// central columns take part in more lines, so searching them first cuts more.
    pub(crate) fn centre_order(&self) -> impl Iterator<Item = usize> + '_ {
        let w = self.width() as isize;
        (0..w).map(move |i| {
            let off = (i + 1) / 2;
            // On even widths the right-hand of the two centre columns comes first.
            let c = if i % 2 == 1 { w / 2 - off } else { w / 2 + off };
            c as usize
        })
    }

    /// Cells (empty or not) that would complete four in a row for the stones `stones`,
    /// restricted to empty cells of the board given the occupancy `mask`.
    #[inline]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let h = self.height as u32;
        // Vertical: three stones below the cell.
        let mut r = (stones << 1u32) & (stones << 2u32) & (stones << 3u32);
        if self.width >= 4 {
            // Horizontal and the two diagonals: a shift of `d` moves a stone one column over
            // (d = h+1), one column over and one row down (h) or up (h+2). For each direction
            // find cells with three aligned stones in any of the four arrangements around them.
            for d in [h + 1, h, h + 2] {
                let p = (stones << d) & (stones << (2 * d));
                r |= p & (stones << (3 * d));
                r |= p & (stones >> d);
                let p = (stones >> d) & (stones >> (2 * d));
                r |= p & (stones << d);
                r |= p & (stones >> (3 * d));
            }
        }
        r & (self.board ^ mask)
    }

    /// Whether `stones` contain four in a row.
    #[inline]
    pub fn has_four(&self, stones: B) -> bool {
        let h = self.height as u32;
        // Vertical.
        let m = stones & (stones >> 1u32);
        if m & (m >> 2u32) != B::ZERO {
            return true;
        }
        if self.width >= 4 {
            for d in [h + 1, h, h + 2] {
                let m = stones & (stones >> d);
                if m & (m >> (2 * d)) != B::ZERO {
                    return true;
                }
            }
        }
        false
    }

    /// The board mirrored left to right.
    #[inline]
    pub(crate) fn mirror_bits(&self, bits: B) -> B {
        let stride = self.height() + 1;
        let col = (B::ONE << stride) - B::ONE;
        let w = self.width();
        (0..w).fold(B::ZERO, |acc, c| {
            acc | (((bits >> (c * stride)) & col) << ((w - 1 - c) * stride))
        })
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Self::STANDARD
    }
}

impl<B: BitBoard> std::fmt::Display for Geometry<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}
