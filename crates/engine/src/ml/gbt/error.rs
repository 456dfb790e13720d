//! The errors of the gradient-boosted trees, in one place so that the hyperparameters, the
//! training and the model need not import each other.

use thiserror::Error;

/// Errors of the gradient-boosted trees: invalid hyperparameters and unusable data.
#[derive(Debug, Error)]
pub enum GbtError {
    /// learning_rate must be in (0, 10].
    #[error("learning_rate must be in (0, 10], got {0}")]
    LearningRate(f64),
    /// max_iter must be at least 1.
    #[error("max_iter must be at least 1, got {0}")]
    MaxIter(usize),
    /// max_leaf_nodes must be at least 2.
    #[error("max_leaf_nodes must be at least 2, got {0}")]
    MaxLeafNodes(usize),
    /// max_depth must be at least 1.
    #[error("max_depth must be at least 1, got {0}")]
    MaxDepth(usize),
    /// min_samples_leaf must be at least 1.
    #[error("min_samples_leaf must be at least 1, got {0}")]
    MinSamplesLeaf(usize),
    /// l2_regularization must be finite and >= 0.
    #[error("l2_regularization must be finite and >= 0, got {0}")]
    L2Regularization(f64),
    /// validation_fraction must be in (0, 1) when early stopping is on.
    #[error("validation_fraction must be in (0, 1) with early stopping, got {0}")]
    ValidationFraction(f64),
    /// max_bins must be in 2..=255.
    #[error("max_bins must be in 2..=255, got {0}")]
    MaxBins(usize),
    /// n_iter_no_change must be at least 1.
    #[error("n_iter_no_change must be at least 1, got {0}")]
    NIterNoChange(usize),
    /// The data set cannot be trained on.
    #[error("bad training data: {0}")]
    Data(#[from] DataError),
    /// The fitted parts do not make a model (a bug, if it ever happens).
    #[error(transparent)]
    Model(#[from] GbtModelError),
    /// An error from linfa itself.
    #[error(transparent)]
    Linfa(#[from] linfa::Error),
}

/// Why rows and labels cannot be trained on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DataError {
    /// Rows and labels differ in number.
    #[error("{rows} rows but {labels} labels")]
    Lengths {
        /// Rows.
        rows: usize,
        /// Labels.
        labels: usize,
    },
    /// Too few rows or no features.
    #[error("{rows} rows of {features} features: too few")]
    TooSmall {
        /// Rows.
        rows: usize,
        /// Features.
        features: usize,
    },
    /// More features than a tree node can name.
    #[error("{0} features: at most 65535")]
    TooManyFeatures(usize),
    /// A NaN or infinite value.
    #[error("row {row} feature {feature} is not a finite number")]
    NotFinite {
        /// Row index.
        row: usize,
        /// Feature index.
        feature: usize,
    },
    /// Every label is the same class.
    #[error("a single class: nothing to learn")]
    SingleClass,
    /// The evaluation rows do not fit the training rows.
    #[error("evaluation set does not match the training data")]
    EvalMismatch,
    /// A label past the classes the fit was asked for.
    #[error("label {label} is past the {classes} classes asked for")]
    LabelOutOfRange {
        /// The label.
        label: usize,
        /// Classes asked for.
        classes: usize,
    },
}

/// Why stored parts do not make a usable model (a damaged or hand-made model file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GbtModelError {
    /// Classes, baseline values and trees disagree.
    #[error("inconsistent model: {classes} classes, {baseline} baseline values, {trees} trees")]
    Shape {
        /// Classes.
        classes: usize,
        /// Baseline values.
        baseline: usize,
        /// Trees.
        trees: usize,
    },
    /// The binning does not match the feature count (or has too many bins).
    #[error("bin edges do not match the feature count")]
    Bins,
    /// A tree without nodes.
    #[error("tree {tree} is empty")]
    EmptyTree {
        /// The tree's index.
        tree: usize,
    },
    /// A node whose children or feature lie outside the tree or the row.
    #[error("tree {tree} node {node} points outside the tree")]
    BadNode {
        /// The tree's index.
        tree: usize,
        /// The node's index.
        node: usize,
    },
    /// A split on a bin past the feature's last one.
    #[error("tree {tree} splits after the last bin")]
    BadSplit {
        /// The tree's index.
        tree: usize,
    },
    /// More features than the flat layout can index.
    #[error("{0} features: at most 65535")]
    TooManyFeatures(usize),
}
