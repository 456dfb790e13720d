//! The cluster jobs from one description (deploy/jobs.toml): each job's sizes, resources,
//! settings and shell script are written once, and [`render`] makes both the Kubernetes Jobs
//! (deploy/k8s/NAME-job.yaml) and the Slurm batch scripts (deploy/slurm/NAME.sbatch) from
//! them, so the two schedulers run the same commands with the same defaults. `c4 deploy`
//! writes the files; `c4 deploy --check` (and a test) fails when the committed ones differ.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The description's file in the repository.
pub const DEFAULT_DESCRIPTION: &str = "deploy/jobs.toml";

/// Variables every job's script reads, set by the scheduler (see deploy/jobs.toml).
const RESERVED: [&str; 3] = ["TASK", "TASKS", "CPUS"];

/// Every job, with what they share.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// The container image the Kubernetes Jobs run.
    pub image: String,
    /// The PersistentVolumeClaim every pod shares.
    pub claim: String,
    /// Where that volume is mounted: the pods' work folder.
    pub mount: String,
    /// Named sizes (`shards`, `runs`) that jobs' `tasks` and `{name}` in defaults refer to.
    #[serde(default)]
    pub sizes: BTreeMap<String, usize>,
    /// The jobs, in the order their files are listed.
    #[serde(rename = "job")]
    pub jobs: Vec<Job>,
}

/// One job: an array of `tasks` (or a single task) running `run` in the work folder.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Lower-case name: `c4-NAME` on the scheduler, and the files' names.
    pub name: String,
    /// What the job does and what comes before or after it (the files' header comment).
    pub about: String,
    /// The size (of `sizes`) giving the number of tasks; none: a single task.
    #[serde(default)]
    pub tasks: Option<String>,
    /// Kubernetes: pods of the array running at once (default: all).
    #[serde(default)]
    pub parallel: Option<usize>,
    /// Cores per task.
    pub cpus: usize,
    /// Memory per task, GiB.
    pub memory_gib: usize,
    /// Kubernetes: pod failures tolerated (`backoffLimit`).
    pub retries: usize,
    /// A failed or preempted task is started again (it resumes its own work): Kubernetes
    /// `restartPolicy: OnFailure`, Slurm `--requeue`.
    #[serde(default)]
    pub restart: bool,
    /// Settings as `NAME=default`.
    #[serde(default)]
    pub env: Vec<String>,
    /// Defaults that differ on Kubernetes (`NAME=value`, for names of `env`).
    #[serde(default)]
    pub k8s_env: Vec<String>,
    /// The POSIX shell script, run in the work folder.
    pub run: String,
}

/// A generated file: its path under the deploy folder and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Relative to the deploy folder, e.g. `k8s/label-job.yaml`.
    pub path: PathBuf,
    /// The file's contents.
    pub text: String,
}

