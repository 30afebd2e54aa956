//! Errors, font registration and atomic PNG/SVG output.

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use super::text::{Pen, FAMILY};

pub(crate) static FONT_REGULAR: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/DejaVuSans.ttf"
));
pub(crate) static FONT_BOLD: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/DejaVuSans-Bold.ttf"
));

/// Why a chart could not be written.
#[derive(Debug)]
pub enum ChartError {
    /// The bundled font could not be registered with plotters.
    Font(String),
    /// The output path is unusable (no file name, missing directory, ...).
    InvalidPath { path: PathBuf, reason: String },
    /// Plotters failed while drawing the chart.
    Render { path: PathBuf, message: String },
    /// Writing, syncing or renaming the file failed.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
}

impl fmt::Display for ChartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChartError::Font(msg) => write!(f, "cannot load the bundled chart font: {msg}"),
            ChartError::InvalidPath { path, reason } => {
                write!(f, "cannot write chart {}: {reason}", path.display())
            }
            ChartError::Render { path, message } => {
                write!(f, "cannot render chart {}: {message}", path.display())
            }
            ChartError::Io {
                path,
                action,
                source,
            } => write!(f, "cannot {action} chart file {}: {source}", path.display()),
        }
    }
}

/// A chart that cannot be drawn is the program's fault or the machine's, not the input's.
impl From<ChartError> for crate::error::AleaError {
    fn from(e: ChartError) -> Self {
        crate::error::AleaError::Internal(format!("drawing a chart: {e}"))
    }
}

impl std::error::Error for ChartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ChartError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Registers the bundled DejaVu Sans (regular and bold) with plotters under
/// the family names `"sans-serif"` and `"DejaVu Sans, sans-serif"` (the
/// latter is what the charts use, and what SVG files name). Called
/// automatically by every `draw_*` function; safe to call any number of
/// times from any thread.
pub fn register_fonts() -> Result<(), ChartError> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        for family in ["sans-serif", FAMILY] {
            register_font(family, FontStyle::Normal, FONT_REGULAR)
                .map_err(|_| "DejaVuSans.ttf is not a valid font".to_string())?;
            register_font(family, FontStyle::Bold, FONT_BOLD)
                .map_err(|_| "DejaVuSans-Bold.ttf is not a valid font".to_string())?;
        }
        Ok(())
    })
    .clone()
    .map_err(ChartError::Font)
}

/// Plotters' error type for a drawing area on backend `DB`.
pub(crate) type DrawResult<T, DB> =
    Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Something that can paint itself on any plotters backend.
pub(crate) trait Render {
    /// The image's size in pixels.
    fn size(&self) -> (u32, u32) {
        super::DEFAULT_SIZE
    }
    fn render<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        pen: &Pen,
    ) -> DrawResult<(), DB>;
}

/// `stem` + `.ext`, keeping any dots already in the stem's file name.
fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s: OsString = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// A hidden temporary file next to `target`, with the real extension last.
fn temp_path(dir: &Path, name: &str, ext: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.{}-{n}.partial.{ext}", std::process::id()))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("plotters panicked: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("plotters panicked: {s}")
    } else {
        "plotters panicked".to_string()
    }
}

fn io_err(path: &Path, action: &'static str, source: std::io::Error) -> ChartError {
    ChartError::Io {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// Renders `job` to `stem.png` and `stem.svg`, atomically.
pub(crate) fn write_chart<R: Render>(job: &R, stem: &Path) -> Result<Vec<PathBuf>, ChartError> {
    register_fonts()?;
    let name = match stem.file_name().and_then(|n| n.to_str()) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => {
            return Err(ChartError::InvalidPath {
                path: stem.to_path_buf(),
                reason: "the stem has no (UTF-8) file name".into(),
            })
        }
    };
    let dir = match stem.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(ChartError::InvalidPath {
            path: stem.to_path_buf(),
            reason: format!("directory {} does not exist", dir.display()),
        });
    }
    let png = with_suffix(stem, "png");
    let svg = with_suffix(stem, "svg");
    write_png(job, &png, &temp_path(&dir, &name, "png"))?;
    write_svg(job, &svg, &temp_path(&dir, &name, "svg"))?;
    Ok(vec![png, svg])
}

fn write_png<R: Render>(job: &R, target: &Path, tmp: &Path) -> Result<(), ChartError> {
    let drawn = catch_unwind(AssertUnwindSafe(|| {
        let root = BitMapBackend::new(tmp, job.size()).into_drawing_area();
        job.render(&root, &Pen { bitmap: true })
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())
        // The backend is dropped here; it has already saved the image.
    }));
    let result = match drawn {
        Ok(Ok(())) => fs::File::open(tmp)
            .and_then(|f| f.sync_all())
            .map_err(|e| io_err(target, "sync", e))
            .and_then(|()| fs::rename(tmp, target).map_err(|e| io_err(target, "rename", e))),
        Ok(Err(message)) => Err(ChartError::Render {
            path: target.to_path_buf(),
            message,
        }),
        Err(payload) => Err(ChartError::Render {
            path: target.to_path_buf(),
            message: panic_message(payload.as_ref()),
        }),
    };
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}

fn write_svg<R: Render>(job: &R, target: &Path, tmp: &Path) -> Result<(), ChartError> {
    let drawn = catch_unwind(AssertUnwindSafe(|| {
        let mut content = String::new();
        {
            let root = SVGBackend::with_string(&mut content, job.size()).into_drawing_area();
            job.render(&root, &Pen { bitmap: false })
                .map_err(|e| e.to_string())?;
            root.present().map_err(|e| e.to_string())?;
        }
        Ok::<String, String>(content)
    }));
    let content = match drawn {
        Ok(Ok(c)) => c,
        Ok(Err(message)) => {
            return Err(ChartError::Render {
                path: target.to_path_buf(),
                message,
            })
        }
        Err(payload) => {
            return Err(ChartError::Render {
                path: target.to_path_buf(),
                message: panic_message(payload.as_ref()),
            })
        }
    };
    let result = fs::File::create(tmp)
        .and_then(|mut f| {
            f.write_all(content.as_bytes())?;
            f.sync_all()
        })
        .map_err(|e| io_err(target, "write", e))
        .and_then(|()| fs::rename(tmp, target).map_err(|e| io_err(target, "rename", e)));
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}
