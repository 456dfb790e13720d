//! The shallow table: bounds of the positions with few stones, shared by a job's solvers.

use super::table::SharedTable;
use super::{SolverError, stored_value_bits};
use crate::game::{BitBoard, Geometry};
use std::sync::Arc;

/// A table for the positions with few stones, shared by solvers (cheap to clone: the clones
/// are the same table).
///
/// Why: labelling many positions of one phase meets the same shallow positions again and
/// again (a 10-stone position lies below dozens of 8-stone ones), but in a solver's main
/// table, which always replaces, the many deep positions of each search overwrite them. In a
/// table of their own, far fewer and rarely replaced, the bounds found for one position serve
/// the next ones, on every thread. Measured on the first 1000 UCI positions, weak, one
/// thread: 4.3 positions/s without, 7.1 with 16 plies and 2 GiB (5.8 with 14 plies and
/// 1 GiB; 6.7 with 18 plies and 4 GiB, fewer nodes but slower memory).
#[derive(Clone)]
pub struct ShallowTable<B: BitBoard = u64> {
    pub(super) plies: usize,
    pub(super) table: Arc<SharedTable<B>>,
}

impl ShallowTable {
    /// Plies below which labelling jobs use a shallow table by default.
    pub const DEFAULT_PLIES: usize = 16;
    /// Default size of a labelling job's shallow table, MiB.
    pub const DEFAULT_MIB: usize = 2048;
}

impl<B: BitBoard> ShallowTable<B> {
    /// A table of about `mib` MiB for positions of `geom` with fewer than `plies` stones.
    pub fn new(geom: Geometry<B>, plies: usize, mib: usize) -> Result<Self, SolverError> {
        if mib == 0 || mib > 65536 {
            return Err(SolverError::TableSize { mib });
        }
        let bytes = (mib as u64) << 20;
        let key_bits = geom.key_bits();
        let value_bits = stored_value_bits(geom);
        let log = (63 - (bytes / 8).leading_zeros()).min(key_bits);
        let table = SharedTable::new(log, key_bits, value_bits)
            .map_err(|_| SolverError::NoMemory { mib })?;
        Ok(ShallowTable {
            plies,
            table: Arc::new(table),
        })
    }

    /// A table for a job that will solve `positions` positions with fewer than `plies`
    /// stones: `None` when there are none (the table would never be read), else about 1 MiB
    /// per position, at least 16 and at most `max_mib` MiB. Why: a table costs its size in
    /// start-up (every page is zeroed), 1 s for 2 GiB, more than a small job's whole work.
    pub fn for_positions(
        geom: Geometry<B>,
        plies: usize,
        max_mib: usize,
        positions: usize,
    ) -> Result<Option<Self>, SolverError> {
        if plies == 0 || positions == 0 {
            return Ok(None);
        }
        let mib = positions.max(16).min(max_mib);
        Self::new(geom, plies, mib).map(Some)
    }

    /// Entries in the table.
    pub fn entries(&self) -> u64 {
        self.table.len()
    }
}
