//! Output files: a run writes into a hidden temporary directory that is renamed into place only when
//! everything in it is complete, so `out/<name>/` always holds one whole run or none. Tables stream
//! to parquet and CSV in batches, so memory does not grow with the number of rows.

use crate::error::{AleaError, Result};
use polars::prelude::*;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A directory that becomes `out/<name>` when committed, and disappears if dropped uncommitted.
pub struct OutputDir {
    target: PathBuf,
    temp: tempfile::TempDir,
}

impl OutputDir {
    pub fn create(root: &Path, name: &str) -> Result<OutputDir> {
        std::fs::create_dir_all(root).map_err(|e| AleaError::io(root, e))?;
        let prefix = format!(".{name}.partial-");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        // A folder as `mkdir` makes it (0o777 less the umask), not tempfile's owner-only default:
        // it becomes the user's output folder.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777));
        let temp = builder
            .tempdir_in(root)
            .map_err(|e| AleaError::io(root, e))?;
        Ok(OutputDir {
            target: root.join(name),
            temp,
        })
    }

    /// Where to write `file` now (inside the temporary directory).
    pub fn path(&self, file: &str) -> PathBuf {
        self.temp.path().join(file)
    }

    /// The directory the files will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Replaces any previous run's directory with this one. Its `shards/` folder (the shards of a
    /// run cut across machines, see [`crate::shard`]) is kept: it moves into the new directory.
    pub fn commit(self) -> Result<PathBuf> {
        let shards = self.target.join("shards");
        if shards.is_dir() && !self.temp.path().join("shards").exists() {
            std::fs::rename(&shards, self.temp.path().join("shards"))
                .map_err(|e| AleaError::io(&shards, e))?;
        }
        let old = self.target.with_file_name(format!(
            ".{}.old-{}",
            self.target
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("out"),
            std::process::id()
        ));
        if self.target.exists() {
            std::fs::rename(&self.target, &old).map_err(|e| AleaError::io(&self.target, e))?;
        }
        let temp = self.temp.keep();
        std::fs::rename(&temp, &self.target).map_err(|e| AleaError::io(&self.target, e))?;
        if old.exists() {
            std::fs::remove_dir_all(&old).map_err(|e| AleaError::io(&old, e))?;
        }
        Ok(self.target)
    }
}

/// A count with its thousands separated by commas, as tables and charts print it: 1,234,567.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Rounds to 12 significant digits: far beyond any estimate's precision, and it keeps tables free of
/// float noise such as 1.0000000000000002.
pub fn tidy(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// Writes `contents` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = path.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    std::fs::write(&temp, contents).map_err(|e| AleaError::io(&temp, e))?;
    std::fs::rename(&temp, path).map_err(|e| AleaError::io(path, e))
}

/// What every manifest.json starts with: the experiment, its file and the file's hash.
pub struct ManifestSource<'a> {
    pub name: &'a str,
    pub file: &'a str,
    pub sha256: &'a str,
}

/// Writes `dir/manifest.json`, the facts of one run, in the order every command writes them: the
/// alea version and the experiment's source, then `facts` (what this kind of run adds), then the
/// wall time, `speed` (a rate such as games per second, when the run has one), the thread count
/// and, when given, the files written. Returns the JSON written.
pub fn write_manifest(
    dir: &OutputDir,
    source: &ManifestSource,
    facts: serde_json::Value,
    seconds: f64,
    speed: Option<(&str, f64)>,
    files: Option<&[String]>,
) -> Result<serde_json::Value> {
    let mut doc = serde_json::Map::new();
    let mut put = |key: &str, value: serde_json::Value| {
        doc.insert(key.to_string(), value);
    };
    put("alea_version", env!("CARGO_PKG_VERSION").into());
    put("experiment", source.name.into());
    put("experiment_file", source.file.into());
    put("experiment_sha256", source.sha256.into());
    if let serde_json::Value::Object(facts) = facts {
        for (key, value) in facts {
            put(&key, value);
        }
    }
    put(
        "wall_time_seconds",
        ((seconds * 1000.0).round() / 1000.0).into(),
    );
    if let Some((key, rate)) = speed {
        put(key, rate.round().into());
    }
    put("threads", rayon::current_num_threads().into());
    if let Some(files) = files {
        put("files", files.into());
    }
    let manifest = serde_json::Value::Object(doc);
    let text =
        serde_json::to_string_pretty(&manifest).map_err(|e| AleaError::Internal(e.to_string()))?;
    write_atomic(&dir.path("manifest.json"), (text + "\n").as_bytes())?;
    Ok(manifest)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColType {
    Int,
    Float,
    Str,
}

/// One cell of a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Int(i64),
    Float(f64),
    Str(String),
    Null,
}

