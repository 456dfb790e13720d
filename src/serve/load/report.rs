//! What a load test measured: each answer sorted by what it means, and the figures per route.

use serde::Serialize;
use std::collections::BTreeMap;

/// The figures of one route (`move easy`, `analyze book`, `review`, ...).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RouteFigures {
    /// The route and what it asked.
    pub route: String,
    /// Requests answered or dropped.
    pub requests: u64,
    /// 200s.
    pub ok: u64,
    /// 4xx: the request's fault (none is expected of these players).
    pub client_errors: u64,
    /// 503s that said the server was full, with `Retry-After`.
    pub busy: u64,
    /// 503s without `Retry-After`.
    pub busy_without_retry_after: u64,
    /// Any other 5xx.
    pub server_errors: u64,
    /// Connections dropped, refused or timed out.
    pub dropped: u64,
    /// Median time of the answered requests, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// The slowest, ms.
    pub max_ms: f64,
}

/// What a load test measured.
#[derive(Clone, Debug, Serialize)]
pub struct LoadReport {
    /// Players at once.
    pub players: usize,
    /// Players asking only for deep analyses.
    pub solvers: usize,
    /// Seconds played.
    pub seconds: f64,
    /// Games played to their end.
    pub games: u64,
    /// Every route, sorted by name.
    pub routes: Vec<RouteFigures>,
    /// The server's peak resident memory, MiB, when its process was known.
    pub server_peak_rss_mib: Option<f64>,
}

impl LoadReport {
    /// Requests over every route.
    pub fn requests(&self) -> u64 {
        self.routes.iter().map(|r| r.requests).sum()
    }

    /// Answers that break the server's promise: 5xx other than a 503 with `Retry-After`,
    /// dropped connections, and 4xx (these players send only good requests).
    pub fn failures(&self) -> u64 {
        self.routes
            .iter()
            .map(|r| r.server_errors + r.busy_without_retry_after + r.dropped + r.client_errors)
            .sum()
    }

    /// The report as a table.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} players (and {} solving) for {:.0} s: {} games, {} requests, {} failures{}\n",
            self.players,
            self.solvers,
            self.seconds,
            self.games,
            self.requests(),
            self.failures(),
            self.server_peak_rss_mib
                .map(|m| format!(", server peak RSS {m:.0} MiB"))
                .unwrap_or_default()
        );
        out.push_str(&format!(
            "{:<34} {:>7} {:>7} {:>6} {:>6} {:>8} {:>9} {:>9}\n",
            "route", "requests", "200", "503", "other", "p50 ms", "p99 ms", "max ms"
        ));
        for r in &self.routes {
            let other = r.client_errors + r.busy_without_retry_after + r.server_errors + r.dropped;
            out.push_str(&format!(
                "{:<34} {:>7} {:>7} {:>6} {:>6} {:>8.1} {:>9.1} {:>9.1}\n",
                r.route, r.requests, r.ok, r.busy, other, r.p50_ms, r.p99_ms, r.max_ms
            ));
        }
        out
    }
}

/// One answer as a player saw it.
pub(super) enum Answer {
    Ok(serde_json::Value),
    /// A 503 with its `Retry-After` in seconds, if it had one.
    Busy(Option<u64>),
    Failed(Kind),
}

#[derive(Clone, Copy)]
pub(super) enum Kind {
    Client,
    Server,
    Dropped,
}

/// What one player thread collected: per route, the times of answered requests and counts.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) routes: BTreeMap<String, (Vec<f64>, RouteFigures)>,
    pub(super) games: u64,
}

impl Tally {
    pub(super) fn record(&mut self, route: &str, ms: f64, answer: &Answer) {
        let (times, f) = self.routes.entry(route.to_string()).or_default();
        f.requests += 1;
        match answer {
            Answer::Ok(_) => f.ok += 1,
            Answer::Busy(Some(_)) => f.busy += 1,
            Answer::Busy(None) => f.busy_without_retry_after += 1,
            Answer::Failed(Kind::Client) => f.client_errors += 1,
            Answer::Failed(Kind::Server) => f.server_errors += 1,
            Answer::Failed(Kind::Dropped) => f.dropped += 1,
        }
        if !matches!(answer, Answer::Failed(Kind::Dropped)) {
            times.push(ms);
        }
    }

    pub(super) fn merge(&mut self, other: Tally) {
        self.games += other.games;
        for (route, (times, f)) in other.routes {
            let (t, g) = self.routes.entry(route).or_default();
            t.extend(times);
            g.requests += f.requests;
            g.ok += f.ok;
            g.client_errors += f.client_errors;
            g.busy += f.busy;
            g.busy_without_retry_after += f.busy_without_retry_after;
            g.server_errors += f.server_errors;
            g.dropped += f.dropped;
        }
    }
}

/// The `q`-quantile of sorted `times` (nearest rank), 0 when empty.
pub(super) fn quantile(times: &[f64], q: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    let rank = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len());
    times[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let t: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&t, 0.5), 50.0);
        assert_eq!(quantile(&t, 0.99), 99.0);
        assert_eq!(quantile(&t, 1.0), 100.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
        assert_eq!(quantile(&[7.0], 0.99), 7.0);
    }
}
