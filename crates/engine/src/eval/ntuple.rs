//! An evaluator backed by an n-tuple network file: the network's value for the side to move,
//! in (-1, 1).

use super::{Contribution, EvalError, Evaluator, Explanation, from_first};
use crate::game::{BitBoard, Geometry, Position};
use crate::ml::ntuple::NTupleNetwork;
use std::path::Path;

/// An n-tuple network as an evaluator, on boards of any integer (`NTupleEvaluator` alone:
/// 64-bit boards).
#[derive(Clone, Debug)]
pub struct NTupleEvaluator<B: BitBoard = u64> {
    net: NTupleNetwork<B>,
    name: String,
}

impl<B: BitBoard> NTupleEvaluator<B> {
    /// Loads `path` for boards of `geom` (the file must be an n-tuple network for that
    /// board).
    pub fn load(path: &Path, geom: Geometry<B>) -> Result<Self, EvalError> {
        let network = crate::ml::model_file::load_ntuple_on(path, geom)?;
        Ok(Self::new(network, super::file_name(path)))
    }

    /// Wraps a network in memory, named `ntuple(NAME)`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, NTupleEvaluator};
    /// use connect4_engine::{Geometry, Position};
    /// use connect4_engine::ml::ntuple::NTupleNetwork;
    /// let net = NTupleNetwork::new(Geometry::STANDARD, Default::default()).unwrap();
    /// let e = NTupleEvaluator::new(net, "fresh");
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert_eq!(e.evaluate(&p), 0.0); // all weights start at zero
    /// ```
    pub fn new(net: NTupleNetwork<B>, name: impl AsRef<str>) -> Self {
        NTupleEvaluator {
            net,
            name: format!("ntuple({})", name.as_ref()),
        }
    }

    /// The network.
    pub fn network(&self) -> &NTupleNetwork<B> {
        &self.net
    }

    /// The value of `pos` with each tuple's share of the sum before the squash, signed for
    /// the side to move: the contributions and the bias (0) add up to `atanh(value)`. Each
    /// contribution is named by its cells (`t12 a1 a2 b3 ...`) and its value is the number
    /// of those cells that hold a stone.
    pub fn explain(&self, pos: &Position<B>) -> Explanation {
        let shares = self.net.contributions(pos);
        let contributions = self
            .net
            .tuples()
            .iter()
            .zip(shares)
            .enumerate()
            .map(|(i, (cells, share))| {
                let names: Vec<String> = cells
                    .iter()
                    .map(|&(c, r)| format!("{}{}", (b'a' + c) as char, r + 1))
                    .collect();
                let stones = cells
                    .iter()
                    .filter(|&&(c, r)| pos.cell(c as usize, r as usize).is_some())
                    .count();
                Contribution {
                    feature: format!("t{i} {}", names.join(" ")),
                    value: stones as f64,
                    contribution: from_first(pos, share as f64),
                }
            })
            .collect();
        Explanation {
            value: self.evaluate(pos),
            probabilities: None,
            scale: "sum before tanh",
            bias: 0.0,
            contributions,
        }
    }
}

impl<B: BitBoard> Evaluator<B> for NTupleEvaluator<B> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &Position<B>) -> f64 {
        from_first(pos, self.net.value(pos) as f64)
    }
}