impl Description {
    /// Reads and checks a description file.
    pub fn load(path: &Path) -> Result<Description> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Description::parse(&text).with_context(|| format!("in {}", path.display()))
    }

    /// Parses and checks a description.
    pub fn parse(text: &str) -> Result<Description> {
        let d: Description = toml::from_str(text)?;
        d.check()?;
        Ok(d)
    }

    fn check(&self) -> Result<()> {
        if self.jobs.is_empty() {
            bail!("no [[job]]");
        }
        for (name, &n) in &self.sizes {
            if n == 0 {
                bail!("size {name} is 0");
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for job in &self.jobs {
            let what = format!("job {:?}", job.name);
            let ok_name = !job.name.is_empty()
                && job
                    .name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !ok_name {
                bail!("{what}: a name is lower-case letters, digits and '-'");
            }
            if !names.insert(job.name.clone()) {
                bail!("{what} is described twice");
            }
            if let Some(t) = &job.tasks
                && !self.sizes.contains_key(t)
            {
                bail!("{what}: tasks = {t:?} is not a size of [sizes]");
            }
            if job.cpus == 0 || job.memory_gib == 0 {
                bail!("{what}: cpus and memory_gib must be at least 1");
            }
            if job.parallel == Some(0) {
                bail!("{what}: parallel must be at least 1");
            }
            if job.run.trim().is_empty() {
                bail!("{what}: run is empty");
            }
            let env = self.settings(job).with_context(|| what.clone())?;
            for line in &job.k8s_env {
                let (name, _) = split_setting(line).with_context(|| what.clone())?;
                if !env.iter().any(|(n, _)| *n == name) {
                    bail!("{what}: k8s_env sets {name}, which env does not declare");
                }
            }
        }
        Ok(())
    }

    /// A job's settings, `{size}` replaced, in the order given.
    fn settings<'a>(&self, job: &'a Job) -> Result<Vec<(&'a str, String)>> {
        let mut out: Vec<(&str, String)> = Vec::new();
        for line in &job.env {
            let (name, value) = split_setting(line)?;
            if RESERVED.contains(&name) {
                bail!("{name} is set by the scheduler (TASK, TASKS, CPUS)");
            }
            if out.iter().any(|(n, _)| *n == name) {
                bail!("{name} is set twice");
            }
            out.push((name, self.expand(value)?));
        }
        Ok(out)
    }

    /// `value` with every `{size}` replaced by that size.
    fn expand(&self, value: &str) -> Result<String> {
        let mut out = String::new();
        let mut rest = value;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let Some(len) = rest[start..].find('}') else {
                bail!("unclosed '{{' in {value:?}");
            };
            let key = &rest[start + 1..start + len];
            let size = self
                .sizes
                .get(key)
                .with_context(|| format!("{{{key}}} in {value:?} is not a size of [sizes]"))?;
            out.push_str(&size.to_string());
            rest = &rest[start + len + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn task_count(&self, job: &Job) -> Option<usize> {
        job.tasks.as_ref().map(|t| self.sizes[t])
    }
}

/// `NAME=value` split, the name a shell variable's.
fn split_setting(line: &str) -> Result<(&str, &str)> {
    let Some((name, value)) = line.split_once('=') else {
        bail!("setting {line:?} is not NAME=default");
    };
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !ok {
        bail!("setting {line:?}: a name is upper-case letters, digits and '_'");
    }
    Ok((name, value))
}

/// The header every generated file starts with (`#` comments).
fn header(job: &Job) -> String {
    let mut s = String::new();
    for line in job.about.trim().lines() {
        s.push_str(format!("# {line}").trim_end());
        s.push('\n');
    }
    s.push_str("# Made by `c4 deploy` from deploy/jobs.toml: edit that file, not this one.\n");
    s
}

/// Every file of both schedulers, Kubernetes first, in the description's order.
pub fn render(d: &Description) -> Result<Vec<Generated>> {
    let mut out = Vec::new();
    for job in &d.jobs {
        out.push(Generated {
            path: Path::new("k8s").join(format!("{}-job.yaml", job.name)),
            text: kubernetes(d, job)?,
        });
    }
    for job in &d.jobs {
        out.push(Generated {
            path: Path::new("slurm").join(format!("{}.sbatch", job.name)),
            text: slurm(d, job)?,
        });
    }
    Ok(out)
}

/// A YAML double-quoted scalar (JSON's string syntax is YAML's).
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The Kubernetes Job: an Indexed Job for an array, the script run by `sh -c` in the shared
/// volume with the settings as env entries.
fn kubernetes(d: &Description, job: &Job) -> Result<String> {
    let mut env = d.settings(job)?;
    for line in &job.k8s_env {
        let (name, value) = split_setting(line)?;
        let value = d.expand(value)?;
        if let Some(e) = env.iter_mut().find(|(n, _)| *n == name) {
            e.1 = value;
        }
    }
    let tasks = d.task_count(job);
    let mut s = header(job);
    let settings: Vec<String> = env.iter().map(|(n, _)| n.to_string()).collect();
    if !settings.is_empty() {
        s.push_str(&format!(
            "# Settings: the env entries {} (and TASKS, CPUS).\n",
            settings.join(", ")
        ));
    }
    s.push_str("apiVersion: batch/v1\nkind: Job\nmetadata:\n");
    s.push_str(&format!("  name: c4-{}\nspec:\n", job.name));
    if let Some(n) = tasks {
        s.push_str("  completionMode: Indexed\n");
        s.push_str(&format!("  completions: {n}\n"));
        s.push_str(&format!("  parallelism: {}\n", job.parallel.unwrap_or(n)));
    }
    s.push_str(&format!("  backoffLimit: {}\n", job.retries));
    s.push_str("  template:\n    spec:\n");
    let policy = if job.restart { "OnFailure" } else { "Never" };
    s.push_str(&format!("      restartPolicy: {policy}\n"));
    s.push_str("      containers:\n");
    s.push_str(&format!("        - name: {}\n", job.name));
    s.push_str(&format!("          image: {}\n", quoted(&d.image)));
    s.push_str(&format!("          workingDir: {}\n", quoted(&d.mount)));
    s.push_str("          command: [\"sh\", \"-c\"]\n");
    s.push_str("          args:\n            - |\n");
    let mut script = String::from("set -eu\n");
    script.push_str(if tasks.is_some() {
        "TASK=\"$JOB_COMPLETION_INDEX\"\n"
    } else {
        "TASK=0\n"
    });
    script.push_str(job.run.trim());
    for line in script.lines() {
        if line.is_empty() {
            s.push('\n');
        } else {
            s.push_str(&format!("              {line}\n"));
        }
    }
    s.push_str("          env:\n");
    let fixed = [
        ("TASKS", tasks.unwrap_or(1).to_string()),
        ("CPUS", job.cpus.to_string()),
    ];
    for (name, value) in fixed.iter().map(|(n, v)| (*n, v.clone())).chain(env) {
        s.push_str(&format!(
            "            - name: {name}\n              value: {}\n",
            quoted(&value)
        ));
    }
    s.push_str("          resources:\n            requests:\n");
    s.push_str(&format!(
        "              cpu: \"{}\"\n              memory: {}Gi\n",
        job.cpus, job.memory_gib
    ));
    s.push_str(&format!(
        "          volumeMounts:\n            - name: work\n              mountPath: {}\n",
        quoted(&d.mount)
    ));
    s.push_str(&format!(
        "      volumes:\n        - name: work\n          persistentVolumeClaim:\n            claimName: {}\n",
        quoted(&d.claim)
    ));
    Ok(s)
}

/// A value as a shell word inside `${NAME:-...}` (single-quoted when it needs quoting).
fn shell_default(value: &str) -> String {
    let plain = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/,:".contains(c));
    if plain {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// The Slurm batch script: `#SBATCH` lines, then the scheduler's variables and the settings
/// from the environment with their defaults, then the script.
fn slurm(d: &Description, job: &Job) -> Result<String> {
    let env = d.settings(job)?;
    let tasks = d.task_count(job);
    let mut s = String::from("#!/bin/bash\n");
    s.push_str(&header(job));
    if !env.is_empty() {
        let list: Vec<String> = env
            .iter()
            .map(|(n, v)| {
                if v.is_empty() {
                    format!("{n} (empty)")
                } else {
                    format!("{n} ({v})")
                }
            })
            .collect();
        s.push_str(&format!(
            "# Settings from the environment (defaults): {}.\n",
            list.join(", ")
        ));
    }
    s.push_str(&format!("#SBATCH --job-name=c4-{}\n", job.name));
    if let Some(n) = tasks {
        s.push_str(&format!("#SBATCH --array=0-{}\n", n - 1));
    }
    s.push_str(&format!("#SBATCH --cpus-per-task={}\n", job.cpus));
    s.push_str(&format!("#SBATCH --mem={}G\n", job.memory_gib));
    if job.restart {
        s.push_str("#SBATCH --requeue\n");
    }
    s.push_str("set -euo pipefail\n");
    s.push_str("TASK=${SLURM_ARRAY_TASK_ID:-0}\n");
    s.push_str(&format!(
        "TASKS=${{SLURM_ARRAY_TASK_COUNT:-{}}}\n",
        tasks.unwrap_or(1)
    ));
    s.push_str(&format!("CPUS=${{SLURM_CPUS_PER_TASK:-{}}}\n", job.cpus));
    for (name, value) in &env {
        s.push_str(&format!("{name}=${{{name}:-{}}}\n", shell_default(value)));
    }
    s.push_str(job.run.trim());
    s.push('\n');
    Ok(s)
}

/// Writes every generated file under `dir` (atomically each); returns their paths.
pub fn write(d: &Description, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for g in render(d)? {
        let path = dir.join(&g.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        connect4_engine::io::write_bytes_atomic(&path, g.text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// What differs between the generated files and those under `dir`: files missing or
/// different, and files of `k8s/` and `slurm/` that no job makes. Empty: up to date.
pub fn stale(d: &Description, dir: &Path) -> Result<Vec<String>> {
    let files = render(d)?;
    let mut out = Vec::new();
    for g in &files {
        let path = dir.join(&g.path);
        match std::fs::read_to_string(&path) {
            Ok(text) if text == g.text => {}
            Ok(_) => out.push(format!("{} differs", g.path.display())),
            Err(_) => out.push(format!("{} is missing", g.path.display())),
        }
    }
    for sub in ["k8s", "slurm"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries.flatten() {
            let rel = Path::new(sub).join(e.file_name());
            if !files.iter().any(|g| g.path == rel) {
                out.push(format!("{} is made by no job", rel.display()));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
image = "img"
claim = "work"
mount = "/jobs"
[sizes]
shards = 3
[[job]]
name = "label"
about = "Labels."
tasks = "shards"
cpus = 2
memory_gib = 3
retries = 4
restart = true
env = ["INPUT=positions.txt", "ARGS=", "N={shards}"]
k8s_env = ["INPUT=/data/p.txt"]
run = "c4 data label \"$INPUT\" --shard \"$TASK/$TASKS\" $ARGS"
"#;

    #[test]
    fn both_schedulers_get_the_same_script_and_settings() {
        let d = Description::parse(SMALL).unwrap();
        let files = render(&d).unwrap();
        assert_eq!(files.len(), 2);
        let (k8s, slurm) = (&files[0].text, &files[1].text);
        assert_eq!(files[0].path, Path::new("k8s/label-job.yaml"));
        assert!(k8s.contains("completions: 3\n  parallelism: 3\n"));
        assert!(k8s.contains("TASK=\"$JOB_COMPLETION_INDEX\""));
        assert!(k8s.contains("- name: INPUT\n              value: \"/data/p.txt\""));
        assert!(k8s.contains("- name: N\n              value: \"3\""));
        assert!(slurm.contains("#SBATCH --array=0-2\n"));
        assert!(slurm.contains("#SBATCH --mem=3G\n#SBATCH --requeue\n"));
        assert!(slurm.contains("TASKS=${SLURM_ARRAY_TASK_COUNT:-3}\n"));
        assert!(slurm.contains("INPUT=${INPUT:-positions.txt}\nARGS=${ARGS:-}\nN=${N:-3}\n"));
        let line = "c4 data label \"$INPUT\" --shard \"$TASK/$TASKS\" $ARGS";
        assert!(k8s.contains(&format!("              {line}\n")));
        assert!(slurm.ends_with(&format!("{line}\n")));
    }

    #[test]
    fn impossible_descriptions_are_refused_with_the_reason() {
        let cases = [
            ("tasks = \"shards\"", "tasks = \"nope\"", "not a size"),
            ("N={shards}", "N={nope}", "not a size"),
            ("\"ARGS=\"", "\"TASK=1\"", "set by the scheduler"),
            ("\"ARGS=\"", "\"ARGS\"", "not NAME=default"),
            ("INPUT=/data", "OTHER=/data", "does not declare"),
            ("cpus = 2", "cpus = 0", "at least 1"),
            ("name = \"label\"", "name = \"La bel\"", "lower-case"),
            ("retries = 4", "retries = 4\nbogus = 1", "unknown field"),
        ];
        for (from, to, why) in cases {
            let text = SMALL.replace(from, to);
            assert_ne!(text, SMALL, "{from}");
            let err = format!("{:#}", Description::parse(&text).unwrap_err());
            assert!(err.contains(why), "{to}: {err}");
        }
    }

    #[test]
    fn defaults_that_need_quoting_are_quoted_for_the_shell() {
        assert_eq!(shell_default("data/bench"), "data/bench");
        assert_eq!(shell_default(""), "");
        assert_eq!(shell_default("--width 5"), "'--width 5'");
        assert_eq!(shell_default("it's"), "'it'\\''s'");
    }
}
