//! Seeded, stratified splits: every class keeps its share in each part.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Splits row indices `0..labels.len()` into (train, test) with about `test_fraction` of
/// every class in the test part. Same seed, same split. Both parts come back sorted.
pub fn stratified_split(
    labels: &[usize],
    test_fraction: f64,
    seed: u64,
) -> (Vec<usize>, Vec<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n_classes = labels.iter().copied().max().map_or(0, |m| m + 1);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for c in 0..n_classes {
        let mut idx: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == c).collect();
        idx.shuffle(&mut rng);
        let k = (idx.len() as f64 * test_fraction).round() as usize;
        test.extend_from_slice(&idx[..k]);
        train.extend_from_slice(&idx[k..]);
    }
    train.sort_unstable();
    test.sort_unstable();
    (train, test)
}

/// Deals row indices into `k` stratified folds (each class spread evenly), seeded. Each fold
/// comes back sorted.
pub fn stratified_folds(labels: &[usize], k: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n_classes = labels.iter().copied().max().map_or(0, |m| m + 1);
    let k = k.max(1);
    let mut folds = vec![Vec::new(); k];
    let mut next = 0;
    for c in 0..n_classes {
        let mut idx: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == c).collect();
        idx.shuffle(&mut rng);
        for i in idx {
            folds[next % k].push(i);
            next += 1;
        }
    }
    for f in &mut folds {
        f.sort_unstable();
    }
    folds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_class_shares_and_is_seeded() {
        let labels: Vec<usize> = (0..1000).map(|i| if i % 10 == 0 { 1 } else { 0 }).collect();
        let (train, test) = stratified_split(&labels, 0.2, 7);
        assert_eq!((train.len(), test.len()), (800, 200));
        assert_eq!(test.iter().filter(|&&i| labels[i] == 1).count(), 20);
        assert_eq!(stratified_split(&labels, 0.2, 7).1, test);
        assert_ne!(stratified_split(&labels, 0.2, 8).1, test);
        let folds = stratified_folds(&labels, 5, 1);
        assert!(folds.iter().all(|f| f.len() == 200));
        assert!(
            folds
                .iter()
                .all(|f| f.iter().filter(|&&i| labels[i] == 1).count() == 20)
        );
        let mut all: Vec<usize> = folds.concat();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
    }
}
