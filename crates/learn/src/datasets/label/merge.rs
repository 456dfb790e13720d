//! Merging the shards of a labelling job (`c4 data merge`).

use super::{ShardManifest, manifest_path};
use connect4_engine::game::{BitBoard, Geometry, Position};

/// Why parts could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file could not be read.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A part has no readable manifest beside it.
    #[error("{path}: no readable {manifest} beside it: not a finished shard of `c4 data label` ({source})", path = path.display(), manifest = manifest_path(path).display())]
    Manifest {
        /// The part.
        path: std::path::PathBuf,
        /// What went wrong: the file's reading or its JSON.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Parts of different jobs (source, shard count or score kind differ).
    #[error("{path}: not a shard of the same job as {first}", path = path.display(), first = first.display())]
    OtherJob {
        /// The odd part.
        path: std::path::PathBuf,
        /// The first part.
        first: std::path::PathBuf,
    },
    /// A shard given twice.
    #[error("shard {shard}/{shards} is given twice")]
    Twice {
        /// The shard.
        shard: usize,
        /// Shards of the job.
        shards: usize,
    },
    /// A shard not given.
    #[error("shard {shard}/{shards} is missing")]
    Missing {
        /// The shard.
        shard: usize,
        /// Shards of the job.
        shards: usize,
    },
    /// A part has more or fewer lines than its manifest says.
    #[error("{path}: {found} lines, its manifest says {expected}", path = path.display())]
    LineCount {
        /// The part.
        path: std::path::PathBuf,
        /// Lines the manifest gives.
        expected: usize,
        /// Lines found.
        found: usize,
    },
    /// A line that is not a labelled position.
    #[error("{path}:{line}: not a valid \"MOVES SCORE\" line", path = path.display())]
    BadLine {
        /// The part.
        path: std::path::PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// The same position (or its mirror image) with two scores.
    #[error("{first} and {second} are the same position (up to mirror) with different scores")]
    Disagree {
        /// One line.
        first: String,
        /// The other.
        second: String,
    },
    /// The source given is not the job's, or a line does not match it.
    #[error("the source does not match the parts: {0}")]
    Source(String),
}

/// The merged file.
#[derive(Clone, Debug)]
pub struct Merged {
    /// "MOVES SCORE" lines in the source's order.
    pub text: String,
    /// Its sha256.
    pub sha256: String,
    /// Positions in it.
    pub positions: usize,
    /// Shards merged.
    pub shards: usize,
}

/// Merges the parts written by [`super::label_lines`] (each with its manifest beside it): checks
/// that they are every shard of one job once, complete, and that no position (up to mirror)
/// has two scores; with the job's `source` text, also that every line is the source's line.
/// Every line must be a position of `geom`'s board (of the integer `B`: `u128` past 64 bits).
pub fn merge_shards<B: BitBoard>(
    parts: &[std::path::PathBuf],
    source: Option<&str>,
    geom: Geometry<B>,
) -> Result<Merged, MergeError> {
    use std::collections::{HashMap, HashSet};
    let (manifests, by_shard) = one_job(parts)?;
    let first = manifests[0].clone();
    let n = first.shards;
    let source_lines: Option<Vec<&str>> = source.map(|s| s.lines().collect());
    if let Some(src) = source
        && connect4_engine::io::sha256_hex(src.as_bytes()) != first.source_sha256
    {
        return Err(MergeError::Source(
            "its sha256 is not the one the parts were labelled from".into(),
        ));
    }
    let texts = read_parts(parts, &manifests, &by_shard)?;
    let mut lines: Vec<std::str::Lines> = texts.iter().map(|t| t.lines()).collect();
    let mut line_no = vec![0usize; n];
    let skipped: HashSet<usize> = manifests
        .iter()
        .flat_map(|m| m.skipped.iter().copied())
        .collect();
    let mut scores: HashMap<B, String> = HashMap::new();
    let mut out = String::new();
    let mut positions = 0;
    for k in 0..first.source_lines {
        if skipped.contains(&k) {
            continue;
        }
        let shard = k % n;
        let i = by_shard[shard].expect("present");
        let bad = || MergeError::BadLine {
            path: parts[i].clone(),
            line: line_no[shard] + 1,
        };
        let line = lines[shard].next().ok_or_else(|| MergeError::LineCount {
            path: parts[i].clone(),
            expected: manifests[i].positions,
            found: line_no[shard],
        })?;
        let t = connect4_engine::game::record::parse_test_line(line)
            .ok()
            .flatten()
            .filter(|t| t.expected.is_some())
            .ok_or_else(bad)?;
        let pos = Position::from_moves(geom, &t.moves).map_err(|_| bad())?;
        line_no[shard] += 1;
        if let Some(src) = &source_lines {
            same_as_source(src, k, &t.moves)?;
        }
        if let Some(prev) = scores.get(&pos.canonical_key()) {
            let prev_score = prev.split_once(' ').map(|(_, s)| s);
            if prev_score != line.split_once(' ').map(|(_, s)| s) {
                return Err(MergeError::Disagree {
                    first: prev.clone(),
                    second: line.to_string(),
                });
            }
        } else {
            scores.insert(pos.canonical_key(), line.to_string());
        }
        out.push_str(line);
        out.push('\n');
        positions += 1;
    }
    Ok(Merged {
        sha256: connect4_engine::io::sha256_hex(out.as_bytes()),
        text: out,
        positions,
        shards: n,
    })
}

/// The manifests of `parts`, checked to be every shard of one job once, and which part holds
/// each shard.
fn one_job(
    parts: &[std::path::PathBuf],
) -> Result<(Vec<ShardManifest>, Vec<Option<usize>>), MergeError> {
    let mut manifests = Vec::new();
    for p in parts {
        let text = std::fs::read_to_string(manifest_path(p)).map_err(|e| MergeError::Manifest {
            path: p.clone(),
            source: Box::new(e),
        })?;
        let m: ShardManifest = serde_json::from_str(&text).map_err(|e| MergeError::Manifest {
            path: p.clone(),
            source: Box::new(e),
        })?;
        manifests.push(m);
    }
    let Some(first) = manifests.first().cloned() else {
        return Err(MergeError::Missing {
            shard: 0,
            shards: 1,
        });
    };
    let n = first.shards;
    let mut by_shard: Vec<Option<usize>> = vec![None; n];
    for (i, m) in manifests.iter().enumerate() {
        let same = m.source_sha256 == first.source_sha256
            && m.source_lines == first.source_lines
            && m.shards == n
            && m.mode == first.mode
            && m.shard < n;
        if !same {
            return Err(MergeError::OtherJob {
                path: parts[i].clone(),
                first: parts[0].clone(),
            });
        }
        if by_shard[m.shard].replace(i).is_some() {
            return Err(MergeError::Twice {
                shard: m.shard,
                shards: n,
            });
        }
    }
    if let Some(missing) = by_shard.iter().position(|s| s.is_none()) {
        return Err(MergeError::Missing {
            shard: missing,
            shards: n,
        });
    }
    Ok((manifests, by_shard))
}

/// Each shard's text, in shard order, checked to hold as many lines as its manifest says.
fn read_parts(
    parts: &[std::path::PathBuf],
    manifests: &[ShardManifest],
    by_shard: &[Option<usize>],
) -> Result<Vec<String>, MergeError> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|source| MergeError::Io {
            path: p.to_path_buf(),
            source,
        })
    };
    let mut texts = Vec::with_capacity(by_shard.len());
    for slot in by_shard {
        let i = slot.expect("every shard checked present");
        let text = read(&parts[i])?;
        let count = text.lines().count();
        if count != manifests[i].positions {
            return Err(MergeError::LineCount {
                path: parts[i].clone(),
                expected: manifests[i].positions,
                found: count,
            });
        }
        texts.push(text);
    }
    Ok(texts)
}

