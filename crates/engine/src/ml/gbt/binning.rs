//! Feature binning: each feature's values are mapped to at most `max_bins` ordered bins, so
//! split finding scans small histograms instead of sorted values.

use ndarray::ArrayView2;

/// Per-feature bin edges learnt from training data. A value `x` falls in bin `b` when
/// `edges[b-1] < x <= edges[b]` (the last bin is open above).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BinMapper {
    /// Upper edges per feature: `edges[f].len() + 1` bins.
    pub(crate) edges: Vec<Vec<f64>>,
    /// Offset of each feature's first bin in a histogram holding every feature's bins.
    pub(crate) offsets: Vec<usize>,
}

impl BinMapper {
    /// Learns edges from `x` (rows, features): midpoints between distinct values when a
    /// feature has at most `max_bins` of them, otherwise midpoints at evenly spaced quantiles.
    pub fn fit(x: ArrayView2<f64>, max_bins: usize) -> BinMapper {
        let mut edges = Vec::with_capacity(x.ncols());
        for col in x.columns() {
            let mut v: Vec<f64> = col.iter().copied().filter(|v| !v.is_nan()).collect();
            v.sort_by(f64::total_cmp);
            v.dedup();
            let e: Vec<f64> = if v.len() <= max_bins {
                v.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect()
            } else {
                let mut all: Vec<f64> = col.iter().copied().filter(|v| !v.is_nan()).collect();
                all.sort_by(f64::total_cmp);
                let mut e: Vec<f64> = (1..max_bins)
                    .map(|k| {
                        let i = k * (all.len() - 1) / max_bins;
                        (all[i] + all[i + 1]) / 2.0
                    })
                    .collect();
                e.dedup();
                e
            };
            edges.push(e);
        }
        let mut offsets = Vec::with_capacity(edges.len());
        let mut total = 0;
        for e in &edges {
            offsets.push(total);
            total += e.len() + 1;
        }
        BinMapper { edges, offsets }
    }

    /// Whether the stored offsets are the running sums of the bin counts, as [`Self::fit`]
    /// makes them (a model file could say otherwise, and inference indexes by them).
    pub(crate) fn is_consistent(&self) -> bool {
        self.offsets.len() == self.edges.len()
            && self
                .edges
                .iter()
                .scan(0usize, |total, e| {
                    let at = *total;
                    *total += e.len() + 1;
                    Some(at)
                })
                .eq(self.offsets.iter().copied())
    }

    /// Number of features.
    pub fn n_features(&self) -> usize {
        self.edges.len()
    }

    /// Bins of feature `f`.
    pub(crate) fn n_bins(&self, f: usize) -> usize {
        self.edges[f].len() + 1
    }

    /// Bins of all features together (the length of a full histogram).
    pub(crate) fn total_bins(&self) -> usize {
        self.offsets.last().map_or(0, |&o| o) + self.edges.last().map_or(0, |e| e.len() + 1)
    }

    /// The bin of value `x` for feature `f` (NaN goes to the first bin).
    #[inline]
    pub fn bin(&self, f: usize, x: f64) -> usize {
        self.edges[f].partition_point(|&e| e < x)
    }

    /// The upper edge of bin `b` of feature `f`: values `<=` it go left of a split after `b`.
    pub fn edge(&self, f: usize, b: usize) -> f64 {
        self.edges[f][b]
    }

    /// Row-major matrix of global bin indices (feature offset + bin), one `u16` per cell.
    pub(crate) fn transform(&self, x: ArrayView2<f64>) -> Vec<u16> {
        let nf = x.ncols();
        let mut out = vec![0u16; x.nrows() * nf];
        for (r, row) in x.rows().into_iter().enumerate() {
            for (f, &v) in row.iter().enumerate() {
                out[r * nf + f] = (self.offsets[f] + self.bin(f, v)) as u16;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn few_values_get_one_bin_each() {
        let x = array![[-1.0, 5.0], [0.0, 5.0], [1.0, 5.0], [0.0, 5.0]];
        let m = BinMapper::fit(x.view(), 255);
        assert_eq!(m.edges[0], vec![-0.5, 0.5]);
        assert!(m.edges[1].is_empty());
        assert_eq!(
            (m.bin(0, -1.0), m.bin(0, 0.0), m.bin(0, 0.5), m.bin(0, 3.0)),
            (0, 1, 1, 2)
        );
        assert_eq!(m.total_bins(), 4);
        assert_eq!(m.transform(x.view()), vec![0, 3, 1, 3, 2, 3, 1, 3]);
    }

    #[test]
    fn many_values_are_capped() {
        let x = ndarray::Array2::from_shape_fn((1000, 1), |(i, _)| i as f64);
        let m = BinMapper::fit(x.view(), 16);
        assert_eq!(m.n_bins(0), 16);
        let counts = (0..1000).fold(vec![0; 16], |mut c, i| {
            c[m.bin(0, i as f64)] += 1;
            c
        });
        assert!(counts.iter().all(|&c| (55..=70).contains(&c)), "{counts:?}");
    }
}
