//! Reading a learning curve for a run that unlearned what it knew.

use super::CurvePoint;

/// A collapse the curve shows, in words: the newest point's first-player wins against the
/// perfect player are clearly near none (the 95% interval under a tenth) where an earlier
/// point's were clearly most games (its interval above one half). A run whose weights stay
/// finite and unsaturated can still unlearn what it knew; the divergence check in self-play
/// cannot see that, the curve's matches can. `None` without such matches or collapse.
pub fn collapse(curve: &[CurvePoint]) -> Option<String> {
    let first = |p: &CurvePoint| p.vs_perfect.iter().find(|m| m.side == "first").cloned();
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
    p.vs_perfect.iter().find(|m| m.side == "first")
}

/// The self-play point whose network won most as first player against the perfect player,
/// the later of equals (it has learned longer): the network a run keeps a copy of, in case
/// the curve falls from it.
pub fn best_point(curve: &[CurvePoint]) -> Option<usize> {
    curve
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, first_of(p)?.win_rate)))
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
