//! Reading a learning curve for a run that unlearned what it knew.

use super::curve::CurvePoint;
use crate::arena::Side;

/// A collapse the curve shows, in words: the newest point's first-player wins against the
/// perfect player are clearly near none (the 95% interval under a tenth) where an earlier
/// point's were clearly most games (its interval above one half). A run whose weights stay
/// finite and unsaturated can still unlearn what it knew; the divergence check in self-play
/// cannot see that, the curve's matches can. `None` without such matches or collapse.
pub fn collapse(curve: &[CurvePoint]) -> Option<String> {
    let first = |p: &CurvePoint| p.vs_perfect.iter().find(|m| m.side == Side::First).cloned();
    let (newest, now) = curve.iter().rev().find_map(|p| Some((p, first(p)?)))?;
    if now.high >= 0.1 {
        return None;
    }
    let (before, then) = curve
        .iter()
        .filter_map(|p| Some((p, first(p)?)))
        .filter(|(_, m)| m.low > 0.5)
        .max_by(|a, b| a.1.win_rate.total_cmp(&b.1.win_rate))?;
    Some(format!(
        "the network collapsed: as first player against the perfect player it won {:.1}% of \
         {} games at game {} ({}), and {:.1}% of {} at game {} ({}); the recipe's steps are too \
         large for it (lower rate, or fewer lanes)",
        100.0 * then.win_rate,
        then.games,
        before.games,
        before.part,
        100.0 * now.win_rate,
        now.games,
        newest.games,
        newest.part,
    ))
}

/// The first-player match against the perfect player a self-play point measured.
fn first_of(p: &CurvePoint) -> Option<&super::PerfectMatch> {
    if p.part != "self-play" {
        return None;
    }
    p.vs_perfect.iter().find(|m| m.side == Side::First)
}

/// The first-player win rate against the perfect player a self-play point measured: what
/// the best point is judged by (`None`: not a self-play point, or no such match).
pub fn first_player_wins(p: &CurvePoint) -> Option<f64> {
    first_of(p).map(|m| m.win_rate)
}

/// The self-play point whose network won most as first player against the perfect player,
/// the later of equals (it has learned longer): the network a run keeps a copy of, in case
/// the curve falls from it.
pub fn best_point(curve: &[CurvePoint]) -> Option<usize> {
    curve
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, first_player_wins(p)?)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
}

/// The point to hand back when the curve fell from it: the best point (see [`best_point`])
/// when its 95% interval lies wholly above the last self-play point's, so that chance
/// between 100-game matches alone does not make the run hand over an older network.
/// `None` when the last point is the best, or within chance of it, or the curve has no
/// first-player matches.
pub fn fell_from(curve: &[CurvePoint]) -> Option<usize> {
    let last = curve.iter().rposition(|p| first_of(p).is_some())?;
    let best = best_point(curve)?;
    let (b, l) = (first_of(&curve[best])?, first_of(&curve[last])?);
    (best != last && b.low > l.high).then_some(best)
}

/// Why a run handed over the network of curve point `kept`, in words.
pub fn kept_summary(curve: &[CurvePoint], kept: usize) -> Option<String> {
    fn first(p: &CurvePoint) -> Option<&super::PerfectMatch> {
        p.vs_perfect.iter().find(|m| m.side == Side::First)
    }
    let (k, last) = (
        curve.get(kept)?,
        curve.iter().rev().find(|p| p.part == "self-play")?,
    );
    let (a, b) = (first(k)?, first(last)?);
    Some(format!(
        "the network of game {} (first-player wins against the perfect player {:.1}% [{:.1}, \
         {:.1}] of {}) instead of the last weights ({:.1}% [{:.1}, {:.1}] of {} at game {}): \
         the curve fell clearly below it",
        k.games,
        100.0 * a.win_rate,
        100.0 * a.low,
        100.0 * a.high,
        a.games,
        100.0 * b.win_rate,
        100.0 * b.low,
        100.0 * b.high,
        b.games,
        last.games,
    ))
}

