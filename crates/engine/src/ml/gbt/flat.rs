//! Trees flattened for inference. Every tree is laid out as a complete binary tree of the
//! forest's depth (a shallower leaf is pushed down by splits that always go left), so a row
//! walks each tree in exactly `depth` branch-free steps: `i = 2i + 1 + (x[f] > t)`. Trees of
//! one iteration are walked side by side so the CPU overlaps their memory loads.

use super::tree::TreeNode;

/// Depths above this fall back to pointer walking (a complete tree of depth d has 2^d leaves).
pub(crate) const MAX_COMPLETE_DEPTH: usize = 12;

/// A forest ready for fast prediction. Rebuilt from the trees when a model is loaded.
#[derive(Clone, Debug)]
pub(crate) enum FlatForest {
    Complete(Complete),
    Pointer(Pointer),
}

#[derive(Clone, Debug)]
pub(crate) struct Complete {
    depth: usize,
    n_classes: usize,
    n_features: usize,
    total_bins: usize,
    offsets: Vec<usize>,
    n_bins: Vec<usize>,
    n_trees: usize,
    /// Per tree `2^depth - 1` splits, breadth-first. A split is the index of a test "bin of
    /// feature f > b" in a row's test table (see [`FlatForest::tests`]); rows passing it go
    /// right. Padding splits point at the table's last entry, which is always 0 (left).
    split: Vec<u16>,
    /// Per tree `2^depth` leaf values.
    leaf: Vec<f32>,
}

#[derive(Clone, Debug)]
pub(crate) struct Pointer {
    n_classes: usize,
    trees: Vec<Vec<TreeNode>>,
}

fn depth_of(nodes: &[TreeNode], i: usize) -> usize {
    let n = &nodes[i];
    if n.is_leaf() {
        0
    } else {
        1 + depth_of(nodes, n.left as usize).max(depth_of(nodes, n.right as usize))
    }
}

impl FlatForest {
    /// Flattens `trees` (iteration-major: tree `t` belongs to class `t % n_classes`).
    /// Flattens `trees` whose bins are laid out as in `mapper`.
    pub fn new(trees: &[Vec<TreeNode>], n_classes: usize, mapper: &super::BinMapper) -> FlatForest {
        let n_features = mapper.n_features();
        let depth = trees
            .iter()
            .map(|t| depth_of(t, 0))
            .max()
            .unwrap_or(0)
            .max(1);
        if depth > MAX_COMPLETE_DEPTH || mapper.total_bins() >= u16::MAX as usize {
            return FlatForest::Pointer(Pointer {
                n_classes,
                trees: trees.to_vec(),
            });
        }
        let inner = (1usize << depth) - 1;
        let leaves = 1usize << depth;
        let mut c = Complete {
            depth,
            n_classes,
            n_features,
            total_bins: mapper.total_bins(),
            offsets: mapper.offsets.clone(),
            n_bins: (0..n_features).map(|f| mapper.n_bins(f)).collect(),
            n_trees: trees.len(),
            split: vec![mapper.total_bins() as u16; inner * trees.len()],
            leaf: vec![0.0; leaves * trees.len()],
        };
        for (t, nodes) in trees.iter().enumerate() {
            // (node in the grown tree, slot in the complete tree, level)
            let mut stack = vec![(0usize, 0usize, 0usize)];
            while let Some((i, slot, level)) = stack.pop() {
                let n = &nodes[i];
                if level == depth {
                    c.leaf[t * leaves + slot - inner] = n.value as f32;
                } else if n.is_leaf() {
                    // Always left (the table's last entry is 0) down to the bottom level.
                    stack.push((i, 2 * slot + 1, level + 1));
                } else {
                    c.split[t * inner + slot] =
                        (mapper.offsets[n.feature as usize] + n.bin as usize) as u16;
                    stack.push((n.left as usize, 2 * slot + 1, level + 1));
                    stack.push((n.right as usize, 2 * slot + 2, level + 1));
                }
            }
        }
        FlatForest::Complete(c)
    }

