//! Seeds derived from seeds: every seeded job splits one user seed into many (a game, an
//! agent, a playout stream) with the SplitMix64 output function, so that each part gets a
//! well-spread, reproducible seed of its own. One implementation, used everywhere.

/// 2^64 divided by the golden ratio: SplitMix64's increment, spreading consecutive inputs.
pub(crate) const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Steele, Lea and Flood, 2014): a bijection of `u64` whose
/// outputs look independent even for consecutive inputs.
#[inline]
pub fn splitmix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The uses a seed is split into. Each use draws from its own stream, so that two uses of
/// one user seed never see the same random numbers, and adding a use changes no other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// A tournament game's random opening (parts: pairing, game pair).
    TournamentOpening,
    /// A tournament agent's own randomness (parts: pairing, game, seat).
    TournamentAgent,
    /// The bootstrap of a tournament's Elo intervals.
    TournamentElo,
    /// A self-play game's random opening (parts: game).
    SelfplayOpening,
    /// A self-play agent's own randomness (parts: game, seat).
    SelfplayAgent,
    /// The pipeline's shuffle of the self-play positions before its train/held-out cut.
    PipelineShuffle,
    /// LMS self-play: starting weights, openings and sampling.
    LmsSelfPlay,
    /// LMS evaluation matches during self-play (parts: match).
    LmsEvaluation,
    /// The common match that compares LMS restarts and grades a supervised fit.
    LmsCommonMatch,
    /// The supervised LMS fit's shuffle and held-out cut.
    LmsSupervised,
    /// Monte Carlo playouts of one evaluation (parts: position key).
    Playouts,
    /// `c4 bench playouts` (parts: thread).
    BenchPlayouts,
    /// Games that sample positions for the data engine (parts: game). Untagged: the shipped
    /// data/positions files were made before streams had names, and their documented
    /// commands must still make them byte for byte.
    SamplePositions,
    /// Games that make benchmark sets (parts: phase, game). Untagged, as the shipped
    /// data/bench sets depend on it.
    BenchSets,
    /// The random walks that choose an n-tuple network's cells.
    NTupleWalks,
    /// An n-tuple self-play game (parts: game).
    NTupleSelfPlay,
    /// The shuffles of the n-tuple trainer's supervised passes.
    NTupleSupervised,
    /// The n-tuple learning curve's matches.
    NTupleCurve,
    /// The MCTS agent's rollouts and tie breaks.
    Mcts,
    /// The games whose positions `c4 bench analyze` times (parts: game).
    BenchAnalyze,
    /// The perfect agent's random tie-breaks and random moves (parts: game seed).
    PerfectTies,
    /// Parallel n-tuple self-play: one stream per worker (parts: run seed, worker, game).
    NTupleWorker,
    /// The Python package's random boards from an int seed (no parts).
    RandomBoard,
    /// The leaves `c4 data book --verify` solves again (no parts).
    BookSample,
    /// The dial's draws among moves (`level`, and `adaptive` playing the dial).
    Level,
    /// The switching opponent's two agents.
    Switch,
    /// The guided openings of n-tuple self-play: which games are guided, their length and
    /// the solver's tie-breaks (parts: game).
    NTupleGuide,
    /// The openings and agent seeds of `c4 bench answers` (parts: game).
    AnswerTimes,
    /// The simulated players of a server load test (parts: player).
    LoadPlayers,
    /// A searching agent's draws among root moves of equal value, when asked to vary its
    /// play (parts: ply).
    SearchTies,
    /// The exploiting agent's draws among moves of equal chances (parts: game seed).
    Exploit,
}

impl Stream {
    /// The stream's first part, or `None` for the streams that predate names (see
    /// [`Stream::SamplePositions`]). The tournament's tags 1, 2, 3 are those it always used,
    /// so its results are unchanged.
    fn tag(self) -> Option<u64> {
        Some(match self {
            Stream::TournamentOpening => 1,
            Stream::TournamentAgent => 2,
            Stream::TournamentElo => 3,
            Stream::SelfplayOpening => 0x5e1f_0001,
            Stream::SelfplayAgent => 0x5e1f_0002,
            Stream::PipelineShuffle => 0xda7a,
            Stream::LmsSelfPlay => 0x1a5_0001,
            Stream::LmsEvaluation => 0x1a5_0002,
            Stream::LmsCommonMatch => 0x7e57,
            Stream::LmsSupervised => 0x1a5_0003,
            Stream::Playouts => 0x91a7_0001,
            Stream::BenchPlayouts => 0x91a7_0002,
            Stream::NTupleWalks => 0x7e_0001,
            Stream::NTupleSelfPlay => 0x7e_0002,
            Stream::NTupleSupervised => 0x7e_0003,
            Stream::NTupleCurve => 0x7e_0004,
            Stream::Mcts => 0x3c75_0001,
            Stream::BenchAnalyze => 0xa7a1_0001,
            Stream::PerfectTies => 0x9e7f_0001,
            Stream::NTupleWorker => 0x7e_0005,
            Stream::RandomBoard => 0xb0a7_0001,
            Stream::BookSample => 0xb00c_0001,
            Stream::Level => 0x1e7e_0001,
            Stream::Switch => 0x1e7e_0002,
            Stream::NTupleGuide => 0x7e_0006,
            Stream::AnswerTimes => 0xa45e_0001,
            Stream::LoadPlayers => 0x10ad_0001,
            Stream::SearchTies => 0x5ea7_0001,
            Stream::Exploit => 0xe4b1_0001,
            Stream::SamplePositions | Stream::BenchSets => return None,
        })
    }
}

/// A seed for one use (`stream`) derived from `seed` and a path of `parts` (e.g. pairing,
/// game): each part steps the SplitMix64 state, so `[1, 2]` and `[2, 1]` give different seeds.
pub fn derive_seed(seed: u64, stream: Stream, parts: &[u64]) -> u64 {
    stream
        .tag()
        .iter()
        .chain(parts)
        .fold(seed, |x, &p| step(x, p))
}

fn step(x: u64, p: u64) -> u64 {
    splitmix64(x.wrapping_add(p.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // The reference generator's first outputs from state 0: state += gamma, then mix.
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0xE220_A839_7B1D_CDAF);
        assert_eq!(
            splitmix64(GOLDEN_GAMMA.wrapping_mul(2)),
            0x6E78_9E6A_A1B9_65F4
        );
    }

    #[test]
    fn derived_seeds_depend_on_every_part_and_its_place() {
        let s = Stream::BenchSets;
        assert_eq!(derive_seed(7, s, &[]), 7);
        assert_ne!(derive_seed(7, s, &[1, 2]), derive_seed(7, s, &[2, 1]));
        assert_ne!(derive_seed(7, s, &[1]), derive_seed(8, s, &[1]));
        assert_eq!(
            derive_seed(7, s, &[1, 2]),
            derive_seed(derive_seed(7, s, &[1]), s, &[2])
        );
        // A named stream is its tag as the first part; streams differ from each other.
        assert_eq!(
            derive_seed(7, Stream::TournamentElo, &[]),
            derive_seed(7, s, &[3])
        );
        assert_ne!(
            derive_seed(7, Stream::SelfplayOpening, &[0]),
            derive_seed(7, Stream::SelfplayAgent, &[0])
        );
    }
}
