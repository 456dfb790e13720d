//! `c4 serve` under random requests: every endpoint with random, malformed and hostile
//! parameters and bodies, from several clients at once. Every answer must be a 200, a 400, a
//! 404 or a 503 (never a 500, never a dropped connection), and the server must still answer
//! afterwards. `C4_FUZZ_REQUESTS` sets the number (600 by default; the closing note of the
//! robustness work reports a 10,000-request run).

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use connect4_ml::serve::ServeConfig;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::common;

fn start(config: ServeConfig) -> SocketAddr {
    common::serve_in_process(config)
}

/// A small seeded generator (xorshift64*), so a failing request can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A random move string: legal-looking, illegal, or garbage.
fn moves(r: &mut Rng) -> String {
    match r.below(6) {
        0 => String::new(),
        1 => (0..r.below(42))
            .map(|_| char::from(b'1' + r.below(7) as u8))
            .collect(),
        2 => (0..r.below(60))
            .map(|_| char::from(b'0' + r.below(10) as u8))
            .collect(),
        3 => r
            .pick(&[
                "-", "4453", "1212121", "abc", "%00", "4%204", "ä", "4444444", "8",
            ])
            .into(),
        4 => "4".repeat(r.below(3000)),
        _ => (0..r.below(20))
            .map(|_| char::from(r.below(95) as u8 + 32))
            .collect(),
    }
}

fn number(r: &mut Rng) -> String {
    r.pick(&[
        "0",
        "1",
        "4",
        "5",
        "6",
        "7",
        "9",
        "10",
        "-1",
        "100",
        "99999999999999999999",
        "x",
        "",
    ])
    .into()
}

fn agent(r: &mut Rng) -> String {
    let kind = r.pick(&[
        "easy",
        "hard",
        "random",
        "gbt",
        "lms",
        "ntuple",
        "perfect",
        "mcts",
        "rollouts",
        "hybrid",
        "adaptive",
        "negamax:eval=window",
        "handtuned",
        "bogus",
        "model:gbt",
        "model:../x",
    ]);
    let mut spec = kind.to_string();
    for _ in 0..r.below(3) {
        let key = r.pick(&[
            "depth", "ms", "tt", "sims", "playouts", "rollouts", "ties", "eps", "seed", "safe", "x",
        ]);
        let value = r.pick(&[
            "0",
            "1",
            "3",
            "50",
            "1000000",
            "100000000",
            "random",
            "true",
            "-2",
            "0.5",
            "",
        ]);
        spec.push(if spec.contains(':') { ',' } else { ':' });
        spec.push_str(&format!("{key}={value}"));
    }
    spec
}

