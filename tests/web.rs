//! The browser side: `c4 site` writes a static site whose page uses the WebAssembly engine;
//! the page's modules pass their unit tests under Node (`node --test tests/web`); the npm
//! package packs and a Node program that installs it analyses, picks random optimal moves
//! and plays an agent from a spec. The Node tests need Node 18 or later (Debian's `nodejs`
//! and `npm`, which .ci/run installs) and are ignored without `--include-ignored`.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("{what}: cannot start ({e}); install Node 18+ and npm (Debian's nodejs, npm)")
    });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

#[test]
fn c4_site_writes_a_static_site_that_uses_the_engine() {
    let dir = common::temp_dir("site");
    let out = dir.join("site");
    let text = common::ok(
        &common::c4(&[
            "site",
            "--out",
            common::s(&out),
            "--models",
            "no-such-folder",
        ]),
        "c4 site",
    );
    assert!(text.contains("gzipped"), "{text}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    // The page names the deeper book only when the site ships one (the default book here
    // is the repository's data/book-7x6-12.bin when it is there), so it asks for no file the
    // site lacks.
    let body = if out.join("book-7x6.bin").exists() {
        "<body data-backend=\"engine\" data-book=\"book-7x6.bin\">"
    } else {
        "<body data-backend=\"engine\">"
    };
    assert!(html.contains(body), "the page asks for the engine: {body}");
    let bare = dir.join("bare");
    common::ok(
        &common::c4(&["site", "--no-book", "--out", common::s(&bare)]),
        "c4 site --no-book",
    );
    let html = std::fs::read_to_string(bare.join("index.html")).unwrap();
    assert!(
        html.contains("<body data-backend=\"engine\">"),
        "no book named"
    );
    assert!(!bare.join("book-7x6.bin").exists());
    for f in [
        "app.js",
        "backend.js",
        "view.js",
        "adaptive.js",
        "runs.js",
        "state.js",
        "review.js",
        "api.js",
        "board.js",
        "analysis.js",
        "url.js",
        "game.js",
        "controls.js",
        "worker.js",
        "style.css",
        "favicon.svg",
        "connect4.mjs",
        "models/gbt.bin",
        "models/lms.bin",
        "models/ntuple.bin",
        "models/ladder.json",
    ] {
        assert!(out.join(f).is_file(), "{f} is written");
    }
    let wasm = std::fs::read(out.join("connect4.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm", "a WebAssembly module");
    // The built-in models stand in for a missing folder, byte for byte.
    assert_eq!(
        std::fs::read(out.join("models/ntuple.bin")).unwrap(),
        std::fs::read(repo().join("models/ntuple.bin")).unwrap()
    );
    let json: serde_json::Value = serde_json::from_str(&common::ok(
        &common::c4(&["site", "--out", common::s(&out), "--json"]),
        "c4 site --json",
    ))
    .unwrap();
    // The page, its modules and models (one network per board of answers::NETWORK_BOARDS
    // besides 7x6's), and the deeper default book (data/book-7x6-12.bin).
    let files = 24 + connect4_engine::answers::NETWORK_BOARDS.len() as u64;
    assert_eq!(json["files"], files);
    assert!(json["wasm_gzip"].as_u64().unwrap() < json["wasm"].as_u64().unwrap());
    // The run's book ships beside the page when it is not the built-in one (here the
    // repository's own file named with --book, as deep as the built-in one); a file that is
    // not a book is refused by name.
    let book = repo().join("data/book-7x6.bin");
    let json: serde_json::Value = serde_json::from_str(&common::ok(
        &common::c4(&[
            "site",
            "--out",
            common::s(&out),
            "--book",
            common::s(&book),
            "--json",
        ]),
        "c4 site --book",
    ))
    .unwrap();
    assert_eq!(json["files"], files);
    assert_eq!(
        std::fs::read(out.join("book-7x6.bin")).unwrap(),
        std::fs::read(&book).unwrap()
    );
    assert_eq!(json["book"], std::fs::metadata(&book).unwrap().len());
    let bad = common::c4(&["site", "--out", common::s(&out), "--book", "Cargo.toml"]);
    assert!(!bad.status.success());
    assert!(
        common::both(&bad).contains("book Cargo.toml: not a book file"),
        "{}",
        common::both(&bad)
    );
    let bad = common::c4(&["site", "--out", "/proc/no/such/place"]);
    assert!(!bad.status.success());
    assert!(common::both(&bad).contains("writing the site into /proc/no/such/place"));
}

#[test]
#[ignore = "needs Node 18+ (Debian's nodejs): run with --include-ignored"]
fn the_page_modules_pass_their_node_tests() {
    let text = run(
        Command::new("node")
            .args(["--test", "tests/web/"])
            .current_dir(repo()),
        "node --test tests/web/",
    );
    assert!(text.contains("# fail 0"), "{text}");
}

#[test]
#[ignore = "needs Node 18+ and npm (Debian's nodejs, npm): run with --include-ignored"]
fn the_npm_package_packs_and_a_node_program_uses_it() {
    let dir = common::temp_dir("npm");
    let packed = dir.join("packed");
    std::fs::create_dir_all(&packed).unwrap();
    let npm = repo().join("web/npm");
    run(
        Command::new("npm")
            .args(["pack", "--pack-destination", common::s(&packed)])
            .current_dir(&npm),
        "npm pack",
    );
    let tarball = std::fs::read_dir(&packed)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "tgz"))
        .expect("npm pack makes a .tgz");
    // A user's project: install the tarball (no registry needed), then run the package's
    // test from there, importing "connect4-ml" as any program would.
    let user = dir.join("user");
    std::fs::create_dir_all(user.join("test")).unwrap();
    std::fs::write(
        user.join("package.json"),
        r#"{"name":"user","type":"module","private":true}"#,
    )
    .unwrap();
    run(
        Command::new("npm")
            .args([
                "install",
                "--offline",
                "--no-audit",
                "--no-fund",
                common::s(&tarball),
            ])
            .current_dir(&user),
        "npm install connect4-ml.tgz",
    );
    std::fs::copy(
        npm.join("test/engine.test.mjs"),
        user.join("test/engine.test.mjs"),
    )
    .unwrap();
    let text = run(
        Command::new("node")
            .args(["--test", "test/"])
            .env("C4_TEST_BOOK", repo().join("data/book-7x6.bin"))
            .current_dir(&user),
        "node --test (the installed package)",
    );
    assert!(
        text.contains("# fail 0") && text.contains("# pass 9"),
        "{text}"
    );
    let types =
        std::fs::read_to_string(user.join("node_modules/connect4-ml/connect4.d.ts")).unwrap();
    assert!(types.contains("bestMove("));
}