    /// Adds every tree's output for the binned row `x` to `raw` (one slot per class).
    #[inline]
    pub(crate) fn add_raw(&self, x: &[u8], raw: &mut [f64]) {
        match self {
            FlatForest::Complete(c) => c.add_raw(x, raw),
            FlatForest::Pointer(p) => {
                for (t, nodes) in p.trees.iter().enumerate() {
                    let mut i = 0;
                    while !nodes[i].is_leaf() {
                        let n = &nodes[i];
                        i = if x[n.feature as usize] <= n.bin as u8 {
                            n.left as usize
                        } else {
                            n.right as usize
                        };
                    }
                    raw[t % p.n_classes] += nodes[i].value;
                }
            }
        }
    }

    /// Adds the trees' outputs for a block of rows (`x` row-major, `nf` values per row) to
    /// `raw` (row-major, one slot per class): tree by tree, so each tree stays in cache while
    /// the rows' walks overlap.
    pub(crate) fn add_raw_block(&self, x: &[u8], nf: usize, raw: &mut [f64]) {
        match self {
            FlatForest::Complete(c) => c.add_raw_block(x, nf, raw),
            FlatForest::Pointer(p) => {
                for (r, row) in x.chunks_exact(nf).enumerate() {
                    let k = p.n_classes;
                    self.add_raw(row, &mut raw[r * k..(r + 1) * k]);
                }
            }
        }
    }
}

/// Walks `L` trees (or `L` rows) side by side down complete trees of depth `D`: level by
/// level, so the `L` independent loads of each level overlap. Returns the leaf slots.
///
/// # Safety
/// Each `split[l]` points at `2^D - 1` entries that index into the test table `x[l]`.
#[inline(always)]
unsafe fn walk<const D: usize, const L: usize>(
    split: [*const u16; L],
    x: [*const u8; L],
) -> [usize; L] {
    let mut idx = [0usize; L];
    for _ in 0..D {
        for l in 0..L {
            // SAFETY: idx[l] < 2^D - 1 at every step; features were checked against the row.
            let s = unsafe { *split[l].add(idx[l]) };
            // SAFETY: `s` is a feature index of the model, below the row's length (checked).
            let v = unsafe { *x[l].add(usize::from(s)) };
            idx[l] = 2 * idx[l] + 1 + usize::from(v);
        }
    }
    idx.map(|i| i - ((1 << D) - 1))
}

macro_rules! by_depth {
    ($depth:expr, $f:ident, $($arg:expr),*) => {
        match $depth {
            1 => $f::<1>($($arg),*), 2 => $f::<2>($($arg),*), 3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*), 5 => $f::<5>($($arg),*), 6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*), 8 => $f::<8>($($arg),*), 9 => $f::<9>($($arg),*),
            10 => $f::<10>($($arg),*), 11 => $f::<11>($($arg),*), _ => $f::<12>($($arg),*),
        }
    };
}

fn row_d<const D: usize>(c: &Complete, x: &[u8], raw: &mut [f64]) {
    const L: usize = 16;
    let inner = (1usize << D) - 1;
    let leaves = inner + 1;
    let k = c.n_classes;
    assert!(raw.len() >= k && c.split.len() >= c.n_trees * inner);
    let (sp, xp) = (c.split.as_ptr(), x.as_ptr());
    let mut t = 0;
    while t + L <= c.n_trees {
        // SAFETY: trees t..t+L exist; each owns split[t*inner..(t+1)*inner].
        let ls = unsafe { walk::<D, L>(std::array::from_fn(|l| sp.add((t + l) * inner)), [xp; L]) };
        for (l, leaf) in ls.into_iter().enumerate() {
            raw[(t + l) % k] += f64::from(c.leaf[(t + l) * leaves + leaf]);
        }
        t += L;
    }
    for t in t..c.n_trees {
        // SAFETY: as above, one tree.
        let [leaf] = unsafe { walk::<D, 1>([sp.add(t * inner)], [xp]) };
        raw[t % k] += f64::from(c.leaf[t * leaves + leaf]);
    }
}

