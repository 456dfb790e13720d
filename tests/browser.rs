//! The web UI in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`
//! packages, which `.ci/run` installs) driven over WebDriver by fantoccini. It plays a whole
//! game against `easy` by clicking, checks the result banner and the analysis panel, reviews
//! the whole game (every move graded, the chart, a click to a position), plays in the
//! two-humans mode with the keyboard, follows shareable links (`#moves=...`, another board
//! size) and walks back and forward through the history, opens a run, and saves screenshots
//! (desktop and phone width) under the target folder's `tmp/screenshots/`. A second test
//! walks the paths a player meets: bad links, either side human or computer, presets, hints,
//! a failing agent fixed and retried, boards the solver cannot finish, the review chart's
//! axes, and the runs tab in the URL with plots that enlarge.
//!
//! Set `C4_CHROMIUM` / `C4_CHROMEDRIVER` to use other binaries. Without them the test fails
//! and says what to install: it never passes without a browser.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Killed, spawn_serve};
use fantoccini::{Client, ClientBuilder, Locator};
use std::ffi::OsStr;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn binary(var: &str, default: &str) -> PathBuf {
    let path = PathBuf::from(std::env::var(var).unwrap_or_else(|_| default.to_string()));
    assert!(
        path.exists(),
        "{} is missing: the browser test needs Debian's chromium and chromium-driver packages \
         (`apt-get install chromium chromium-driver`; .ci/run installs them), or {var} set",
        path.display()
    );
    path
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `c4 serve` on a free port; returns the process, its base URL and how long it took from
/// the start of the process to the first page being served.
fn start_server(runs: &Path) -> (Killed, String, Duration) {
    let start = Instant::now();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let args = [
        OsStr::new("--models"),
        models.as_os_str(),
        OsStr::new("--runs"),
        runs.as_os_str(),
    ];
    let (server, url) = spawn_serve(&args, Stdio::null());
    let page = ureq::get(&format!("{url}/")).call().expect("first page");
    assert_eq!(page.status(), 200);
    (server, url, start.elapsed())
}

fn start_driver() -> (Killed, String) {
    let driver = binary("C4_CHROMEDRIVER", "/usr/bin/chromedriver");
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while ureq::get(&format!("{url}/status")).call().is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Killed(child), url)
}

async fn connect(driver: &str, profile: &Path) -> Client {
    let chromium = binary("C4_CHROMIUM", "/usr/bin/chromium");
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "chrome".into());
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            // Headless as root on a closed network: no sandbox, no background connections.
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1200,1400",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    // The console's messages, read back by `console_errors`.
    caps.insert(
        "goog:loggingPrefs".into(),
        serde_json::json!({ "browser": "ALL" }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("a WebDriver session in Chromium")
}

/// ChromeDriver's command that hands over (and clears) the browser console's messages.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (
            axum::http::Method::POST,
            Some(r#"{"type": "browser"}"#.to_string()),
        )
    }
}

/// The console's errors since the last call: script errors and `console.error`, and
/// requests for files that are not there (404). Answers the server refuses on purpose (a
/// 400 for a bad spec the test typed, a 503) are the page's to show, not errors of the page.
async fn console_errors(c: &Client) -> Vec<String> {
    let log = c
        .issue_cmd(BrowserLog)
        .await
        .expect("the browser's console");
    log.as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e["level"] == "SEVERE")
                .map(|e| e["message"].as_str().unwrap_or_default().to_string())
                .filter(|m| !m.contains("status of 400") && !m.contains("status of 503"))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `script` (a JS expression) until it is true, or fails after `secs` naming `what`.
