//! The reference Monte Carlo tree search agent: UCT (Kocsis and Szepesvari, 2006) with
//! uniformly random rollouts, and wins and losses proven at terminal nodes passed up the
//! tree. It is the baseline other frameworks use (AlphaZero.jl's and OpenSpiel's MCTS bots),
//! and nobody tuned it here, so it shows strength against an outside yardstick.

use super::{Agent, Turn};
use crate::eval::{MonteCarlo, PlayoutPolicy, PlayoutRng};
use crate::game::{BitBoard, Position};

/// Default simulations per move.
pub(crate) const DEFAULT_SIMS: u32 = 1000;
/// Default exploration constant (sqrt(2), UCB1's).
pub(crate) const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// A proven result for the player who moved into a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Win,
    Loss,
}

struct Node {
    /// The column that led here (from the parent).
    col: usize,
    /// Children, as indices into the tree.
    children: Vec<u32>,
    /// Legal columns not yet expanded.
    untried: Vec<usize>,
    visits: u32,
    /// Sum of results for the player who moved into this node (1 win, 0.5 draw, 0 loss).
    reward: f64,
    proof: Option<Proof>,
}

/// UCT with random rollouts, on boards of any integer (`MctsAgent` alone: 64-bit boards).
pub struct MctsAgent<B: BitBoard = u64> {
    name: String,
    sims: u32,
    c: f64,
    rng: PlayoutRng,
    rollouts: Option<MonteCarlo<B>>,
    /// The one-move rule at the root: take an immediate win, never hand one over.
    safe: bool,
    /// Polled every few simulations: when it fires, the move is the best found so far.
    interrupt: Option<crate::Interrupt>,
}

impl<B: BitBoard> MctsAgent<B> {
    /// An agent running `sims` simulations per move with exploration constant `c`, its
    /// rollouts and tie breaks drawn from `seed`.
    pub fn new(name: impl Into<String>, sims: u32, c: f64, seed: u64) -> Self {
        MctsAgent {
            name: name.into(),
            sims: sims.max(1),
            c,
            rng: PlayoutRng::new(seed),
            rollouts: None,
            safe: false,
            interrupt: None,
        }
    }

    /// The same agent with the one-move rule at the root (`mcts:safe=true`): an immediate
    /// win is played at once, and moves that hand the opponent one are never searched
    /// (unless every move does).
    pub(crate) fn with_safe(mut self, safe: bool) -> Self {
        self.safe = safe;
        self
    }

    fn node(pos: &Position<B>, col: usize, rng: &mut PlayoutRng) -> Node {
        let mut untried: Vec<usize> = if pos.last_move_won() || pos.is_full() {
            Vec::new()
        } else {
            pos.legal_columns().collect()
        };
        // Expansion order is random, so ties between untried moves do not favour a column.
        for i in (1..untried.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            untried.swap(i, j);
        }
        let proof = pos.last_move_won().then_some(Proof::Win);
        Node {
            col,
            children: Vec::new(),
            untried,
            visits: 0,
            reward: 0.0,
            proof,
        }
    }