fn block_d<const D: usize>(c: &Complete, x: &[u8], nf: usize, raw: &mut [f64]) {
    const L: usize = 16;
    let inner = (1usize << D) - 1;
    let leaves = inner + 1;
    let rows = x.len() / nf;
    let k = c.n_classes;
    assert!(raw.len() >= rows * k && c.split.len() >= c.n_trees * inner);
    let xp = x.as_ptr();
    for t in 0..c.n_trees {
        // SAFETY: tree t exists.
        let sp = unsafe { c.split.as_ptr().add(t * inner) };
        let leaf = &c.leaf[t * leaves..(t + 1) * leaves];
        let class = t % k;
        let mut r = 0;
        while r + L <= rows {
            // SAFETY: rows r..r+L lie inside x (rows * nf <= x.len()).
            let ls =
                unsafe { walk::<D, L>([sp; L], std::array::from_fn(|l| xp.add((r + l) * nf))) };
            for (l, i) in ls.into_iter().enumerate() {
                raw[(r + l) * k + class] += f64::from(leaf[i]);
            }
            r += L;
        }
        for r in r..rows {
            // SAFETY: row r lies inside x.
            let [i] = unsafe { walk::<D, 1>([sp], [xp.add(r * nf)]) };
            raw[r * k + class] += f64::from(leaf[i]);
        }
    }
}

impl Complete {
    /// Expands one row of bins into its test table: entry `offset[f] + b` is 1 when the row's
    /// bin of feature `f` is greater than `b`; the extra last entry stays 0.
    #[inline]
    fn tests(&self, bins: &[u8], table: &mut [u8]) {
        for (f, &bin) in bins.iter().enumerate().take(self.n_features) {
            let (o, nb, b) = (self.offsets[f], self.n_bins[f], usize::from(bin));
            for (j, t) in table[o..o + nb].iter_mut().enumerate() {
                *t = u8::from(b > j);
            }
        }
        table[self.total_bins] = 0;
    }

    #[inline]
    fn add_raw(&self, x: &[u8], raw: &mut [f64]) {
        assert!(
            x.len() >= self.n_features,
            "row shorter than the feature count"
        );
        let mut stack = [0u8; 1024];
        let mut heap = Vec::new();
        let table: &mut [u8] = if self.total_bins < 1024 {
            &mut stack[..self.total_bins + 1]
        } else {
            heap.resize(self.total_bins + 1, 0);
            &mut heap
        };
        self.tests(x, table);
        by_depth!(self.depth, row_d, self, table, raw)
    }