async fn wait_for(c: &Client, what: &str, script: &str, secs: u64) {
    let start = Instant::now();
    loop {
        let v = c
            .execute(&format!("return !!({script});"), vec![])
            .await
            .unwrap();
        if v == serde_json::Value::Bool(true) {
            return;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let status = c
                .execute(
                    "return document.getElementById('status').textContent;",
                    vec![],
                )
                .await
                .unwrap();
            panic!("waited {secs} s for {what}; status: {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(&format!("return {script};"), vec![])
        .await
        .unwrap()
}

/// How many pixels the page sticks out sideways (0 or less: it fits the window).
async fn sideways_overflow(c: &Client) -> i64 {
    js(
        c,
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    )
    .await
    .as_i64()
    .unwrap()
}

/// Saves a screenshot and checks that it is a PNG of the window's size with some content.
async fn screenshot(c: &Client, dir: &Path, name: &str) -> PathBuf {
    let png = c.screenshot().await.unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{name} is not a PNG");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert!(width >= 300 && height >= 300, "{name}: {width}x{height}");
    assert!(png.len() > 10_000, "{name}: only {} bytes", png.len());
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    path
}

/// The element `css` selects (fails naming it when there is none).
async fn element(c: &Client, css: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
}

/// Clicks the element `css` selects.
async fn click(c: &Client, css: &str) {
    element(c, css).await.click().await.unwrap();
}

const READY: &str =
    "['your-turn', 'over'].includes(document.getElementById('status').dataset.state)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and ChromeDriver (Debian's chromium, chromium-driver): run with --include-ignored"]
async fn play_a_game_against_easy_in_chromium() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let shots = tmp.join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    // One run folder for the runs tab.
    let runs = tmp.join(format!("browser-runs-{}", std::process::id()));
    let run = runs.join("demo");
    std::fs::create_dir_all(run.join("plots")).unwrap();
    std::fs::write(
        run.join("report.md"),
        "# Demo run\n\n| agent | Elo |\n|---|---:|\n| easy | 1500 |\n",
    )
    .unwrap();
    std::fs::write(
        run.join("plots/curve.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100'><polyline points='0,90 100,40 200,10' stroke='black' fill='none'/></svg>",
    )
    .unwrap();

    let (_server, url, first_page) = start_server(&runs);
    eprintln!(
        "c4 serve to first page: {:.0} ms",
        first_page.as_secs_f64() * 1e3
    );
    let (_driver, driver_url) = start_driver();
    let profile = tmp.join(format!("chromium-profile-{}", std::process::id()));
    let c = connect(&driver_url, &profile).await;

    c.goto(&format!("{url}/")).await.unwrap();
    wait_for(&c, "the page to be ready", READY, 30).await;
    // The console is read back: a message of our own comes back, and nothing else yet.
    c.execute("console.error('c4 console probe')", vec![])
        .await
        .unwrap();
    let probe = console_errors(&c).await;
    assert!(
        probe.len() == 1 && probe[0].contains("c4 console probe"),
        "{probe:?}"
    );
    assert_eq!(
        js(&c, "document.querySelectorAll('#board .col').length").await,
        7
    );
    assert_eq!(
        js(&c, "document.getElementById('agent-spec').value").await,
        "easy"
    );

    // Play centre-most legal columns by clicking until the game ends.
    let mut clicks = 0;
    let mut checked_analysis = false;
    loop {
        wait_for(&c, "the computer's reply", READY, 60).await;
        if js(&c, "!document.getElementById('result').hidden").await == true {
            break;
        }
        if clicks == 1 && !checked_analysis {
            // Two stones: the book answers every column at once.
            wait_for(
                &c,
                "a complete analysis",
                "document.getElementById('analysis').dataset.complete === 'true'",
                60,
            )
            .await;
            let scores = js(
                &c,
                "[...document.querySelectorAll('#col-scores .score')].map(e => e.textContent)",
            )
            .await;
            let scores = scores.as_array().unwrap();
            assert_eq!(scores.len(), 7);
            assert!(
                scores.iter().all(|s| !s.as_str().unwrap().is_empty()),
                "{scores:?}"
            );
            let words = js(&c, "document.getElementById('analysis-words').textContent").await;
            assert!(
                words.as_str().unwrap().starts_with("x to move: "),
                "{words}"
            );
            let best = js(&c, "document.getElementById('analysis-best').textContent").await;
            assert!(best.as_str().unwrap().starts_with("Best column"), "{best}");
            wait_for(
                &c,
                "the models panel",
                "document.querySelectorAll('#models-body .model').length === 4",
                30,
            )
            .await;
            screenshot(&c, &shots, "game-start").await;
            checked_analysis = true;
        }
        let legal = js(&c, "[...document.querySelectorAll('#board .col')].filter(e => e.dataset.legal === 'true').map(e => +e.dataset.col)").await;
        let legal: Vec<u64> = legal
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let col = [4, 3, 5, 2, 6, 1, 7]
            .into_iter()
            .find(|c| legal.contains(c))
            .expect("a legal column");
        click(&c, &format!("#board .col[data-col='{col}']")).await;
        clicks += 1;
        assert!(clicks <= 21, "the game did not end after 21 moves");
        wait_for(
            &c,
            "the move to register",
            &format!(
                "document.querySelectorAll('#board .cell.x, #board .cell.o').length >= {}",
                2 * clicks - 1
            ),
            10,
        )
        .await;
    }
    assert!(
        checked_analysis,
        "the game ended before the analysis was checked"
    );
    let banner = js(&c, "document.querySelector('#result span').textContent").await;
    let banner = banner.as_str().unwrap();
    assert!(
        ["You win!", "The computer wins.", "Draw: the board is full."].contains(&banner),
        "{banner}"
    );
    wait_for(
        &c,
        "the final analysis",
        "document.getElementById('analysis-words').textContent.startsWith('game over')",
        30,
    )
    .await;
    screenshot(&c, &shots, "game-over").await;

    // Review the whole game: every move graded (the book and the solver answer them all),
    // one list entry and one chart point per move, and a click shows that position.
    let game = js(
        &c,
        "new URLSearchParams(location.hash.slice(1)).get('moves')",
    )
    .await;
    let game = game.as_str().unwrap().to_string();
    assert_eq!(
        js(&c, "location.hash").await,
        format!("#moves={game}"),
        "the URL follows the game"
    );
    click(&c, "#review-button").await;
    wait_for(
        &c,
        "a complete review",
        "document.getElementById('review').dataset.complete === 'true'",
        120,
    )
    .await;
    let grades = js(
        &c,
        "[...document.querySelectorAll('#review-list li')].map(e => e.dataset.grade)",
    )
    .await;
    let grades = grades.as_array().unwrap();
    assert_eq!(grades.len(), game.len(), "{grades:?}");
    assert!(
        grades
            .iter()
            .all(|g| ["best", "inaccuracy", "mistake"].contains(&g.as_str().unwrap())),
        "{grades:?}"
    );
    assert_eq!(
        js(
            &c,
            "document.querySelectorAll('#review-chart circle').length"
        )
        .await,
        game.len() as u64 + 1
    );
    click(&c, "#review-list li[data-ply='3']").await;
    wait_for(
        &c,
        "the reviewed position",
        "document.querySelectorAll('#board .cell.x, #board .cell.o').length === 3",
        10,
    )
    .await;
    assert_eq!(
        js(&c, "location.hash").await,
        format!("#moves={}", &game[..3])
    );
    screenshot(&c, &shots, "review").await;

    // Phone width: nothing sticks out sideways.
    c.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let overflow = sideways_overflow(&c).await;
    assert!(overflow <= 0, "page is {overflow} px wider than a phone");
    screenshot(&c, &shots, "phone").await;
    c.set_window_size(1200, 1400).await.unwrap();

    // Two humans, with the keyboard: x wins in column 1.
    element(&c, "#player-o")
        .await
        .select_by_value("human")
        .await
        .unwrap();
    click(&c, "#new-game").await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    for key in "1212121".chars() {
        body.send_keys(&key.to_string()).await.unwrap();
    }
    wait_for(
        &c,
        "the two-humans result",
        "document.querySelector('#result span').textContent === 'x wins!'",
        10,
    )
    .await;
    // Undo takes the winning stone back.
    click(&c, "#undo").await;
    wait_for(
        &c,
        "the undo",
        "document.getElementById('result').hidden",
        10,
    )
    .await;

    // Edit mode: paste a position.
    element(&c, "#mode")
        .await
        .select_by_value("edit")
        .await
        .unwrap();
    element(&c, "#moves-input")
        .await
        .send_keys("4453")
        .await
        .unwrap();
    click(&c, "#load-moves").await;
    wait_for(
        &c,
        "the pasted position",
        "document.querySelectorAll('#board .cell.x, #board .cell.o').length === 4",
        10,
    )
    .await;

    // Shareable positions: a link shows its position (other board sizes too), and back and
    // forward walk the moves played since.
    c.goto(&format!("{url}/#moves=333&width=6&height=5"))
        .await
        .unwrap();
    wait_for(
        &c,
        "the linked 6x5 position",
        "document.querySelectorAll('#board .col').length === 6 && document.querySelectorAll('#board .cell.x, #board .cell.o').length === 3",
        10,
    )
    .await;
    c.goto(&format!("{url}/#moves=4453")).await.unwrap();
    wait_for(
        &c,
        "the linked position",
        "document.querySelectorAll('#board .col').length === 7 && document.querySelectorAll('#board .cell.x, #board .cell.o').length === 4",
        10,
    )
    .await;
    click(&c, "#board .col[data-col='1']").await;
    wait_for(
        &c,
        "the URL of the next move",
        "location.hash === '#moves=44531'",
        10,
    )
    .await;
    c.back().await.unwrap();
    wait_for(
        &c,
        "back to the linked position",
        "location.hash === '#moves=4453' && document.querySelectorAll('#board .cell.x, #board .cell.o').length === 4",
        10,
    )
    .await;
    c.forward().await.unwrap();
    wait_for(
        &c,
        "forward again",
        "location.hash === '#moves=44531' && document.querySelectorAll('#board .cell.x, #board .cell.o').length === 5",
        10,
    )
    .await;
    // The page's own buttons step the same way.
    click(&c, "#step-back").await;
    wait_for(
        &c,
        "a move back by the button",
        "location.hash === '#moves=4453'",
        10,
    )
    .await;
    click(&c, "#step-forward").await;
    wait_for(
        &c,
        "a move forward by the button",
        "location.hash === '#moves=44531'",
        10,
    )
    .await;

    // The runs tab.
    click(&c, "#tab-button-runs").await;
    wait_for(
        &c,
        "the run list",
        "document.querySelectorAll('#run-list button').length === 1",
        10,
    )
    .await;
    click(&c, "#run-list button").await;
    wait_for(
        &c,
        "the run's report",
        "document.querySelector('#run-view .report h1') !== null",
        10,
    )
    .await;
    wait_for(&c, "the run's plot", "[...document.querySelectorAll('#run-view img')].some(i => i.complete && i.naturalWidth > 0)", 10).await;
    assert_eq!(
        js(
            &c,
            "document.querySelector('#run-view .report td').textContent"
        )
        .await,
        "easy"
    );
    screenshot(&c, &shots, "runs").await;

    let errors = console_errors(&c).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&runs);
    let _ = std::fs::remove_dir_all(&profile);
    eprintln!("screenshots in {}", shots.display());
}

/// Stones on the page's board.
const STONES: &str = "document.querySelectorAll('#board .cell.x, #board .cell.o').length";

/// axe-core's serious and critical accessibility violations on the page as it is now (axe-core
/// from `tests/browser-deps`, which `.ci/run` installs with `npm ci`).
async fn accessibility_violations(c: &Client) -> Vec<String> {
    let axe = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/browser-deps/node_modules/axe-core/axe.min.js");
    let source = std::fs::read_to_string(&axe).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; install it with `npm ci --prefix tests/browser-deps`",
            axe.display()
        )
    });
    c.execute(&source, vec![]).await.unwrap();
    let found = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ["violations"] })
              .then((r) => done(r.violations
                .filter((v) => v.impact === "serious" || v.impact === "critical")
                .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`)))
              .catch((e) => done([`axe failed: ${e}`]));"#,
            vec![],
        )
        .await
        .unwrap();
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// `css`'s box in the viewport: top, left, bottom, right.
async fn rect(c: &Client, css: &str) -> [f64; 4] {
    let v = js(
        c,
        &format!("(r => [r.top, r.left, r.bottom, r.right])(document.querySelector('{css}').getBoundingClientRect())"),
    )
    .await;
    let n: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [n[0], n[1], n[2], n[3]]
}

/// With a finished game on the page: at a phone's 390x844 the status, the result and the
/// whole board are on the screen without scrolling, the board centred; at 1280x800 the
/// settings stay above the board and the panels beside it.
async fn layout_at_both_sizes(c: &Client, shots: &Path) {
    // The window is the viewport and the browser's frame: sized so the viewport is the phone's.
    c.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let inner = js(c, "[window.innerWidth, window.innerHeight]").await;
    let (iw, ih) = (inner[0].as_u64().unwrap(), inner[1].as_u64().unwrap());
    c.set_window_size((390 + 390 - iw) as u32, (844 + 844 - ih) as u32)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    screenshot(c, shots, "phone-result").await;
    let view = js(
        c,
        "[document.documentElement.clientWidth, window.innerHeight]",
    )
    .await;
    let (vw, vh) = (view[0].as_f64().unwrap(), view[1].as_f64().unwrap());
    for css in ["#status", "#result", "#board"] {
        let [top, _, bottom, _] = rect(c, css).await;
        assert!(
            top >= 0.0 && bottom <= vh,
            "{css} at {top}..{bottom}: off a {vw}x{vh} phone screen"
        );
    }
    let [_, left, _, right] = rect(c, "#board").await;
    assert!(
        (left - (vw - right)).abs() <= 2.0,
        "the board is off centre: {left} px left, {} px right",
        vw - right
    );
    assert!(sideways_overflow(c).await <= 0);
    let violations = accessibility_violations(c).await;
    assert!(
        violations.is_empty(),
        "axe-core at 390x844: {violations:#?}"
    );
    screenshot(c, shots, "phone-result").await;
    c.set_window_size(1280, 800).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let controls = rect(c, "#controls").await;
    let board = rect(c, "#board").await;
    let side = rect(c, "#side").await;
    assert!(
        controls[2] <= board[0],
        "settings above the board: {controls:?} {board:?}"
    );
    assert!(
        side[1] >= board[3],
        "panels beside the board: {side:?} {board:?}"
    );
    let violations = accessibility_violations(c).await;
    assert!(
        violations.is_empty(),
        "axe-core at 1280x800: {violations:#?}"
    );
    screenshot(c, shots, "desktop-result").await;
    c.set_window_size(1200, 1400).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
}

async fn status(c: &Client) -> String {
    js(c, "document.getElementById('status').textContent")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn select(c: &Client, css: &str, value: &str) {
    element(c, css).await.select_by_value(value).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and ChromeDriver (Debian's chromium, chromium-driver): run with --include-ignored"]
async fn links_sides_presets_hints_and_runs_in_chromium() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let shots = tmp.join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let runs = tmp.join(format!("browser-runs2-{}", std::process::id()));
    std::fs::create_dir_all(runs.join("demo/plots")).unwrap();
    std::fs::write(runs.join("demo/report.md"), "# Demo\n").unwrap();
    std::fs::write(
        runs.join("demo/plots/curve.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100'><polyline points='0,90 100,40 200,10' stroke='black' fill='none'/></svg>",
    )
    .unwrap();
    // Links are followed as a user does: typed into the address bar of an open page (a hash
    // change), the page then rewrites its URL to what it shows.
    let (_server, url, _) = start_server(&runs);
    let (_driver, driver_url) = start_driver();
    let profile = tmp.join(format!("chromium-profile2-{}", std::process::id()));
    let c = connect(&driver_url, &profile).await;
    c.goto(&format!("{url}/")).await.unwrap();
    wait_for(&c, "the page to be ready", READY, 30).await;

    // Presets carry the shipped ladder's Elo; a legend says which colour is which.
    let presets = js(
        &c,
        "[...document.querySelectorAll('#preset option')].map(o => o.textContent)",
    )
    .await;
    let presets: Vec<String> = presets
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(presets.len(), 8, "{presets:?}");
    for (p, name) in presets
        .iter()
        .zip(["Easy", "Medium", "Hard", "Expert", "Perfect"])
    {
        assert!(p.starts_with(name) && p.contains("Elo"), "{presets:?}");
    }
    assert!(presets[5].starts_with("Adaptive"), "{presets:?}");
    assert!(presets[6].starts_with("Strength dial"), "{presets:?}");

    // The strength dial: a slider in Elo over the dial's range makes `level:elo=E`.
    select(&c, "#preset", "level").await;
    let spec = js(&c, "document.getElementById('agent-spec').value").await;
    assert!(spec.as_str().unwrap().starts_with("level:elo="), "{spec}");
    // Dragging moves the number; letting go (a `change`) sets the agent.
    c.execute("const e = document.getElementById('elo'); e.value = '1200'; e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
    assert_eq!(
        js(&c, "document.getElementById('agent-spec').value").await,
        "level:elo=1200"
    );
    // The adaptive agent: its estimate of the player shows beside the strength list.
    select(&c, "#preset", "adaptive").await;
    click(&c, "#board .col[data-col='4']").await;
    wait_for(
        &c,
        "the adaptive agent's move",
        &format!("{STONES} === 2"),
        30,
    )
    .await;
    wait_for(
        &c,
        "its estimate",
        "document.getElementById('adaptive-estimate').textContent.includes('Your Elo')",
        10,
    )
    .await;
    screenshot(&c, &shots, "adaptive").await;

    // A fair record: a game played against the adaptive agent from its first move to its end
    // counts once; the same game loaded from a link does not; after a reload the strength
    // and the estimate show at once.
    let counted = "JSON.parse(localStorage.getItem('c4.adaptiveState') || '{\"games\": 0}').games";
    let recorded = "(r => r.wins + r.draws + r.losses)(JSON.parse(localStorage.getItem('c4.adaptiveRecord') || '{\"wins\":0,\"draws\":0,\"losses\":0}'))";
    let before = js(&c, counted).await.as_u64().unwrap();
    click(&c, "#new-game").await;
    for _ in 0..30 {
        wait_for(&c, "the human's turn", READY, 60).await;
        if js(
            &c,
            "document.getElementById('status').dataset.state === 'over'",
        )
        .await
            == true
        {
            break;
        }
        let stones = js(&c, STONES).await.as_u64().unwrap();
        c.execute(
            "[...document.querySelectorAll('#board button.col')].find((b) => !b.disabled).click()",
            vec![],
        )
        .await
        .unwrap();
        wait_for(
            &c,
            "the move and its answer",
            &format!(
                "{STONES} >= {} || document.getElementById('status').dataset.state === 'over'",
                stones + 2
            ),
            60,
        )
        .await;
    }
    wait_for(
        &c,
        "the game counted",
        &format!("{counted} === {}", before + 1),
        30,
    )
    .await;
    wait_for(&c, "the record", &format!("{recorded} === 1"), 10).await;
    assert!(
        js(
            &c,
            "document.getElementById('adaptive-record-text').textContent"
        )
        .await
        .as_str()
        .unwrap()
        .starts_with("Your record: "),
    );
    screenshot(&c, &shots, "adaptive-record").await;
    layout_at_both_sizes(&c, &shots).await;
    let game = js(&c, "location.hash").await.as_str().unwrap().to_string();
    c.goto(&format!("{url}/#moves=")).await.unwrap();
    c.goto(&format!("{url}/{game}")).await.unwrap();
    wait_for(
        &c,
        "the loaded game",
        "document.getElementById('status').dataset.state === 'over'",
        20,
    )
    .await;
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(
        js(&c, counted).await.as_u64().unwrap(),
        before + 1,
        "a loaded game counted"
    );
    assert_eq!(
        js(&c, recorded).await,
        1,
        "a loaded game went into the record"
    );
    c.refresh().await.unwrap();
    wait_for(&c, "the page after a reload", READY, 30).await;
    assert_eq!(
        js(&c, "document.getElementById('preset').value").await,
        "adaptive"
    );
    assert!(
        js(
            &c,
            "document.getElementById('adaptive-estimate').textContent"
        )
        .await
        .as_str()
        .unwrap()
        .contains("as the adaptive agent sees it"),
        "the estimate shows at once after a reload"
    );
    // The reloaded game still says who won in the player's terms, and offers what comes
    // next: "Swap sides" gives the computer the first move of a new game.
    let result = js(&c, "document.querySelector('#result span').textContent").await;
    assert!(
        ["You win!", "The computer wins.", "Draw: the board is full."]
            .contains(&result.as_str().unwrap()),
        "{result}"
    );
    assert_eq!(
        js(&c, "!!document.getElementById('play-again')").await,
        true
    );
    click(&c, "#swap-sides").await;
    wait_for(
        &c,
        "the computer's first move",
        &format!("{STONES} === 1"),
        30,
    )
    .await;
    assert_eq!(
        js(&c, "document.getElementById('player-x').value").await,
        "computer"
    );
    // The newest stone fell in; the human's landing cell is marked for the preview.
    assert_eq!(
        js(
            &c,
            "document.querySelectorAll('#board .cell.landing').length"
        )
        .await,
        7
    );
    select(&c, "#player-x", "human").await;
    select(&c, "#player-o", "computer").await;
    select(&c, "#preset", "easy").await;
    click(&c, "#new-game").await;
    assert_eq!(
        js(&c, "document.querySelectorAll('#controls .stone.x').length").await,
        1
    );

    // Bad links keep a usable page: the longest legal prefix, a short message naming the
    // problem, nothing echoed at length, nothing pushed sideways.
    let long = format!("moves=444{}", "x".repeat(600));
    for (hash, stones, needle) in [
        ("moves=4444444", 6, "which is full"),
        ("moves=abc", 0, "\"a\", not a column digit"),
        ("moves=8", 0, "off the 7-column board"),
        ("moves=12121212", 7, "already won by x after move 7"),
        (long.as_str(), 3, "not a column digit"),
        ("moves=44&width=100&height=100", 0, "not supported"),
        ("moves=44&width=12&height=10", 0, "not supported"),
    ] {
        c.goto(&format!("{url}/#{hash}")).await.unwrap();
        let name = &hash[..hash.len().min(40)];
        wait_for(&c, name, &format!("{STONES} === {stones} && document.getElementById('status').dataset.state === 'error'"), 20).await;
        let text = status(&c).await;
        assert!(text.contains(needle), "{name}: {text}");
        assert!(
            text.len() < 260,
            "{name}: the message echoes too much: {text}"
        );
        assert_eq!(
            js(&c, "document.querySelectorAll('#board .col').length").await,
            7,
            "{name}"
        );
        let overflow = sideways_overflow(&c).await;
        assert!(overflow <= 0, "{name}: {overflow} px sideways");
    }
    screenshot(&c, &shots, "bad-link").await;

    // A link where it is the computer's turn: it says so and waits; "Computer move" plays.
    c.goto(&format!("{url}/#moves=4")).await.unwrap();
    wait_for(&c, "the linked position", &format!("{STONES} === 1"), 20).await;
    assert!(
        status(&c).await.contains("press Computer move"),
        "{}",
        status(&c).await
    );
    screenshot(&c, &shots, "computer-turn-link").await;
    click(&c, "#move-now").await;
    wait_for(&c, "the computer's move", &format!("{STONES} === 2"), 30).await;
    wait_for(
        &c,
        "its report",
        "document.getElementById('status').textContent.includes('The computer (o) played column')",
        10,
    )
    .await;
    assert!(!status(&c).await.contains("0.0 ms"), "{}", status(&c).await);

    // Either side can switch at any moment without losing the position.
    select(&c, "#player-x", "computer").await;
    select(&c, "#player-o", "human").await;
    wait_for(&c, "x's computer move", &format!("{STONES} === 3"), 30).await;
    assert_eq!(
        js(&c, "location.hash.length").await,
        "#moves=".len() as u64 + 3
    );
    // The computer against itself, a pause between moves.
    select(&c, "#player-o", "computer").await;
    wait_for(
        &c,
        "computer against computer",
        &format!("{STONES} >= 7"),
        60,
    )
    .await;
    select(&c, "#player-x", "human").await;
    select(&c, "#player-o", "human").await;
    screenshot(&c, &shots, "computer-vs-computer").await;

    // An unknown agent leaves a usable game: fixing the spec retries the move.
    click(&c, "#new-game").await;
    select(&c, "#player-o", "computer").await;
    c.execute("const i = document.getElementById('agent-spec'); i.value = 'bogus'; i.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
    click(&c, "#board .col[data-col='4']").await;
    wait_for(
        &c,
        "the failed move",
        "document.getElementById('status').textContent.includes('could not move')",
        20,
    )
    .await;
    assert!(
        status(&c).await.contains("unknown agent"),
        "{}",
        status(&c).await
    );
    c.execute("const i = document.getElementById('agent-spec'); i.value = 'easy'; i.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
    wait_for(&c, "the retried move", &format!("{STONES} === 2"), 20).await;

    // Another agent while the computer thinks: the move under way is stopped (the server
    // counts its work cancelled) and the new agent answers.
    let cancelled = || -> u64 {
        let text = ureq::get(&format!("{url}/api/status"))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        let status: serde_json::Value = serde_json::from_str(&text).unwrap();
        status["cancelled"].as_u64().unwrap()
    };
    let before = cancelled();
    click(&c, "#new-game").await;
    c.execute("const i = document.getElementById('agent-spec'); i.value = 'negamax:eval=handtuned,depth=40,ms=15000'; i.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
    click(&c, "#board .col[data-col='4']").await;
    wait_for(
        &c,
        "the slow agent to think",
        "document.getElementById('status').dataset.state === 'thinking'",
        20,
    )
    .await;
    select(&c, "#preset", "easy").await;
    wait_for(&c, "the new agent's move", &format!("{STONES} === 2"), 30).await;
    let start = Instant::now();
    while cancelled() == before {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the slow agent's move was not stopped when the agent changed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        js(&c, "document.getElementById('agent-spec').value").await,
        "easy"
    );

    // A hint shows only the best column, with the scores hidden: against a computer they
    // are off until the player turns them on.
    assert_eq!(
        js(&c, "document.getElementById('show-hints').checked").await,
        false
    );
    assert_eq!(
        js(&c, "document.body.classList.contains('hints-off')").await,
        true
    );
    wait_for(
        &c,
        "an exact analysis",
        "document.getElementById('analysis').dataset.complete === 'true'",
        30,
    )
    .await;
    click(&c, "#hint").await;
    wait_for(
        &c,
        "the hint",
        "document.querySelectorAll('#board .col.hinted').length === 1",
        20,
    )
    .await;
    assert!(status(&c).await.starts_with("Hint: column "));
    screenshot(&c, &shots, "hint").await;
    // Turned on, the choice is remembered for the next visit.
    click(&c, "#show-hints").await;
    assert_eq!(js(&c, "localStorage.getItem('c4.showScores')").await, "1");

    // Scores in words, from the board's side.
    let words = js(&c, "document.getElementById('analysis-words').textContent").await;
    let words = words.as_str().unwrap();
    assert!(
        words.starts_with("x to move: ")
            && (words.contains(" wins with its ") || words.contains("draw")),
        "{words}"
    );

    // The review chart has axes with move numbers; a reviewed position marks the move played.
    click(&c, "#review-button").await;
    wait_for(
        &c,
        "the review",
        "document.getElementById('review').dataset.complete === 'true'",
        60,
    )
    .await;
    let labels = js(
        &c,
        "[...document.querySelectorAll('#review-chart text')].map(t => t.textContent)",
    )
    .await;
    let labels: Vec<&str> = labels
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"0") && labels.iter().any(|l| l.starts_with("move number")),
        "{labels:?}"
    );
    click(&c, "#review-list li[data-ply='1']").await;
    wait_for(
        &c,
        "the marked move",
        "document.querySelectorAll('#board .col.played').length === 1",
        10,
    )
    .await;
    screenshot(&c, &shots, "review-axes").await;

    // A board the solver cannot finish: said once, bounds kept, a button to keep solving.
    c.goto(&format!("{url}/#moves=&width=9&height=6"))
        .await
        .unwrap();
    wait_for(
        &c,
        "the unfinished analysis",
        "!document.getElementById('keep-solving').hidden",
        30,
    )
    .await;
    let words = js(&c, "document.getElementById('analysis-words').textContent").await;
    assert!(
        words.as_str().unwrap().contains("could not finish"),
        "{words}"
    );
    screenshot(&c, &shots, "unsolved").await;

    // The runs tab lives in the URL, keys do not play on the hidden board, plots enlarge.
    c.goto(&format!("{url}/#moves=4")).await.unwrap();
    wait_for(&c, "the position", &format!("{STONES} === 1"), 20).await;
    click(&c, "#tab-button-runs").await;
    wait_for(&c, "the runs URL", "location.hash === '#runs'", 10).await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys("5").await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(js(&c, STONES).await, 1, "a key played on the hidden board");
    wait_for(
        &c,
        "the run list",
        "document.querySelectorAll('#run-list button').length === 1",
        10,
    )
    .await;
    click(&c, "#run-list button").await;
    wait_for(&c, "the run URL", "location.hash === '#runs=demo'", 10).await;
    wait_for(
        &c,
        "the plot",
        "document.querySelector('#run-view .plots img') !== null",
        10,
    )
    .await;
    click(&c, "#run-view .plots img").await;
    wait_for(
        &c,
        "the enlarged plot",
        "!document.getElementById('lightbox').hidden",
        10,
    )
    .await;
    screenshot(&c, &shots, "plot-enlarged").await;
    click(&c, "#lightbox").await;
    wait_for(
        &c,
        "the closed plot",
        "document.getElementById('lightbox').hidden",
        10,
    )
    .await;
    c.goto(&format!("{url}/#runs=demo")).await.unwrap();
    c.refresh().await.unwrap();
    wait_for(&c, "the run from its link", "!document.getElementById('tab-runs').hidden && document.querySelector('#run-view h2') !== null", 20).await;

    let errors = console_errors(&c).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&runs);
    let _ = std::fs::remove_dir_all(&profile);
}

/// A static file server (Python's `http.server`) for `dir` on a free port, its request log
/// written to `log`.
fn static_server(dir: &Path, log: &Path) -> (Killed, String) {
    let port = free_port();
    let child = Command::new("python3")
        .args([
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            &port.to_string(),
            "--directory",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("the static server's log"))
        .spawn()
        .expect("python3 -m http.server (the static site's host)");
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while ureq::get(&format!("{url}/")).call().is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "http.server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Killed(child), url)
}

/// The static site of `c4 site`, served by a plain static server with no `c4` process
/// running: the page analyses with the book, plays the computer (the n-tuple network's model
/// fetched on demand), opens links, hides what needs the server, reloads at the empty board,
/// fetches the book the site ships (`c4 site --book`) in the background, and measures the
/// network's move time in the browser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and ChromeDriver (Debian's chromium, chromium-driver): run with --include-ignored"]
async fn the_static_site_plays_and_analyses_without_a_server() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let shots = tmp.join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let site = tmp.join(format!("site-{}", std::process::id()));
    // The repository's own book as the site's "deeper" one: as deep as the built-in book,
    // which the engine accepts (a deeper file is read the same way).
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book-7x6.bin");
    let out = common::c4(&[
        "site",
        "--out",
        site.to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", common::both(&out));
    let log = tmp.join(format!("site-{}.log", std::process::id()));
    let (_host, url) = static_server(&site, &log);
    let (_driver, driver_url) = start_driver();
    let profile = tmp.join(format!("chromium-profile3-{}", std::process::id()));
    let c = connect(&driver_url, &profile).await;
    c.goto(&format!("{url}/")).await.unwrap();
    wait_for(&c, "the page to be ready", READY, 60).await;
    assert_eq!(
        js(&c, "document.body.classList.contains('backend-engine')").await,
        true
    );
    assert_eq!(
        js(
            &c,
            "getComputedStyle(document.getElementById('tab-button-runs')).display"
        )
        .await,
        "none"
    );
    // The engine's analysis of the empty board, from the book.
    wait_for(
        &c,
        "an exact analysis",
        "document.getElementById('analysis').dataset.complete === 'true'",
        60,
    )
    .await;
    let words = js(&c, "document.getElementById('analysis-words').textContent").await;
    assert!(
        words.as_str().unwrap().starts_with("x to move: "),
        "{words}"
    );
    // Presets come from the engine; against Expert the network's file is fetched on demand.
    select(&c, "#preset", "ntuple:depth=1,safe=true").await;
    click(&c, "#board .col:nth-child(4)").await;
    wait_for(&c, "the network's reply", &format!("{STONES} === 2"), 60).await;
    wait_for(&c, "the human's turn", READY, 60).await;
    // After its first request the engine's worker fetched the site's book.
    let start = Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("GET /book-7x6.bin HTTP/1.1\" 200")
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the worker fetches the site's book:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // A link opens the position; a reload at the empty board shows the board.
    c.goto(&format!("{url}/#moves=4453")).await.unwrap();
    wait_for(&c, "the linked position", &format!("{STONES} === 4"), 30).await;
    c.goto(&format!("{url}/#moves=")).await.unwrap();
    c.refresh().await.unwrap();
    wait_for(
        &c,
        "the board after a reload",
        "document.querySelectorAll('#board .col').length === 7",
        30,
    )
    .await;
    // The network's move time in this browser: 50 moves of positions from 0 to 9 stones.
    let timing = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            (async () => {
              const { Engine } = await import('./connect4.mjs');
              const e = await Engine.load();
              const bytes = new Uint8Array(await (await fetch('models/ntuple.bin')).arrayBuffer());
              e.addModel('models/ntuple.bin', bytes);
              e.move('ntuple:depth=1,safe=true', '4');
              const lines = ['', '4', '44', '443', '4435', '44352', '443526', '4435266', '44352661', '443526611'];
              const ms = [];
              for (let i = 0; i < 50; i++) ms.push(e.move('ntuple:depth=1,safe=true', lines[i % lines.length]).ms);
              ms.sort((a, b) => a - b);
              const book = e.setBook(new Uint8Array(await (await fetch('book-7x6.bin')).arrayBuffer()));
              done({ median: ms[25], max: ms[49], book });
            })().catch((err) => done({ error: String(err) }));"#,
            vec![],
        )
        .await
        .unwrap();
    assert!(timing["error"].is_null(), "{timing}");
    assert_eq!(timing["book"]["plies"], 10, "{timing}");
    eprintln!("n-tuple move in Chromium (WebAssembly): {timing}");
    std::fs::write(tmp.join("ntuple-move-ms.json"), timing.to_string()).unwrap();
    screenshot(&c, &shots, "static-site").await;
    let errors = console_errors(&c).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    c.close().await.unwrap();
    // The page and its worker asked only for files the site ships.
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    let missing: Vec<&str> = requests.lines().filter(|l| l.contains("\" 404")).collect();
    assert!(
        missing.is_empty(),
        "requests for files the site lacks: {missing:?}"
    );
}