    /// The column to play from `root`.
    fn search(&mut self, root: &Position<B>) -> usize {
        let mc = self
            .rollouts
            .get_or_insert_with(|| MonteCarlo::new(root.geometry(), 1, PlayoutPolicy::Uniform, 0))
            .clone();
        let mut tree = vec![Self::node(root, usize::MAX, &mut self.rng)];
        if self.safe {
            let g = root.geometry();
            let wins = root.winning_cells() & root.possible();
            if let Some(c) = g
                .centre_order()
                .find(|&c| wins & g.column_mask(c) != B::ZERO)
            {
                return c;
            }
            let safe = root.possible_non_losing_moves();
            if safe != B::ZERO {
                tree[0]
                    .untried
                    .retain(|&c| safe & g.column_mask(c) != B::ZERO);
            }
        }
        // The root is never terminal (agents are asked only in open positions).
        let ln_c = self.c;
        for sim in 0..self.sims {
            if tree[0].proof.is_some() {
                break;
            }
            // A simulation costs about a microsecond: reading the clock every 64 keeps a
            // time limit within a fraction of a millisecond.
            if sim & 63 == 0
                && self
                    .interrupt
                    .as_ref()
                    .is_some_and(crate::Interrupt::should_stop)
            {
                break;
            }
            let mut path = vec![0u32];
            let mut pos = *root;
            // Selection: down fully expanded, unproven nodes by UCB1.
            loop {
                let n = &tree[*path.last().expect("the root") as usize];
                if n.proof.is_some() || !n.untried.is_empty() || n.children.is_empty() {
                    break;
                }
                let ln_n = (n.visits.max(1) as f64).ln();
                let mut best = (f64::NEG_INFINITY, 0u32);
                for &ch in &n.children {
                    let c = &tree[ch as usize];
                    let u = match c.proof {
                        Some(Proof::Win) => f64::INFINITY,
                        Some(Proof::Loss) => f64::NEG_INFINITY,
                        None => c.reward / c.visits as f64 + ln_c * (ln_n / c.visits as f64).sqrt(),
                    };
                    if u > best.0 {
                        best = (u, ch);
                    }
                }
                if best.0 == f64::NEG_INFINITY {
                    // Every child is a proven loss for its mover: take the first, the
                    // backup below proves this node.
                    best.1 = n.children[0];
                }
                pos.play_col(tree[best.1 as usize].col);
                path.push(best.1);
            }
            // Expansion.
            let leaf = *path.last().expect("a leaf") as usize;
            let leaf = if tree[leaf].proof.is_none() {
                if let Some(col) = tree[leaf].untried.pop() {
                    pos.play_col(col);
                    let child = Self::node(&pos, col, &mut self.rng);
                    let idx = tree.len() as u32;
                    tree.push(child);
                    tree[leaf].children.push(idx);
                    path.push(idx);
                    idx as usize
                } else {
                    leaf
                }
            } else {
                leaf
            };
            // Simulation: the result for the player who moved into the leaf.
            let result = match tree[leaf].proof {
                Some(Proof::Win) => 1.0,
                Some(Proof::Loss) => 0.0,
                None if pos.is_full() => 0.5,
                // The rollout's result is for the side to move at the leaf: the other one.
                None => 0.5 - 0.5 * mc.playout(&pos, &mut self.rng) as f64,
            };
            // Backup, flipping the point of view at each level, and proofs upward.
            let mut r = result;
            for (depth, &idx) in path.iter().enumerate().rev() {
                let n = &mut tree[idx as usize];
                n.visits += 1;
                n.reward += r;
                r = 1.0 - r;
                if depth + 1 < path.len() {
                    let proof = {
                        let n = &tree[idx as usize];
                        let kids = n.children.iter().map(|&c| tree[c as usize].proof);
                        if kids.clone().any(|p| p == Some(Proof::Win)) {
                            Some(Proof::Loss)
                        } else if n.untried.is_empty()
                            && kids.clone().all(|p| p == Some(Proof::Loss))
                        {
                            Some(Proof::Win)
                        } else {
                            None
                        }
                    };
                    if proof.is_some() {
                        tree[idx as usize].proof = proof;
                    }
                }
            }
        }
        let root_node = &tree[0];
        let mut best: Option<(f64, usize)> = None;
        for &ch in &root_node.children {
            let c = &tree[ch as usize];
            let key = match c.proof {
                Some(Proof::Win) => f64::INFINITY,
                Some(Proof::Loss) => -1.0,
                None => c.visits as f64,
            };
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, c.col));
            }
        }
        // Stopped before the first expansion: the first move the root would have tried.
        best.map_or_else(
            || {
                tree[0]
                    .untried
                    .last()
                    .copied()
                    .unwrap_or_else(|| root.legal_columns().next().expect("a legal column"))
            },
            |(_, col)| col,
        )
    }
}

impl<B: BitBoard> Agent<B> for MctsAgent<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn<B>) -> usize {
        self.search(&turn.position)
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.interrupt = interrupt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Geometry;

    #[test]
    fn the_one_move_rule_holds_even_with_one_simulation() {
        let g = Geometry::STANDARD;
        let mut a = MctsAgent::new("mcts", 1, DEFAULT_C, 1).with_safe(true);
        // x wins in column 1 at once; o must block column 1.
        assert_eq!(
            a.choose(&Turn::new(Position::from_moves(g, "121212").unwrap())),
            0
        );
        assert_eq!(
            a.choose(&Turn::new(Position::from_moves(g, "12121").unwrap())),
            0
        );
    }

    #[test]
    fn takes_a_win_and_blocks_a_loss() {
        let g = Geometry::STANDARD;
        // x has three in column 1 and wins there.
        let p = Position::from_moves(g, "121212").unwrap();
        let mut a = MctsAgent::new("mcts", 200, DEFAULT_C, 1);
        assert_eq!(a.choose(&Turn::new(p)), 0);
        // o must block column 1.
        let p = Position::from_moves(g, "12121").unwrap();
        assert_eq!(a.choose(&Turn::new(p)), 0);
    }

    #[test]
    fn beats_random_play() {
        let g = Geometry::STANDARD;
        let mut wins = 0;
        for seed in 0..6 {
            let mut m = MctsAgent::new("mcts", 300, DEFAULT_C, seed);
            let mut r = crate::agents::RandomAgent::new("random", seed);
            let mcts_first = seed % 2 == 0;
            let mut pos = Position::new(g);
            let mut mcts_to_move = mcts_first;
            loop {
                let a: &mut dyn Agent = if mcts_to_move { &mut m } else { &mut r };
                pos.play_col(a.choose(&Turn::new(pos)));
                if pos.last_move_won() {
                    wins += usize::from(mcts_to_move);
                    break;
                }
                if pos.is_full() {
                    break;
                }
                mcts_to_move = !mcts_to_move;
            }
        }
        assert!(wins >= 5, "{wins} of 6");
    }

    #[test]
    fn an_interrupt_stops_any_number_of_simulations() {
        let g = Geometry::STANDARD;
        let p = Position::from_moves(g, "4453").unwrap();
        // Fired before the first simulation: still a legal move, found at once.
        let mut a = MctsAgent::new("mcts", u32::MAX, DEFAULT_C, 1);
        let stop = crate::Interrupt::new();
        stop.cancel();
        a.set_interrupt(Some(stop));
        assert!(p.can_play(a.choose(&Turn::new(p))));
        // A deadline ends four billion simulations (without it this test would not end).
        let mut a = MctsAgent::new("mcts", u32::MAX, DEFAULT_C, 1).with_safe(true);
        a.set_interrupt(Some(crate::Interrupt::after(
            std::time::Duration::from_millis(50),
        )));
        assert!(p.can_play(a.choose(&Turn::new(p))));
    }
}