    fn add_raw_block(&self, x: &[u8], nf: usize, raw: &mut [f64]) {
        assert!(nf >= self.n_features, "rows shorter than the feature count");
        let rows = x.len() / nf;
        let w = self.total_bins + 1;
        let mut tables = vec![0u8; rows * w];
        for r in 0..rows {
            self.tests(&x[r * nf..(r + 1) * nf], &mut tables[r * w..(r + 1) * w]);
        }
        by_depth!(self.depth, block_d, self, &tables, w, raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ml::gbt::BinMapper;

    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    /// A random tree of at most `depth` levels over features with `bins[f]` bins each.
    fn random_tree(s: &mut u64, bins: &[usize], depth: usize, nodes: &mut Vec<TreeNode>) {
        fn grow(s: &mut u64, bins: &[usize], depth: usize, nodes: &mut Vec<TreeNode>, i: usize) {
            // Always split at the root of a deep tree's spine, so depths above
            // MAX_COMPLETE_DEPTH really occur; elsewhere split two times in three.
            if depth == 0 || (i != 0 && lcg(s).is_multiple_of(3) && nodes.len() > 1) {
                nodes[i].value = (lcg(s) % 2001) as f64 / 1000.0 - 1.0;
                return;
            }
            let f = (lcg(s) as usize) % bins.len();
            let b = (lcg(s) as usize) % (bins[f] - 1);
            let (l, r) = (nodes.len(), nodes.len() + 1);
            nodes.push(TreeNode::EMPTY_LEAF);
            nodes.push(TreeNode::EMPTY_LEAF);
            nodes[i] = TreeNode {
                feature: f as u32,
                bin: b as u16,
                threshold: 0.0,
                left: l as u32,
                right: r as u32,
                value: 0.0,
            };
            // The left child continues the spine to full depth; the right one is random.
            grow(s, bins, depth - 1, nodes, l);
            let right_depth = if lcg(s).is_multiple_of(2) {
                depth - 1
            } else {
                1
            };
            grow(s, bins, right_depth, nodes, r);
        }
        nodes.clear();
        nodes.push(TreeNode::EMPTY_LEAF);
        grow(s, bins, depth, nodes, 0);
    }

    /// The plain node walk every layout must agree with.
    fn naive(trees: &[Vec<TreeNode>], k: usize, x: &[u8]) -> Vec<f64> {
        let mut raw = vec![0.0; k];
        for (t, nodes) in trees.iter().enumerate() {
            let mut i = 0;
            while !nodes[i].is_leaf() {
                let n = &nodes[i];
                i = if usize::from(x[n.feature as usize]) <= n.bin as usize {
                    n.left as usize
                } else {
                    n.right as usize
                };
            }
            raw[t % k] += nodes[i].value;
        }
        raw
    }

    #[test]
    fn complete_pointer_and_naive_walks_agree_on_random_trees() {
        let mut s = 7u64;
        let mut layouts = (0, 0);
        for case in 0..60 {
            let nf = 1 + case % 5;
            let bins: Vec<usize> = (0..nf).map(|_| 2 + (lcg(&mut s) as usize) % 30).collect();
            let edges: Vec<Vec<f64>> = bins
                .iter()
                .map(|&b| (0..b - 1).map(|e| e as f64 + 0.5).collect())
                .collect();
            let mut offsets = Vec::new();
            let mut total = 0;
            for &b in &bins {
                offsets.push(total);
                total += b;
            }
            let mapper = BinMapper { edges, offsets };
            let k = 1 + case % 3;
            // Depths up to 15: above MAX_COMPLETE_DEPTH the forest walks pointers.
            let depth = 1 + case % 15;
            let trees: Vec<Vec<TreeNode>> = (0..k * (1 + case % 4))
                .map(|_| {
                    let mut nodes = Vec::new();
                    random_tree(&mut s, &bins, depth, &mut nodes);
                    nodes
                })
                .collect();
            let forest = FlatForest::new(&trees, k, &mapper);
            match forest {
                FlatForest::Complete(_) => layouts.0 += 1,
                FlatForest::Pointer(_) => layouts.1 += 1,
            }
            let rows = 37;
            let x: Vec<u8> = (0..rows * nf)
                .map(|i| ((lcg(&mut s) as usize) % bins[i % nf]) as u8)
                .collect();
            let mut block = vec![0.0; rows * k];
            forest.add_raw_block(&x, nf, &mut block);
            for r in 0..rows {
                let row = &x[r * nf..(r + 1) * nf];
                let want = naive(&trees, k, row);
                let mut one = vec![0.0; k];
                forest.add_raw(row, &mut one);
                for c in 0..k {
                    // The complete layout stores leaves as f32.
                    assert!((one[c] - want[c]).abs() < 1e-5, "case {case} row {r}");
                    assert!(
                        (block[r * k + c] - want[c]).abs() < 1e-5,
                        "case {case} row {r}"
                    );
                }
            }
        }
        assert!(
            layouts.0 > 0 && layouts.1 > 0,
            "both layouts exercised: {layouts:?}"
        );
    }
}
