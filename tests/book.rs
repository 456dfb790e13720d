//! The opening book: the shipped file against an independent oracle, the solver with and
//! without it, `c4 data book` (whole, sharded and merged), the `--book` flag's refusals, and
//! `c4 bench analyze`.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{both, c4, c4_with_stdin, ok, s, temp_dir};
use connect4_engine::solver::book::{Book, enumerate_leaves};
use connect4_engine::{Geometry, Position, Solver};
use std::path::Path;
use std::sync::Arc;

fn shipped() -> Book {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book-7x6.bin");
    Book::load(&path, Some(Geometry::STANDARD))
        .expect("data/book-7x6.bin ships with the repository")
}

#[test]
fn the_shipped_book_holds_every_position_of_ten_stones_with_the_solvers_scores() {
    let g = Geometry::STANDARD;
    let book = shipped();
    assert_eq!(book.plies(), 10);
    // Unfinished positions of 0..=10 stones up to mirror symmetry (the 809,464 of ten stones
    // are the leaves the data engine solved: data/book10).
    let per_ply: Vec<usize> = (0..=10)
        .map(|k| enumerate_leaves(g, k).unwrap().len())
        .collect();
    assert_eq!(
        per_ply,
        [
            1, 4, 25, 121, 568, 2144, 8231, 27_109, 91_295, 269_531, 809_464
        ]
    );
    assert_eq!(book.len(), 1_208_493);
    for k in 0..=10 {
        for (m, p) in enumerate_leaves(g, k).unwrap() {
            assert!(book.score(&p).is_some(), "{m} missing");
            assert_eq!(book.score(&p.mirror()), book.score(&p), "{m}");
        }
    }
    // The oracle: every position of at most three stones solved on its own by the solver
    // (the book the 6-ply one replaced); this book derived them from its 10-stone leaves.
    let oracle = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book-3ply-7x6.txt"),
    )
    .unwrap();
    let mut checked = 0;
    for line in oracle
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let moves = if f[0] == "-" { "" } else { f[0] };
        let p = Position::from_moves(g, moves).unwrap();
        let score: i32 = f[1].parse().unwrap();
        assert_eq!(book.score(&p), Some(score), "{line}");
        let (col, best) = book.best_move(&p).unwrap();
        assert_eq!(best, score, "{line}");
        // The book's best column reaches the score (the oracle's may be the mirror one).
        assert_eq!(-book.score(&p.after(col).unwrap()).unwrap_or(-score), score);
        checked += 1;
    }
    assert_eq!(checked, 151);
    assert_eq!(book.best_move(&Position::new(g)), Some((3, 1)));
}

#[test]
fn a_sample_of_leaves_and_their_children_score_the_same_without_the_book() {
    let g = Geometry::STANDARD;
    let book = Arc::new(shipped());
    let mut plain = Solver::with_table_mib(g, 64).unwrap();
    plain.set_book(None);
    let mut with = Solver::with_table_mib(g, 64).unwrap();
    with.set_book(Some(book.clone()));
    let leaves = enumerate_leaves(g, 10).unwrap();
    // Every 120,000th leaf: seven positions of ten stones, solved again without the book.
    for (m, p) in leaves.iter().step_by(120_000) {
        assert_eq!(Some(plain.solve(p)), book.score(p), "{m}");
        assert_eq!(with.solve(p), book.score(p).unwrap(), "{m}");
    }
    // Just past the book (eleven stones): the same scores with it and without it.
    for m in ["44444412367", "34554431271", "12345671234"] {
        let p = Position::from_moves(g, m).unwrap();
        assert_eq!(with.solve(&p), plain.solve(&p), "{m}");
    }
}

