//! Growing one regression tree on gradients and hessians: histograms per leaf (the smaller
//! child built, the larger one by subtraction from its parent), best-first (leaf-wise) growth.

use super::binning::BinMapper;
use super::params::GbtValidParams;

/// Smallest hessian sum a child may have (guards against leaves with no curvature).
const MIN_HESSIAN: f64 = 1e-3;

/// Gradient, hessian and row count summed over the rows that fall in one bin.
#[derive(Clone, Copy, Debug, Default)]
struct Bin {
    g: f64,
    h: f64,
    n: u32,
}

/// A node of a grown tree. Splits send rows with `bin <= bin` (raw value `<= threshold`) left.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TreeNode {
    /// Feature index (splits only).
    pub feature: u32,
    /// Last bin that goes left (splits only).
    pub bin: u16,
    /// Raw-value threshold: `x <= threshold` goes left (splits only).
    pub threshold: f64,
    /// Left child index; 0 for leaves (the root is never a child).
    pub left: u32,
    /// Right child index.
    pub right: u32,
    /// Leaf value (already multiplied by the learning rate).
    pub value: f64,
}

impl TreeNode {
    /// A leaf of value 0: where growth starts and what a new child is until split or valued.
    pub(crate) const EMPTY_LEAF: TreeNode = TreeNode {
        feature: 0,
        bin: 0,
        threshold: 0.0,
        left: 0,
        right: 0,
        value: 0.0,
    };

    /// Whether this node is a leaf.
    pub(crate) fn is_leaf(&self) -> bool {
        self.left == 0
    }
}

#[derive(Clone, Copy, Debug)]
struct Split {
    gain: f64,
    feature: usize,
    bin: usize,
}

struct OpenLeaf {
    node: usize,
    start: usize,
    end: usize,
    depth: usize,
    g: f64,
    h: f64,
    hist: Vec<Bin>,
    split: Option<Split>,
}

/// Reusable buffers and the data a tree is grown on.
pub(crate) struct Grower<'a> {
    pub binned: &'a [u16],
    pub n_features: usize,
    pub mapper: &'a BinMapper,
    pub params: &'a GbtValidParams,
}

/// A grown tree plus what boosting needs from it.
pub(crate) struct Grown {
    pub nodes: Vec<TreeNode>,
    /// Gain of the splits per feature.
    pub gains: Vec<f64>,
}

