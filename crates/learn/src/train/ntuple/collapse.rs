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
