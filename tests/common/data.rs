//! Where the tests' data lies: the repository's own data/ and the shared folder beside the
//! repository. One file for every crate's tests (the engine's and learn's include it by path),
//! so each finds the repository root from its own manifest.

use std::path::{Path, PathBuf};

/// The repository root (the folder with the workspace's Cargo.lock), from any crate's tests.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|p| p.join("Cargo.lock").is_file())
        .expect("the tests run inside the repository")
        .to_path_buf()
}

/// The ignore reason of every test that reads Pons' benchmark files (they stay outside the
/// repository, in ../shared/data/pons). `cargo test` in a plain clone skips those tests;
/// `cargo test -- --include-ignored` runs them (CI does).
pub const NEEDS_PONS: &str = "needs Pons' files in ../shared/data/pons: run with --include-ignored";

/// The shared data folder (`../shared/data` from the repository root), read only by tests
/// marked `#[ignore]` (a plain clone has no such folder). Tests that need it fail loudly when
/// it is missing instead of passing without checking anything; with `C4_FORBID_SHARED` set
/// (CI's run of the tests that are not ignored) any read fails, which keeps a plain clone's
/// `cargo test` self-contained.
pub fn shared_data(rel: &str) -> PathBuf {
    assert!(
        std::env::var_os("C4_FORBID_SHARED").is_none(),
        "a test that is not marked #[ignore] reads ../shared/data/{rel}: a plain clone has no \
         ../shared, so mark it #[ignore] or use the repository's data/"
    );
    let p = repo_root().join("../shared/data").join(rel);
    assert!(
        p.exists(),
        "test data {} is missing: these tests need ../shared/data beside the repository (see ../shared/GUIDE.md)",
        p.display()
    );
    p
}

/// A file of the repository's own data/ (shipped with every clone).
pub fn repo_data(rel: &str) -> PathBuf {
    let p = repo_root().join("data").join(rel);
    assert!(
        p.exists(),
        "{} is missing: the repository ships it",
        p.display()
    );
    p
}
