//! The dial's one parameter: a skill from 0 (every legal move alike, the random player) to 1
//! (always a best move), and the chance it gives each move. A move's chance falls with how
//! much it loses against the best move (softmax over the value loss), so a weak setting
//! mostly makes small mistakes and rarely throws a game away in one move: mistakes of a
//! player, not random clicks. The same formula is the adaptive agent's model of its opponent.

/// The temperature (value units: a win is 1, a draw 0, a loss -1) at three knots of the
/// skill: 1.0 at skill 0.1, 0.12 at 0.8, 0.01 just below 1; log-linear between them, and
/// 0.1 / skill below 0.1 (so it grows without bound towards skill 0, the uniform player).
/// Measured on the ladder, the Elo is then roughly linear in the skill: most of the range
/// (from about 900 to 1900) lies between skills 0.1 and 0.8, where temperatures of 1 to 0.12
/// separate players; below 0.12 only slower wins and faster losses are left to choose.
const KNOTS: [(f64, f64); 3] = [(0.1, 1.0), (0.8, 0.12), (1.0, 0.01)];

/// Values closer than this count as equal (ties share the best move's chance).
const TIE: f64 = 1e-9;

/// The softmax temperature of `skill` (in [0, 1]); `None` at the two ends, where the
/// policy is uniform (0) or plays a best move only (1).
///
/// ```
/// use connect4_engine::agents::level::temperature;
/// assert_eq!(temperature(0.0), None);
/// assert_eq!(temperature(1.0), None);
/// assert!(temperature(0.3).unwrap() > temperature(0.6).unwrap());
/// assert!((temperature(0.1).unwrap() - 1.0).abs() < 1e-12);
/// assert!(temperature(0.001).unwrap() > 50.0);
/// ```
pub fn temperature(skill: f64) -> Option<f64> {
    if skill <= 0.0 || skill >= 1.0 {
        return None;
    }
    let (x0, t0) = KNOTS[0];
    if skill < x0 {
        return Some(t0 * x0 / skill);
    }
    let i = usize::from(skill >= KNOTS[1].0);
    let ((xa, ta), (xb, tb)) = (KNOTS[i], KNOTS[i + 1]);
    let f = (skill - xa) / (xb - xa);
    Some((ta.ln() + f * (tb.ln() - ta.ln())).exp())
}

/// The chance of each column (index = column) under `skill`, given each legal column's
/// value for the side to move (`None`: not legal). The chances of the legal columns add up
/// to 1; at skill 1 the best columns share it equally.
///
/// ```
/// use connect4_engine::agents::level::policy;
/// let values = [Some(1.0), None, Some(0.0), Some(-1.0)];
/// let p = policy(&values, 0.0);
/// assert_eq!(p, vec![1.0 / 3.0, 0.0, 1.0 / 3.0, 1.0 / 3.0]);
/// assert_eq!(policy(&values, 1.0), vec![1.0, 0.0, 0.0, 0.0]);
/// let mid = policy(&values, 0.5);
/// assert!(mid[0] > mid[2] && mid[2] > mid[3]);
/// ```
pub fn policy(values: &[Option<f64>], skill: f64) -> Vec<f64> {
    let best = values
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let weight = |v: f64| match temperature(skill) {
        None if skill <= 0.0 => 1.0,
        None => f64::from(u8::from(best - v <= TIE)),
        Some(tau) => (-(best - v).max(0.0) / tau).exp(),
    };
    let w: Vec<f64> = values.iter().map(|v| v.map_or(0.0, weight)).collect();
    let total: f64 = w.iter().sum();
    if total <= 0.0 {
        return w;
    }
    w.into_iter().map(|x| x / total).collect()
}

/// Draws a column from `chances` (as [`policy`] gives them) with `u` uniform in [0, 1).
pub(crate) fn draw(chances: &[f64], u: f64) -> Option<usize> {
    let mut acc = 0.0;
    let mut last = None;
    for (c, &p) in chances.iter().enumerate() {
        if p <= 0.0 {
            continue;
        }
        acc += p;
        last = Some(c);
        if u < acc {
            return Some(c);
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_fall_with_the_loss_and_rise_with_skill() {
        let values = [Some(0.9), Some(0.0), Some(-0.9), None, Some(0.85)];
        let mut last_best = 0.0;
        for k in 0..=10 {
            let p = policy(&values, k as f64 / 10.0);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert_eq!(p[3], 0.0);
            assert!(p[0] >= p[4] && p[4] >= p[1] && p[1] >= p[2], "{p:?}");
            assert!(p[0] >= last_best, "skill {k}: {p:?}");
            last_best = p[0];
        }
        assert_eq!(draw(&[0.0, 0.5, 0.5], 0.0), Some(1));
        assert_eq!(draw(&[0.0, 0.5, 0.5], 0.7), Some(2));
        assert_eq!(draw(&[0.2, 0.8, 0.0], 0.999_999_9), Some(1));
    }
}