impl Grower<'_> {
    fn build_hist(&self, rows: &[u32], grad: &[f64], hess: &[f64]) -> Vec<Bin> {
        let mut hist = vec![Bin::default(); self.mapper.total_bins()];
        let nf = self.n_features;
        for &r in rows {
            let r = r as usize;
            let (g, h) = (grad[r], hess[r]);
            for &b in &self.binned[r * nf..r * nf + nf] {
                let e = &mut hist[b as usize];
                e.g += g;
                e.h += h;
                e.n += 1;
            }
        }
        hist
    }

    fn best_split(&self, hist: &[Bin], g: f64, h: f64, n: usize) -> Option<Split> {
        let p = self.params;
        let msl = p.min_samples_leaf;
        if n < 2 * msl {
            return None;
        }
        let lambda = p.l2_regularization;
        let parent = g * g / (h + lambda);
        let mut best: Option<Split> = None;
        for f in 0..self.n_features {
            let off = self.mapper.offsets[f];
            let nb = self.mapper.n_bins(f);
            let (mut gl, mut hl, mut nl) = (0.0, 0.0, 0usize);
            for b in 0..nb - 1 {
                let e = hist[off + b];
                gl += e.g;
                hl += e.h;
                nl += e.n as usize;
                if nl < msl {
                    continue;
                }
                let nr = n - nl;
                if nr < msl {
                    break;
                }
                let (gr, hr) = (g - gl, h - hl);
                if hl < MIN_HESSIAN || hr < MIN_HESSIAN {
                    continue;
                }
                let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent;
                if gain > 1e-12 && best.is_none_or(|s| gain > s.gain) {
                    best = Some(Split {
                        gain,
                        feature: f,
                        bin: b,
                    });
                }
            }
        }
        best
    }

    fn open(
        &self,
        node: usize,
        start: usize,
        end: usize,
        depth: usize,
        hist: Vec<Bin>,
    ) -> OpenLeaf {
        // Every row lands in exactly one bin of feature 0, so its bins sum to the leaf totals.
        let nb0 = self.mapper.n_bins(0);
        let (g, h) = hist[..nb0]
            .iter()
            .fold((0.0, 0.0), |(g, h), e| (g + e.g, h + e.h));
        let split = if depth < self.params.max_depth {
            self.best_split(&hist, g, h, end - start)
        } else {
            None
        };
        OpenLeaf {
            node,
            start,
            end,
            depth,
            g,
            h,
            hist,
            split,
        }
    }

    /// Stable partition of a leaf's `rows` by `split`: the rows that go left first, order
    /// kept on both sides; returns how many go left.
    #[inline]
    fn partition(&self, rows: &mut [u32], scratch: &mut Vec<u32>, split: Split) -> usize {
        let global_bin = (self.mapper.offsets[split.feature] + split.bin) as u16;
        let nf = self.n_features;
        scratch.clear();
        let mut w = 0;
        for i in 0..rows.len() {
            let r = rows[i];
            if self.binned[r as usize * nf + split.feature] <= global_bin {
                rows[w] = r;
                w += 1;
            } else {
                scratch.push(r);
            }
        }
        rows[w..].copy_from_slice(scratch);
        w
    }

    /// Grows one tree on `grad` / `hess` over the rows `0..n`. `leaf_value_of_row` receives the
    /// value of the leaf each training row ends in (what boosting adds to its raw score).
    pub fn grow(&self, grad: &[f64], hess: &[f64], leaf_value_of_row: &mut [f64]) -> Grown {
        let p = self.params;
        let n = grad.len();
        let mut rows: Vec<u32> = (0..n as u32).collect();
        let mut scratch: Vec<u32> = Vec::with_capacity(n);
        let mut nodes = vec![TreeNode::EMPTY_LEAF];
        let mut gains = vec![0.0; self.n_features];
        let root_hist = self.build_hist(&rows, grad, hess);
        let mut open = vec![self.open(0, 0, n, 0, root_hist)];
        let mut closed: Vec<OpenLeaf> = Vec::new();
        let mut leaves = 1;
        while leaves < p.max_leaf_nodes {
            // The open leaf with the largest gain (lowest node id on ties).
            let Some(k) = (0..open.len())
                .filter_map(|k| open[k].split.map(|s| (k, s.gain)))
                .max_by(|&(a, ga), &(b, gb)| {
                    ga.total_cmp(&gb).then(open[b].node.cmp(&open[a].node))
                })
                .map(|(k, _)| k)
            else {
                break;
            };
            let leaf = open.swap_remove(k);
            let s = leaf.split.expect("filtered");
            gains[s.feature] += s.gain;
            let mid = self.partition(&mut rows[leaf.start..leaf.end], &mut scratch, s) + leaf.start;
            let (l_start, r_end) = (leaf.start, leaf.end);
            let (li, ri) = (nodes.len(), nodes.len() + 1);
            nodes.push(TreeNode::EMPTY_LEAF);
            nodes.push(TreeNode::EMPTY_LEAF);
            nodes[leaf.node] = TreeNode {
                feature: s.feature as u32,
                bin: s.bin as u16,
                threshold: self.mapper.edge(s.feature, s.bin),
                left: li as u32,
                right: ri as u32,
                value: 0.0,
            };
            // Build the smaller child's histogram; the larger is the parent's minus it.
            let left_small = mid - l_start <= r_end - mid;
            let small_rows = if left_small {
                &rows[l_start..mid]
            } else {
                &rows[mid..r_end]
            };
            let small = self.build_hist(small_rows, grad, hess);
            let mut large = leaf.hist;
            for (a, b) in large.iter_mut().zip(&small) {
                a.g -= b.g;
                a.h -= b.h;
                a.n -= b.n;
            }
            let (lh, rh) = if left_small {
                (small, large)
            } else {
                (large, small)
            };
            let d = leaf.depth + 1;
            open.push(self.open(li, l_start, mid, d, lh));
            open.push(self.open(ri, mid, r_end, d, rh));
            leaves += 1;
        }
        closed.extend(open);
        for leaf in closed {
            let value = -p.learning_rate * leaf.g / (leaf.h + p.l2_regularization);
            nodes[leaf.node].value = value;
            for &r in &rows[leaf.start..leaf.end] {
                leaf_value_of_row[r as usize] = value;
            }
        }
        Grown { nodes, gains }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ml::gbt::GbtParams;
    use linfa::ParamGuard;
    use ndarray::Array2;

    fn grower_for<'a>(
        binned: &'a [u16],
        nf: usize,
        mapper: &'a BinMapper,
        params: &'a GbtValidParams,
    ) -> Grower<'a> {
        Grower {
            binned,
            n_features: nf,
            mapper,
            params,
        }
    }

    #[test]
    fn a_split_gain_worked_by_hand() {
        // One feature with values 0, 1, 2, 3 (four bins); gradients -1, -1, +1, +1, unit
        // hessians, no L2. Parent G = 0, H = 4. After bin 1: G_L = -2, H_L = 2, G_R = 2,
        // H_R = 2: gain 4/2 + 4/2 - 0 = 4. After bin 0 or 2: 1/1 + 1/3 = 4/3. So the split
        // is after bin 1 (threshold 1.5) with gain 4, and the leaves get -lr * G / H = +-lr.
        let x = Array2::from_shape_vec((4, 1), vec![0.0, 1.0, 2.0, 3.0]).unwrap();
        let mapper = BinMapper::fit(x.view(), 255);
        let binned = mapper.transform(x.view());
        let params = GbtParams::new()
            .learning_rate(0.5)
            .max_leaf_nodes(2)
            .min_samples_leaf(1)
            .l2_regularization(0.0)
            .check()
            .unwrap();
        let grower = grower_for(&binned, 1, &mapper, &params);
        let mut leaf_of_row = vec![0.0; 4];
        let grown = grower.grow(&[-1.0, -1.0, 1.0, 1.0], &[1.0; 4], &mut leaf_of_row);
        let root = &grown.nodes[0];
        assert_eq!((root.feature, root.bin, root.threshold), (0, 1, 1.5));
        assert!((grown.gains[0] - 4.0).abs() < 1e-12, "{:?}", grown.gains);
        assert_eq!(grown.nodes[root.left as usize].value, 0.5);
        assert_eq!(grown.nodes[root.right as usize].value, -0.5);
        assert_eq!(leaf_of_row, vec![0.5, 0.5, -0.5, -0.5]);
    }

    /// A small deterministic generator for the random data below.
    fn lcg(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn every_split_is_the_best_one_and_every_leaf_the_mean_of_its_rows() {
        // Histogram subtraction builds one child's histogram from its parent's: if it were
        // wrong, splits below the root would differ from a brute-force search over the rows
        // that reach each node, and leaf values from the rows' own sums.
        for seed in 1..=5u64 {
            let mut s = seed;
            let (n, nf) = (300, 3);
            let x = Array2::from_shape_fn((n, nf), |_| (lcg(&mut s) * 8.0).floor());
            let grad: Vec<f64> = (0..n).map(|_| lcg(&mut s) * 2.0 - 1.0).collect();
            let hess: Vec<f64> = (0..n).map(|_| 0.1 + lcg(&mut s)).collect();
            let mapper = BinMapper::fit(x.view(), 255);
            let binned = mapper.transform(x.view());
            let (lr, lambda, msl) = (0.3, 1.0, 5);
            let params = GbtParams::new()
                .learning_rate(lr)
                .max_leaf_nodes(8)
                .min_samples_leaf(msl)
                .l2_regularization(lambda)
                .check()
                .unwrap();
            let grower = grower_for(&binned, nf, &mapper, &params);
            let mut leaf_of_row = vec![f64::NAN; n];
            let grown = grower.grow(&grad, &hess, &mut leaf_of_row);
            let nodes = &grown.nodes;
            // The rows reaching each node, by walking the tree on the bins (per feature).
            let local = |r: usize, f: usize| binned[r * nf + f] as usize - mapper.offsets[f];
            let mut reach: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
            for (r, &leaf_value) in leaf_of_row.iter().enumerate() {
                let mut i = 0;
                loop {
                    reach[i].push(r);
                    let nd = &nodes[i];
                    if nd.is_leaf() {
                        assert_eq!(leaf_value, nd.value);
                        break;
                    }
                    i = if local(r, nd.feature as usize) <= nd.bin as usize {
                        nd.left as usize
                    } else {
                        nd.right as usize
                    };
                }
            }
            let term = |g: f64, h: f64| g * g / (h + lambda);
            for (i, nd) in nodes.iter().enumerate() {
                let rows = &reach[i];
                let (g, h) = rows
                    .iter()
                    .fold((0.0, 0.0), |(g, h), &r| (g + grad[r], h + hess[r]));
                if nd.is_leaf() {
                    let want = -lr * g / (h + lambda);
                    assert!((nd.value - want).abs() < 1e-12, "seed {seed} leaf {i}");
                    continue;
                }
                let mut best = (f64::NEG_INFINITY, 0, 0);
                for f in 0..nf {
                    for b in 0..mapper.n_bins(f) - 1 {
                        let left: Vec<usize> =
                            rows.iter().copied().filter(|&r| local(r, f) <= b).collect();
                        let nl = left.len();
                        if nl < msl || rows.len() - nl < msl {
                            continue;
                        }
                        let (gl, hl) = left
                            .iter()
                            .fold((0.0, 0.0), |(g, h), &r| (g + grad[r], h + hess[r]));
                        let gain = term(gl, hl) + term(g - gl, h - hl) - term(g, h);
                        if gain > best.0 {
                            best = (gain, f, b);
                        }
                    }
                }
                assert_eq!(
                    (nd.feature as usize, nd.bin as usize),
                    (best.1, best.2),
                    "seed {seed} node {i}"
                );
            }
            assert!(
                nodes.iter().filter(|n| n.is_leaf()).count() > 2,
                "seed {seed}: a real tree"
            );
        }
    }
}
