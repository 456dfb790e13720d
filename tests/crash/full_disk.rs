//! A full disk and a read-only destination, on a small tmpfs the test mounts (root only).

use super::{OLD, c4, files, repo, words};
use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A small tmpfs mounted for one test (root only), unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    /// A fresh 256 KiB tmpfs at `dir`, or a clear failure saying why there is none.
    fn tmpfs(dir: &Path) -> Option<Mount> {
        std::fs::create_dir_all(dir).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Mount(dir.to_path_buf())),
            other => {
                let why = match other {
                    Ok(o) => common::text(&o.stderr),
                    Err(e) => e.to_string(),
                };
                assert!(
                    std::env::var_os("C4_NO_MOUNT").is_some(),
                    "this test mounts a small tmpfs to fill it and make it read-only, and \
                     cannot ({}); run it as root, or set C4_NO_MOUNT=1 to skip it",
                    why.trim()
                );
                eprintln!(
                    "skipped (C4_NO_MOUNT): cannot mount a tmpfs: {}",
                    why.trim()
                );
                None
            }
        }
    }

    fn remount_read_only(&self) {
        let o = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", common::text(&o.stderr));
    }

    /// Fills every free byte.
    fn fill(&self) {
        use std::io::Write;
        let mut f = std::fs::File::create(self.0.join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.sync_all();
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

/// A full disk and a read-only destination: every writing command fails with a message that
/// names the file and the cause, exits non-zero, leaves the old file as it was and no
/// temporary file beside it.
#[test]
#[ignore = "needs root: mounts a small tmpfs (C4_NO_MOUNT=1 skips it where none can be mounted)"]
fn a_full_disk_or_a_read_only_destination_keeps_the_old_file() {
    let root = common::temp_dir("crash-disk");
    let uci = repo("data/uci/connect-4.data.Z");
    let commands: Vec<(&str, Vec<String>)> = vec![
        (
            "gbt.bin",
            words(&format!(
                "train gbt --uci {uci} --max-iter 5 --seed 1 --out DEST/gbt.bin"
            )),
        ),
        (
            "lms.bin",
            words("train lms --games 200 --seed 1 --out DEST/lms.bin"),
        ),
        (
            "book-6x4.bin",
            words(
                "data book --no-book --width 6 --height 4 --plies 4 --tt-mib 8 \
                 --shallow-mib 16 --out DEST/book-6x4.bin",
            ),
        ),
        ("site/index.html", words("site --out DEST/site")),
    ];
    for full in [true, false] {
        for (file, args) in &commands {
            let dest = root.join(format!("dest-{}", file.replace('/', "-")));
            let Some(mount) = Mount::tmpfs(&dest) else {
                return;
            };
            let old = dest.join(file);
            std::fs::create_dir_all(old.parent().unwrap()).unwrap();
            std::fs::write(&old, OLD).unwrap();
            let cause = if full {
                mount.fill();
                "No space left on device"
            } else {
                mount.remount_read_only();
                "Read-only file system"
            };
            let args: Vec<String> = args
                .iter()
                .map(|a| a.replace("DEST", dest.to_str().unwrap()))
                .collect();
            let o = c4(&root, &args).output().unwrap();
            let said = common::text(&o.stderr);
            assert!(
                !o.status.success(),
                "{args:?} succeeded on a {cause} destination"
            );
            assert!(
                said.contains(cause) && said.contains(dest.to_str().unwrap()),
                "{args:?} ({cause}) should name the file and the cause: {said}"
            );
            assert_eq!(std::fs::read(&old).unwrap(), OLD, "{args:?} ({cause})");
            let leftovers: Vec<PathBuf> = files(&dest)
                .into_iter()
                .filter(|f| f.to_string_lossy().ends_with(".tmp"))
                .collect();
            assert!(
                leftovers.is_empty(),
                "{args:?} ({cause}) left {leftovers:?}"
            );
            drop(mount);
        }
    }
}