/// Checks that line `k` of the source names `moves`, as the part's line does.
fn same_as_source(source: &[&str], k: usize, moves: &str) -> Result<(), MergeError> {
    let want = source.get(k).and_then(|l| {
        connect4_engine::game::record::parse_test_line(l)
            .ok()
            .flatten()
    });
    if want.is_none_or(|w| w.moves != moves) {
        return Err(MergeError::Source(format!(
            "line {} of the source is not {moves}",
            k + 1
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `lines` as shard `shard` of a 2-shard strong job over a 2-line source.
    fn part(dir: &std::path::Path, shard: usize, lines: &[&str], sha: &str) -> std::path::PathBuf {
        let p = dir.join(format!("part{shard}.txt"));
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        let m = ShardManifest {
            source_sha256: sha.into(),
            source_lines: 2,
            shard,
            shards: 2,
            mode: "strong".into(),
            positions: lines.len(),
            skipped: vec![],
        };
        std::fs::write(manifest_path(&p), serde_json::to_string(&m).unwrap()).unwrap();
        p
    }

    #[test]
    fn mirror_images_with_different_scores_and_parts_of_other_jobs_are_refused() {
        let dir = std::env::temp_dir().join(format!("c4-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let geom = Geometry::default();
        // "4453" and "4435" are mirror images: one position, so one score.
        let a = part(&dir, 0, &["4453 -2"], "s");
        let b = part(&dir, 1, &["4435 -2"], "s");
        let merged = merge_shards(&[b.clone(), a.clone()], None, geom).unwrap();
        assert_eq!(merged.text, "4453 -2\n4435 -2\n");
        assert_eq!(merged.positions, 2);
        let b = part(&dir, 1, &["4435 3"], "s");
        let err = merge_shards(&[a.clone(), b], None, geom).unwrap_err();
        assert!(matches!(err, MergeError::Disagree { .. }), "{err}");
        assert!(err.to_string().contains("4453 -2 and 4435 3"), "{err}");
        // A part labelled from another source is not a shard of this job.
        let c = part(&dir, 1, &["4435 -2"], "other");
        let err = merge_shards(&[a, c], None, geom).unwrap_err();
        assert!(matches!(err, MergeError::OtherJob { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
