//! Summary statistics of UCI rows: what `c4 data uci` prints (classes, distinct positions,
//! mirror pairs and their labels, stones per column, the majority baseline).

use super::{Label, UciRow};
use std::collections::HashMap;

/// Summary statistics of a set of rows: what `c4 data uci` prints.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UciSummary {
    /// Rows read.
    pub rows: usize,
    /// Rows per class, loss/draw/win.
    pub classes: [usize; 3],
    /// Distinct positions.
    pub distinct: usize,
    /// Rows whose mirror image is also in the set (symmetric positions count too).
    pub mirror_pairs_present: usize,
    /// Rows that are their own mirror image.
    pub symmetric: usize,
    /// Rows whose mirror image has a different class (should be 0).
    pub mirror_label_conflicts: usize,
    /// Stones per column summed over all rows (a..g): where the play is.
    pub stones_per_column: Vec<usize>,
    /// The majority-class accuracy: what a model must beat.
    pub majority_baseline: f64,
}

/// Computes [`UciSummary`] for `rows`.
pub fn summarize(rows: &[UciRow]) -> UciSummary {
    let mut classes = [0usize; 3];
    let mut by_key: HashMap<u64, Label> = HashMap::with_capacity(rows.len());
    let width = rows.first().map_or(7, |r| r.position.width());
    let mut stones_per_column = vec![0usize; width];
    for r in rows {
        classes[r.label.index()] += 1;
        by_key.insert(r.position.key(), r.label);
        for (c, s) in stones_per_column.iter_mut().enumerate() {
            *s += r.position.column_height(c);
        }
    }
    let (mut pairs, mut symmetric, mut conflicts) = (0, 0, 0);
    for r in rows {
        let m = r.position.mirror();
        if m.key() == r.position.key() {
            symmetric += 1;
        }
        if let Some(&l) = by_key.get(&m.key()) {
            pairs += 1;
            if l != r.label {
                conflicts += 1;
            }
        }
    }
    let max = classes.iter().copied().max().unwrap_or(0);
    UciSummary {
        rows: rows.len(),
        classes,
        distinct: by_key.len(),
        mirror_pairs_present: pairs,
        symmetric,
        mirror_label_conflicts: conflicts,
        stones_per_column,
        majority_baseline: if rows.is_empty() {
            0.0
        } else {
            max as f64 / rows.len() as f64
        },
    }
}