/// The values of one column of a batch given column by column ([`TableWriter::push_columns`]).
pub enum Values<'a> {
    Int(&'a [i64]),
    /// NaN is written as null (a value the row does not have).
    Float(&'a [f64]),
    /// Text given as indices into `names`, so repeated names cost nothing until written.
    Text {
        names: &'a [String],
        index: &'a [u32],
    },
    /// The same value in every row of the batch.
    Same(&'a Cell),
}

/// Rows with a fixed column list, streamed in batches to parquet (and optionally CSV).
pub struct TableWriter {
    columns: Vec<(String, ColType)>,
    pending: Vec<Vec<Cell>>,
    batch_rows: usize,
    parquet: Option<polars::io::parquet::write::BatchedWriter<File>>,
    csv: Option<polars::io::csv::write::BatchedWriter<File>>,
    path: PathBuf,
    rows: u64,
}

fn polars_err(path: &Path, e: PolarsError) -> AleaError {
    AleaError::io(path, std::io::Error::other(e.to_string()))
}

impl TableWriter {
    /// A table written to a parquet file, a CSV file, or both.
    pub fn create(
        parquet: Option<&Path>,
        csv: Option<&Path>,
        columns: Vec<(String, ColType)>,
    ) -> Result<TableWriter> {
        let schema = Schema::from_iter(columns.iter().map(|(name, t)| {
            let dtype = match t {
                ColType::Int => DataType::Int64,
                ColType::Float => DataType::Float64,
                ColType::Str => DataType::String,
            };
            Field::new(name.as_str().into(), dtype)
        }));
        let parquet_writer = match parquet {
            None => None,
            Some(path) => {
                let file = File::create(path).map_err(|e| AleaError::io(path, e))?;
                Some(
                    ParquetWriter::new(file)
                        .batched(&schema)
                        .map_err(|e| polars_err(path, e))?,
                )
            }
        };
        let csv_writer = match csv {
            None => None,
            Some(path) => {
                let file = File::create(path).map_err(|e| AleaError::io(path, e))?;
                Some(
                    CsvWriter::new(file)
                        .batched(&schema)
                        .map_err(|e| polars_err(path, e))?,
                )
            }
        };
        Ok(TableWriter {
            columns,
            pending: Vec::new(),
            batch_rows: 4096,
            parquet: parquet_writer,
            csv: csv_writer,
            path: parquet.or(csv).map(Path::to_path_buf).unwrap_or_default(),
            rows: 0,
        })
    }

    pub fn columns(&self) -> &[(String, ColType)] {
        &self.columns
    }

    /// Adds a row: one cell per column, in column order.
    pub fn push(&mut self, row: Vec<Cell>) -> Result<()> {
        debug_assert_eq!(row.len(), self.columns.len());
        self.pending.push(row);
        if self.pending.len() >= self.batch_rows {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let height = self.pending.len();
        let columns: Vec<Column> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, (name, t))| {
                let name: PlSmallStr = name.as_str().into();
                match t {
                    ColType::Int => Column::new(
                        name,
                        self.pending
                            .iter()
                            .map(|r| match &r[i] {
                                Cell::Int(v) => Some(*v),
                                _ => None,
                            })
                            .collect::<Vec<_>>(),
                    ),
                    ColType::Float => Column::new(
                        name,
                        self.pending
                            .iter()
                            .map(|r| match &r[i] {
                                Cell::Float(v) => Some(tidy(*v)),
                                Cell::Int(v) => Some(*v as f64),
                                _ => None,
                            })
                            .collect::<Vec<_>>(),
                    ),
                    ColType::Str => Column::new(
                        name,
                        self.pending
                            .iter()
                            .map(|r| match &r[i] {
                                Cell::Str(v) => Some(v.clone()),
                                Cell::Int(v) => Some(v.to_string()),
                                Cell::Float(v) => Some(v.to_string()),
                                Cell::Null => None,
                            })
                            .collect::<Vec<_>>(),
                    ),
                }
            })
            .collect();
        self.write_batch(height, columns)?;
        self.pending.clear();
        Ok(())
    }

    /// Writes `height` rows given column by column, after any rows pending: for tables of many
    /// rows (one per game, per turn), where a `Vec<Cell>` per row would cost more than the rows.
    /// Floats are written as given (not [`tidy`]-rounded): they are raw game outputs.
    pub fn push_columns(&mut self, height: usize, values: &[Values]) -> Result<()> {
        self.flush()?;
        if height == 0 {
            return Ok(());
        }
        let bad = |what: String| {
            AleaError::Internal(format!("a batch for {}: {what}", self.path.display()))
        };
        if values.len() != self.columns.len() {
            return Err(bad(format!(
                "{} columns instead of {}",
                values.len(),
                self.columns.len()
            )));
        }
        let mut columns = Vec::with_capacity(values.len());
        for ((name, t), v) in self.columns.iter().zip(values) {
            let name: PlSmallStr = name.as_str().into();
            let len = match v {
                Values::Int(x) => x.len(),
                Values::Float(x) => x.len(),
                Values::Text { index, .. } => index.len(),
                Values::Same(_) => height,
            };
            if len != height {
                return Err(bad(format!("column {name} has {len} rows, not {height}")));
            }
            let column = match (v, t) {
                (Values::Int(x), ColType::Int) => Column::new(name, x.to_vec()),
                (Values::Float(x), ColType::Float) => Column::new(
                    name,
                    x.iter()
                        .map(|&f| (!f.is_nan()).then_some(f))
                        .collect::<Vec<_>>(),
                ),
                (Values::Text { names, index }, ColType::Str) => Column::new(
                    name,
                    index
                        .iter()
                        .map(|&i| names.get(i as usize).map(String::as_str))
                        .collect::<Vec<_>>(),
                ),
                (Values::Same(Cell::Int(i)), ColType::Int) => Column::new(name, vec![*i; height]),
                (Values::Same(Cell::Int(i)), ColType::Float) => {
                    Column::new(name, vec![*i as f64; height])
                }
                (Values::Same(Cell::Float(f)), ColType::Float) => {
                    Column::new(name, vec![*f; height])
                }
                (Values::Same(Cell::Str(s)), ColType::Str) => {
                    Column::new(name, vec![s.as_str(); height])
                }
                (Values::Same(Cell::Null), t) => {
                    let dtype = match t {
                        ColType::Int => DataType::Int64,
                        ColType::Float => DataType::Float64,
                        ColType::Str => DataType::String,
                    };
                    Column::full_null(name, height, &dtype)
                }
                _ => return Err(bad(format!("column {name} has values of the wrong type"))),
            };
            columns.push(column);
        }
        self.write_batch(height, columns)?;
        Ok(())
    }

    /// Flushes what is pending and closes the files; returns the number of rows written.
    /// Writes one batch of `height` rows to every format the table is written in.
    fn write_batch(&mut self, height: usize, columns: Vec<Column>) -> Result<()> {
        let df = DataFrame::new(height, columns).map_err(|e| polars_err(&self.path, e))?;
        if let Some(parquet) = &mut self.parquet {
            parquet
                .write_batch(&df)
                .map_err(|e| polars_err(&self.path, e))?;
        }
        if let Some(csv) = &mut self.csv {
            csv.write_batch(&df)
                .map_err(|e| polars_err(&self.path, e))?;
        }
        self.rows += height as u64;
        Ok(())
    }

    pub fn finish(mut self) -> Result<u64> {
        self.flush()?;
        if let Some(parquet) = &mut self.parquet {
            parquet.finish().map_err(|e| polars_err(&self.path, e))?;
        }
        if let Some(csv) = &mut self.csv {
            csv.finish().map_err(|e| polars_err(&self.path, e))?;
        }
        Ok(self.rows)
    }
}

/// The SHA-256 of `data` in lowercase hex, as manifests record the experiment file.
pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    use std::fmt::Write;
    sha2::Sha256::digest(data)
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_hash_files_as_sha256_hex() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_dropped_output_leaves_nothing_and_a_committed_one_replaces_the_old() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        {
            let dir = OutputDir::create(root, "x").unwrap();
            std::fs::write(dir.path("a.txt"), "half").unwrap();
        }
        assert!(!root.join("x").exists());
        assert_eq!(std::fs::read_dir(root).unwrap().count(), 0);
        for content in ["first", "second"] {
            let dir = OutputDir::create(root, "x").unwrap();
            std::fs::write(dir.path("a.txt"), content).unwrap();
            dir.commit().unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(root.join("x/a.txt")).unwrap(),
            "second"
        );
        assert_eq!(std::fs::read_dir(root).unwrap().count(), 1);
        // The output folder gets the permissions any folder the user makes would get.
        std::fs::create_dir(root.join("plain")).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions();
        assert_eq!(mode(&root.join("x")), mode(&root.join("plain")));
    }

    #[test]
    fn a_new_run_keeps_the_shards_folder_of_the_old() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("x/shards/1-of-2")).unwrap();
        std::fs::write(root.join("x/shards/1-of-2/shard.json"), "{}").unwrap();
        std::fs::write(root.join("x/old.txt"), "old").unwrap();
        let dir = OutputDir::create(root, "x").unwrap();
        std::fs::write(dir.path("new.txt"), "new").unwrap();
        dir.commit().unwrap();
        assert!(root.join("x/new.txt").exists() && !root.join("x/old.txt").exists());
        assert!(root.join("x/shards/1-of-2/shard.json").exists());
        assert_eq!(std::fs::read_dir(root).unwrap().count(), 1);
    }

    #[test]
    fn tables_stream_in_batches() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let columns = vec![
            ("variant".to_string(), ColType::Str),
            ("n".to_string(), ColType::Int),
            ("p".to_string(), ColType::Float),
        ];
        let mut w = TableWriter::create(
            Some(&root.join("t.parquet")),
            Some(&root.join("t.csv")),
            columns,
        )
        .unwrap();
        w.batch_rows = 3;
        for i in 0..10 {
            w.push(vec![
                Cell::Str("a".into()),
                Cell::Int(i),
                if i == 4 { Cell::Null } else { Cell::Float(0.5) },
            ])
            .unwrap();
        }
        assert_eq!(w.finish().unwrap(), 10);
        let csv = std::fs::read_to_string(root.join("t.csv")).unwrap();
        assert_eq!(csv.lines().count(), 11);
        assert_eq!(csv.lines().next().unwrap(), "variant,n,p");
        assert!(std::fs::metadata(root.join("t.parquet")).unwrap().len() > 100);
    }

    #[test]
    fn column_batches_follow_pending_rows_and_write_nan_as_null() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let columns = vec![
            ("variant".to_string(), ColType::Str),
            ("n".to_string(), ColType::Int),
            ("p".to_string(), ColType::Float),
            ("who".to_string(), ColType::Str),
        ];
        let mut w = TableWriter::create(None, Some(&root.join("c.csv")), columns).unwrap();
        w.push(vec![
            Cell::Str("first".into()),
            Cell::Int(0),
            Cell::Float(0.5),
            Cell::Null,
        ])
        .unwrap();
        let names = vec!["Rome".to_string(), "Carthage".to_string()];
        let same = Cell::Str("batch".into());
        w.push_columns(
            3,
            &[
                Values::Same(&same),
                Values::Int(&[1, 2, 3]),
                Values::Float(&[0.25, f64::NAN, 1.0]),
                Values::Text {
                    names: &names,
                    index: &[1, 0, 1],
                },
            ],
        )
        .unwrap();
        let short = w.push_columns(2, &[Values::Same(&same), Values::Int(&[1])]);
        assert!(short.is_err());
        assert_eq!(w.finish().unwrap(), 4);
        let csv = std::fs::read_to_string(root.join("c.csv")).unwrap();
        assert_eq!(
            csv,
            "variant,n,p,who\nfirst,0,0.5,\nbatch,1,0.25,Carthage\nbatch,2,,Rome\nbatch,3,1.0,Carthage\n"
        );
    }
}
