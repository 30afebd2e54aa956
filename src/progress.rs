//! Progress bars: shown on a terminal for anything that may take more than a second, silent otherwise.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

/// A progress bar, or nothing (tests, `--json`, `--quiet`, output not a terminal).
pub struct Progress(Option<ProgressBar>);

impl Progress {
    pub fn hidden() -> Progress {
        Progress(None)
    }

    /// A bar over `total` units called `unit` ("battles", "points", "games").
    pub fn new(total: u64, unit: &str, visible: bool) -> Progress {
        if !visible {
            return Progress(None);
        }
        let bar = ProgressBar::new(total);
        let template = format!(
            "{{spinner}} {{msg}} [{{bar:32}}] {{human_pos}}/{{human_len}} {unit} · {{per_sec}} · ETA {{eta}}"
        );
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    pub fn set_message(&self, msg: impl Into<String>) {
        if let Some(b) = &self.0 {
            b.set_message(msg.into());
        }
    }

    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    /// Adds `n` units to the total (work found to be larger than first counted).
    pub fn grow(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc_length(n);
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