#[test]
fn data_book_makes_the_same_file_whole_or_sharded_and_merged() {
    let dir = temp_dir("book");
    let small = ["--width", "5", "--height", "4", "--plies", "5"];
    let whole = dir.join("whole.bin");
    let mut args = vec!["data", "book", "--out", s(&whole), "--jobs", "1"];
    args.extend(small);
    let out = ok(&c4(&args), "c4 data book");
    assert!(out.contains("positions of at most 5 stones (5x4)"), "{out}");
    let mut parts = Vec::new();
    for i in 0..2 {
        let part = dir.join(format!("part{i}.txt"));
        let shard = format!("{i}/2");
        let mut args = vec![
            "data",
            "book",
            "--out",
            s(&part),
            "--shard",
            &shard,
            "--jobs",
            "1",
        ];
        args.extend(small);
        let out = ok(&c4(&args), "a shard");
        assert!(out.contains("next: c4 data merge"), "{out}");
        parts.push(part);
    }
    let leaves = dir.join("leaves.txt");
    ok(
        &c4(&[
            "data",
            "merge",
            s(&parts[0]),
            s(&parts[1]),
            "--out",
            s(&leaves),
        ]),
        "merge",
    );
    let merged = dir.join("merged.bin");
    let mut args = vec!["data", "book", "--leaves", s(&leaves), "--out", s(&merged)];
    args.extend(small);
    ok(&c4(&args), "book from merged leaves");
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    // A leaves file that misses a leaf is refused, naming it.
    let text = std::fs::read_to_string(&leaves).unwrap();
    let short = dir.join("short.txt");
    let refused = dir.join("x.bin");
    std::fs::write(&short, text.lines().skip(1).collect::<Vec<_>>().join("\n")).unwrap();
    let mut args = vec!["data", "book", "--leaves", s(&short), "--out", s(&refused)];
    args.extend(small);
    let o = c4(&args);
    assert!(!o.status.success());
    let first = text.lines().next().unwrap().split(' ').next().unwrap();
    assert!(
        both(&o).contains(&format!("no score for the leaf {first}")),
        "{}",
        both(&o)
    );
    assert!(!refused.exists());
    // --verify: the book passes (every leaf solved again); a book made from one wrong leaf
    // is refused, naming the leaf.
    let o = c4(&["data", "book", "--verify", s(&whole), "--sample", "100000"]);
    let out = ok(&o, "verify");
    assert!(
        out.contains("sound. 5x4, 5 plies") && out.contains("all equal"),
        "{out}"
    );
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let (moves, score) = lines[3].split_once(' ').unwrap();
    let wrong_score: i32 = if score == "0" { 1 } else { 0 };
    let moves = moves.to_string();
    lines[3] = format!("{moves} {wrong_score}");
    let wrong = dir.join("wrong.txt");
    std::fs::write(&wrong, lines.join("\n")).unwrap();
    let wrong_book = dir.join("wrong.bin");
    let mut args = vec![
        "data",
        "book",
        "--leaves",
        s(&wrong),
        "--out",
        s(&wrong_book),
    ];
    args.extend(small);
    ok(&c4(&args), "a book from a wrong leaf");
    let o = c4(&[
        "data",
        "book",
        "--verify",
        s(&wrong_book),
        "--sample",
        "100000",
    ]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("failed verification")
            && both(&o).contains(&format!("{moves}: the book says {wrong_score}")),
        "{}",
        both(&o)
    );
    // The book answers `c4 solve` on its board.
    let o = c4_with_stdin(
        &[
            "--book",
            s(&whole),
            "solve",
            "--width",
            "5",
            "--height",
            "4",
        ],
        "12\n",
    );
    let line = ok(&o, "solve with the book");
    let book = Book::load(&whole, None).unwrap();
    let p = Position::from_moves(Geometry::new(5, 4).unwrap(), "12").unwrap();
    assert!(
        line.starts_with(&format!("12 {} 0 ", book.score(&p).unwrap())),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_book_files_are_refused_and_no_book_still_works() {
    let dir = temp_dir("book-bad");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book-7x6.bin");
    let good = std::fs::read(&path).unwrap();
    // A byte in the middle of the file, one of the key gaps of the block of 64 entries that
    // holds 17 (the scores from byte 40, the gaps after them, the blocks' 16-byte heads
    // last: the first key, the offset of the next gap, the CRC), and the last entry of the
    // book, whose block's CRC is the file's last byte.
    let book = Book::load(&path, None).unwrap();
    let key = |m| {
        Position::from_moves(Geometry::STANDARD, m)
            .unwrap()
            .canonical_key()
    };
    let index = |m| book.entries().position(|(k, _)| k == key(m)).unwrap();
    let blocks = book.len().div_ceil(64);
    let head = good.len() - 16 * blocks + 16 * (index("17") / 64);
    let next = u32::from_le_bytes(good[head + 8..head + 12].try_into().unwrap()) as usize;
    let middle = 40 + book.len() + next;
    assert!(
        (good.len() / 4..good.len() * 3 / 4).contains(&middle),
        "{middle}"
    );
    assert_eq!(index("1771717117"), book.len() - 1);
    let flipped = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 1;
        b
    };
    // Refused when opened, whatever is asked: cut short, a flip in the header, not a book.
    let cases: [(&str, Vec<u8>, &str); 3] = [
        ("cut.bin", good[..good.len() / 2].to_vec(), "truncated book"),
        ("header.bin", flipped(12), "the header fails its checksum"),
        ("text.bin", b"4453 1\n".to_vec(), "truncated book"),
    ];
    for (name, bytes, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        for (args, stdin) in [(&["solve"][..], "4453\n"), (&["analyze", "4453"][..], "")] {
            let mut all = vec!["--book", s(&path)];
            all.extend_from_slice(args);
            let o = c4_with_stdin(&all, stdin);
            assert!(!o.status.success(), "{name}");
            let e = both(&o);
            assert!(e.contains(name) && e.contains(want), "{name}: {e}");
        }
    }
    // A flip in the entries (in the middle, in the last page): the book opens, and the first
    // question that reads the damaged block fails naming the file, its score never given
    // from the book (analyze stops before printing scores).
    for (name, at, moves, parent) in [
        ("middle.bin", middle, "17", "1"),
        ("last.bin", good.len() - 1, "1771717117", "177171711"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, flipped(at)).unwrap();
        let o = c4_with_stdin(&["--book", s(&path), "solve"], &format!("{moves}\n"));
        assert!(!o.status.success(), "{name}");
        let e = both(&o);
        assert!(
            e.contains(name) && e.contains("fail their checksum"),
            "{name}: {e}"
        );
        // Analysis reads the children's entries.
        let o = c4(&["--book", s(&path), "analyze", parent]);
        assert!(!o.status.success(), "{name}");
        assert!(!both(&o).contains("score "), "{}", both(&o));
        // A question the damage does not touch is answered.
        ok(&c4_with_stdin(&["--book", s(&path), "solve"], "-\n"), name);
    }
    let o = c4_with_stdin(&["--book", s(&dir.join("none.bin")), "solve"], "4453\n");
    assert!(!o.status.success());
    assert!(both(&o).contains("none.bin"), "{}", both(&o));
    // A 5x4 book for a 7x6 question: not used (the flag names any board's book).
    let small = dir.join("small.bin");
    let o = c4(&[
        "data",
        "book",
        "--plies",
        "2",
        "--width",
        "5",
        "--height",
        "4",
        "--out",
        s(&small),
        "--jobs",
        "1",
    ]);
    ok(&o, "small book");
    // Without any book the answers are the same, only slower.
    let with = ok(&c4_with_stdin(&["solve"], "44535\n"), "with the book");
    let without = ok(
        &c4_with_stdin(&["--no-book", "solve"], "44535\n"),
        "without",
    );
    let score = |l: &str| l.split_whitespace().nth(1).unwrap().to_string();
    assert_eq!(score(&with), score(&without));
    // The book's answer searched no position.
    assert_eq!(with.split_whitespace().nth(2), Some("0"), "{with}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bench_analyze_prints_percentiles_by_band_of_plies() {
    // The book's plies and the end game: fast either way (the middle plies take seconds).
    let out = ok(
        &c4(&[
            "bench", "analyze", "--plies", "0..5", "--count", "2", "--band", "3",
        ]),
        "bench analyze",
    );
    assert!(out.contains("book of 12 plies"), "{out}");
    assert!(out.contains("p50 ms") && out.contains("p99 ms"), "{out}");
    for (band, n) in [("0-2", "6"), ("3-5", "6"), ("all", "12")] {
        let row = out
            .lines()
            .find(|l| l.starts_with(band))
            .unwrap_or_else(|| panic!("{band}: {out}"));
        assert_eq!(row.split_whitespace().nth(1), Some(n), "{row}");
    }
    let out = ok(
        &c4(&[
            "--no-book",
            "bench",
            "analyze",
            "--plies",
            "36..41",
            "--count",
            "1",
        ]),
        "bench analyze, late",
    );
    assert!(out.contains("no book"), "{out}");
    let o = c4(&["bench", "analyze", "--plies", "9..3"]);
    assert!(!o.status.success());
    assert!(both(&o).contains("LO is above HI"), "{}", both(&o));
}

/// The 7x6 book is built into c4: run from a folder without data/, the empty board is still
/// a book lookup (no search: 0 nodes), and `--no-book` really searches.
#[test]
fn c4_finds_the_book_outside_the_repository() {
    let dir = std::env::temp_dir().join(format!("c4-nobook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4"))
            .args(args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"44\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let fields: Vec<String> = run(&["solve"])
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(fields[..3], ["44", "1", "0"], "from the built-in book");
    let fields: Vec<String> = run(&["--no-book", "solve", "--weak"])
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(fields[1], "1");
    assert!(fields[2].parse::<u64>().unwrap() > 1000, "{fields:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_repositorys_books_are_the_deep_default_and_the_built_in_one() {
    // From the repository's root the default book is data/book-7x6-12.bin, every position of
    // up to 12 stones; data/book-7x6.bin is the built-in book (10 plies) as a file.
    assert!(
        Path::new(connect4_engine::solver::book::DEEP_PATH).is_file(),
        "tests run from the repository root, which holds {}",
        connect4_engine::solver::book::DEEP_PATH
    );
    let default = connect4_engine::solver::book::default_book();
    assert_eq!(default.plies(), 12);
    assert_eq!(default.len(), 9_188_816);
    let embedded = connect4_engine::solver::book::embedded();
    let file = Book::load(Path::new("data/book-7x6.bin"), None).unwrap();
    assert_eq!((file.plies(), file.len()), (10, 1_208_493));
    assert!(file.entries().eq(embedded.entries()));
    // The deep book agrees with the built-in one wherever both answer.
    for (key, score) in embedded.entries().step_by(997) {
        assert_eq!(default.get(key), Some(score), "key {key}");
    }
}

#[test]
fn c4_run_from_the_repository_answers_twelve_stones_from_the_deep_book() {
    // Twelve stones: a lookup in data/book-7x6-12.bin (no node searched); the built-in
    // book, named as a file, searches for the same score.
    let fields = |args: &[&str]| -> Vec<String> {
        let out = c4_with_stdin(args, "444444333222\n");
        assert!(out.status.success(), "{}", both(&out));
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let deep = fields(&["solve"]);
    assert_eq!(deep[..3], ["444444333222", "2", "0"]);
    let shallow = fields(&["--book", "data/book-7x6.bin", "solve"]);
    assert_eq!(shallow[..2], ["444444333222", "2"]);
    assert!(shallow[2].parse::<u64>().unwrap() > 1000, "{shallow:?}");
}

#[test]
fn the_deep_book_is_made_again_byte_for_byte_from_its_committed_leaves() {
    // data/book12/labelled holds the 5,832,236 labelled leaves of 12 stones in 59 gzipped
    // chunks; `c4 data book` over them, in order, makes data/book-7x6-12.bin exactly.
    use std::io::{Read, Write};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut chunks: Vec<_> = std::fs::read_dir(root.join("data/book12/labelled"))
        .expect("data/book12/labelled ships with the repository")
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
        .collect();
    chunks.sort();
    assert_eq!(chunks.len(), 59);
    let dir = temp_dir("deep-book");
    let leaves = dir.join("labelled.txt");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&leaves).unwrap());
    let mut lines = 0;
    for chunk in &chunks {
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(chunk).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        lines += text.lines().count();
        out.write_all(text.as_bytes()).unwrap();
    }
    out.flush().unwrap();
    drop(out);
    assert_eq!(lines, 5_832_236);
    let book = dir.join("book.bin");
    ok(
        &c4(&[
            "data",
            "book",
            "--plies",
            "12",
            "--leaves",
            s(&leaves),
            "--out",
            s(&book),
        ]),
        "data book --plies 12",
    );
    assert!(
        std::fs::read(&book).unwrap() == std::fs::read(root.join("data/book-7x6-12.bin")).unwrap(),
        "the book made from data/book12/labelled differs from data/book-7x6-12.bin"
    );
}