/// Percent-encodes everything but letters and digits.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// One random request: method, path and query, body.
fn request(r: &mut Rng) -> (&'static str, String, Option<String>) {
    let size = |r: &mut Rng| {
        if r.below(3) == 0 {
            format!("&width={}&height={}", number(r), number(r))
        } else {
            String::new()
        }
    };
    match r.below(9) {
        0 => (
            "GET",
            format!(
                "/api/analyze?moves={}{}&ms={}",
                enc(&moves(r)),
                size(r),
                number(r)
            ),
            None,
        ),
        1 => (
            "GET",
            format!(
                "/api/review?moves={}{}&ms={}",
                enc(&moves(r)),
                size(r),
                number(r)
            ),
            None,
        ),
        2 => {
            let body = match r.below(4) {
                0 => format!(
                    "{{\"agent\": \"{}\", \"moves\": \"{}\"}}",
                    agent(r),
                    moves(r).replace(['"', '\\'], "")
                ),
                1 => format!(
                    "{{\"agent\": \"{}\", \"moves\": \"{}\", \"width\": {}, \"seed\": {}}}",
                    agent(r),
                    moves(r).replace(['"', '\\'], ""),
                    number(r),
                    number(r)
                ),
                2 => r
                    .pick(&[
                        "",
                        "{",
                        "[]",
                        "null",
                        "{\"agent\": 5}",
                        "{\"agent\": \"easy\", \"x\": 1}",
                    ])
                    .to_string(),
                _ => moves(r),
            };
            ("POST", "/api/move".to_string(), Some(body))
        }
        3 => (
            "GET",
            format!(
                "/api/evaluate?model={}&moves={}{}&top={}",
                enc(r.pick(&["gbt", "lms", "ntuple", "handtuned", "x", ""])),
                enc(&moves(r)),
                size(r),
                number(r)
            ),
            None,
        ),
        4 => (
            "GET",
            r.pick(&[
                "/api/agents",
                "/api/models",
                "/api/status",
                "/api/runs",
                "/",
                "/app.js",
                "/style.css",
            ])
            .to_string(),
            None,
        ),
        5 => (
            "GET",
            format!(
                "/api/runs/{}",
                enc(r.pick(&["first", "..", "x", "%2e%2e", "first/../.."]))
            ),
            None,
        ),
        6 => (
            "GET",
            format!(
                "/runs/{}/{}",
                enc(r.pick(&["first", "..", "x"])),
                r.pick(&[
                    "report.md",
                    "../secret.txt",
                    "plots/curve.svg",
                    "%2e%2e/x",
                    "x"
                ])
            ),
            None,
        ),
        7 => (
            "GET",
            format!("/api/{}", r.pick(&["nothing", "analyze/x", "runs/"])),
            None,
        ),
        _ => (
            "GET",
            format!("/api/analyze?{}", moves(r).replace(['#', ' '], "")),
            None,
        ),
    }
}

#[test]
fn random_requests_get_only_200_400_404_or_503() {
    let runs = std::env::temp_dir().join(format!("c4-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(runs.join("first/plots")).unwrap();
    std::fs::write(runs.join("first/report.md"), "# A run\n").unwrap();
    std::fs::write(runs.join("secret.txt"), "not a run file").unwrap();
    let addr = start(ServeConfig {
        runs: runs.clone(),
        models: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models"),
        tt_mib: 8,
        heavy: 2,
        queue_wait: Duration::from_millis(200),
        analyze_limit: Duration::from_millis(150),
        analyze_max: Duration::from_millis(300),
        move_limit: Duration::from_millis(300),
        ..ServeConfig::default()
    });
    let total: usize = std::env::var("C4_FUZZ_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let clients = 8;
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .build();
    let counts = std::sync::Mutex::new(std::collections::BTreeMap::<u16, usize>::new());
    std::thread::scope(|s| {
        for client in 0..clients {
            let (agent, counts) = (agent.clone(), &counts);
            s.spawn(move || {
                let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ (client as u64 + 1));
                for i in 0..total / clients {
                    let (method, path, body) = request(&mut r);
                    let url = format!("http://{addr}{path}");
                    let req = agent.request(method, &url);
                    let res = match &body {
                        Some(b) => req.set("Content-Type", "application/json").send_string(b),
                        None => req.call(),
                    };
                    let status = match res {
                        Ok(res) => res.status(),
                        Err(ureq::Error::Status(code, _)) => code,
                        Err(e) => panic!("client {client} request {i}: {method} {path}: {e}"),
                    };
                    let short: String = path.chars().take(120).collect();
                    assert!(
                        [200, 400, 404, 503].contains(&status),
                        "client {client} request {i}: {method} {short} {:?}: {status}",
                        body.as_deref()
                            .map(|b| b.chars().take(120).collect::<String>())
                    );
                    *counts.lock().unwrap().entry(status).or_default() += 1;
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();
    eprintln!("{total} requests: {counts:?}");
    assert!(
        counts.get(&200).copied().unwrap_or(0) > total / 10,
        "{counts:?}"
    );
    assert!(
        counts.get(&400).copied().unwrap_or(0) > total / 10,
        "{counts:?}"
    );
    // Still serving.
    let res = agent
        .get(&format!("http://{addr}/api/analyze?moves=4453"))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    let _ = std::fs::remove_dir_all(&runs);
}
