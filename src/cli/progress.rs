//! What long commands show: the progress bars, and the files a command wrote.

use anyhow::Result;

/// Prints "wrote A, B, ..." for the files a command wrote.
pub fn print_written(paths: &[std::path::PathBuf]) {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    println!("wrote {}", names.join(", "));
}

/// The progress bar every long command shows: `label [=====>   ] done/total elapsed eta`.
pub fn progress_bar(len: usize, label: impl Into<String>) -> Result<indicatif::ProgressBar> {
    let bar = indicatif::ProgressBar::new(len as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} {elapsed} eta {eta}",
        )?
        .progress_chars("=> "),
    );
    bar.set_message(label.into());
    Ok(bar)
}

/// The CLI's one [`connect4_engine::progress::Progress`]: a bar per part of a job (a spinner
/// when the part's size is unknown), replaced as parts go; the part's label stays in front
/// of its message. Bars draw only on a terminal (indicatif hides them otherwise).
pub struct Bars {
    current: std::sync::Mutex<Option<(indicatif::ProgressBar, String)>>,
}

impl Bars {
    /// No bar yet: the first part's start makes one.
    pub fn new() -> Bars {
        Bars {
            current: std::sync::Mutex::new(None),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(indicatif::ProgressBar, String)>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl connect4_engine::progress::Progress for Bars {
    fn start(&self, label: &str, total: usize) {
        let bar = if total == 0 {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_message(label.to_string());
            b.enable_steady_tick(std::time::Duration::from_millis(200));
            b
        } else {
            progress_bar(total, label).unwrap_or_else(|_| indicatif::ProgressBar::new(total as u64))
        };
        if let Some((old, _)) = self.lock().replace((bar, label.to_string())) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, steps: usize) {
        if let Some((b, _)) = self.lock().as_ref() {
            b.inc(steps as u64);
        }
    }

    fn message(&self, text: &str) {
        if let Some((b, label)) = self.lock().as_ref() {
            b.set_message(format!("{label} ({text})"));
        }
    }

    fn finish(&self) {
        if let Some((b, _)) = self.lock().take() {
            b.finish_and_clear();
        }
    }

    fn note(&self, text: &str) {
        match self.lock().as_ref() {
            Some((b, _)) => b.suspend(|| eprintln!("note: {text}")),
            None => eprintln!("note: {text}"),
        }
    }
}