/// The curve point that measured the network a run handed over: the kept one, else the last.
pub fn handed_point(curve: &[CurvePoint], kept: Option<usize>) -> Option<&CurvePoint> {
    match kept {
        Some(k) => curve.get(k),
        None => curve.last(),
    }
}

#[cfg(test)]
pub(in crate::train::ntuple) mod tests {
    use super::super::PerfectMatch;
    use super::*;

    /// A self-play curve point whose only measurement is `wins` of `n` games as first player
    /// against the perfect player.
    pub(in crate::train::ntuple) fn point(games: usize, wins: usize, n: usize) -> CurvePoint {
        let w = crate::arena::wilson(wins, n);
        CurvePoint {
            part: "self-play".into(),
            games,
            seconds: 0.0,
            score: f64::NAN,
            score_low: f64::NAN,
            score_high: f64::NAN,
            mistakes: Vec::new(),
            vs_perfect: vec![PerfectMatch {
                side: Side::First,
                eps: 0.0,
                games: n,
                wins,
                draws: 0,
                win_rate: w.value,
                low: w.low,
                high: w.high,
            }],
        }
    }

    #[test]
    fn a_curve_that_falls_from_most_wins_to_none_is_called_a_collapse() {
        // Learned (92 of 100), then lost it all: called out with both points.
        let fell = [
            point(0, 0, 100),
            point(500_000, 92, 100),
            point(1_000_000, 0, 100),
        ];
        let w = collapse(&fell).expect("a collapse");
        assert!(w.contains("92.0% of 100 games at game 500000"), "{w}");
        assert!(w.contains("0.0% of 100 at game 1000000"), "{w}");
        // Never learned, or still learning, or a dip that may be chance: no collapse.
        assert_eq!(collapse(&[point(0, 0, 100), point(500_000, 0, 100)]), None);
        assert_eq!(collapse(&fell[..2]), None);
        assert_eq!(collapse(&[point(0, 60, 100), point(500_000, 5, 100)]), None);
        assert_eq!(collapse(&[point(0, 92, 100), point(500_000, 3, 20)]), None);
        // Points without matches against the perfect player say nothing.
        let mut bare = fell.clone();
        for p in &mut bare {
            p.vs_perfect.clear();
        }
        assert_eq!(collapse(&bare), None);
    }

    #[test]
    fn the_point_to_fall_back_to_is_the_best_one_only_when_the_last_is_clearly_below_it() {
        // Seed 112's shape: 95 of 100 at 1M-2.5M games, then 79 from 4.5M on.
        let fell = [
            point(500_000, 79, 100),
            point(1_000_000, 95, 100),
            point(1_500_000, 95, 100),
            point(2_000_000, 94, 100),
            point(3_000_000, 84, 100),
            point(4_500_000, 79, 100),
        ];
        // The later of two equal points: it learned longer.
        assert_eq!(best_point(&fell), Some(2));
        assert_eq!(fell_from(&fell), Some(2));
        let why = kept_summary(&fell, 2).unwrap();
        assert!(why.contains("game 1500000"), "{why}");
        assert!(why.contains("95.0% [88.8, 97.8] of 100"), "{why}");
        assert!(
            why.contains("79.0% [70.0, 85.8] of 100 at game 4500000"),
            "{why}"
        );
        // Seed 92's (the shipped file): 99 at 2M, 97 at the end is within chance of it.
        let steady = [
            point(1_000_000, 98, 100),
            point(2_000_000, 99, 100),
            point(7_000_000, 97, 100),
        ];
        assert_eq!(best_point(&steady), Some(1));
        assert_eq!(fell_from(&steady), None);
        // The last point the best, or no matches as first player: nothing to fall back to.
        assert_eq!(fell_from(&fell[..3]), None);
        let mut bare = fell.clone();
        for p in &mut bare {
            p.vs_perfect.clear();
        }
        assert_eq!((best_point(&bare), fell_from(&bare)), (None, None));
        // Only self-play's points count: a supervised fit measured at the start is not kept.
        let mut sup = fell.clone();
        sup[2].part = "supervised".into();
        assert_eq!(fell_from(&sup), Some(1));
    }
}
