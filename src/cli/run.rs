//! `alea run`, `alea tune`, `alea ladder` and `alea replay`: experiment files, battle or game.

use super::*;
use crate::battle::sweep::RunResult;
use crate::game::experiment::GameExperiment;
use crate::game::sweep::GameRunResult;
use crate::shard::{Job, Outcome, Part};

/// Runs `f` on a rayon pool of `threads` threads (the global pool when `None`).
pub(super) fn with_threads(
    threads: Option<u64>,
    f: impl FnOnce() -> Result<()> + Send,
) -> Result<()> {
    match threads {
        None => f(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .map_err(|e| AleaError::Internal(format!("starting {n} threads: {e}")))?
            .install(f),
    }
}

/// The shard job the command line asks for, if any.
fn shard_job(shard: &ShardArgs, run: &RunOutput, games: Option<u64>) -> Result<Option<Job>> {
    let Some(text) = &shard.shard else {
        return Ok(None);
    };
    Ok(Some(Job {
        out_root: run.out.clone(),
        part: Part::parse(text)?,
        force: shard.force,
        overrides: crate::shard::overrides(games, run.seed),
        show_progress: run.visible(),
    }))
}

/// What a shard run prints.
fn report_shard(outcome: &Outcome, json: bool) {
    let dir = outcome.dir().display().to_string();
    if json {
        let doc = match outcome {
            Outcome::Played { seconds, .. } => {
                json!({ "dir": dir, "played": true, "wall_time_seconds": (seconds * 1000.0).round() / 1000.0 })
            }
            Outcome::AlreadyDone { .. } => json!({ "dir": dir, "played": false }),
        };
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
        return;
    }
    match outcome {
        Outcome::Played { seconds, .. } => say!("shard played in {seconds:.2} s → {dir}"),
        Outcome::AlreadyDone { .. } => {
            say!("shard already finished with this file, seed and options: {dir} (--force plays it again)")
        }
    }
}

pub(super) fn run_experiment(args: &RunArgs) -> Result<()> {
    let visible = args.run.visible();
    let job = shard_job(&args.shard, &args.run, args.games)?;
    match load_any(&args.experiment)? {
        AnyExperiment::Battle(mut exp) => {
            if let Some(n) = args.games {
                return Err(AleaError::input(
                    "command line",
                    "--games",
                    n,
                    "only with a game experiment ([game] table); a battle experiment sets `trials`",
                ));
            }
            if let Some(seed) = args.run.seed {
                exp.seed = seed;
            }
            if let Some(job) = job {
                report_shard(&crate::shard::battle::run_shard(&exp, &job)?, args.run.json);
                return Ok(());
            }
            let result = run(
                &exp,
                &RunSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            report_battles(&exp, &result, args.run.json);
            Ok(())
        }
        AnyExperiment::Game(mut exp) => {
            if let Some(n) = args.games {
                exp.games = n;
            }
            if let Some(seed) = args.run.seed {
                exp.seed = seed;
            }
            if let Some(job) = job {
                report_shard(&crate::shard::game::run_shard(&exp, &job)?, args.run.json);
                return Ok(());
            }
            let result = run_games(
                &exp,
                &GameRunSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            report_games(&exp, &result, args.run.json);
            Ok(())
        }
    }
}

fn report_games(exp: &GameExperiment, result: &GameRunResult, json: bool) {
    if json {
        say!(
            "{}",
            serde_json::to_string_pretty(&result.to_json()).expect("JSON of plain values")
        );
    } else {
        emit(&run_text(exp, result));
    }
}

fn report_battles(exp: &Experiment, result: &RunResult, json: bool) {
    if json {
        say!(
            "{}",
            serde_json::to_string_pretty(&result.manifest).expect("JSON of plain values")
        );
    } else {
        say!(
            "{}: {} points ({} exact, {} simulated) in {:.2} s → {}",
            exp.name,
            result.points,
            result.exact_points,
            result.simulated_points,
            result.seconds,
            result.dir.display()
        );
        for f in &result.files {
            say!("  {}", result.dir.join(f).display());
        }
    }
}

/// `alea merge`: checks the shards belong together, then writes out/<name>/ from them.
pub(super) fn merge(args: &MergeArgs) -> Result<()> {
    let set = crate::shard::load(&args.shards)?;
    let path = set.experiment_file()?;
    let out_root = args.out.clone().unwrap_or_else(|| set.default_out_root());
    let visible = !args.quiet && !args.json && std::io::stderr().is_terminal();
    let m = &set.manifest;
    let games = m.settings.get("games").and_then(serde_json::Value::as_u64);
    match (m.kind.as_str(), load_any(&path)?) {
        ("battle", AnyExperiment::Battle(mut exp)) => {
            exp.seed = m.seed;
            let settings = RunSettings {
                out_root,
                show_progress: visible,
            };
            let result = crate::shard::battle::merge(&exp, &set, &settings)?;
            report_battles(&exp, &result, args.json);
            Ok(())
        }
        ("game", AnyExperiment::Game(mut exp)) => {
            exp.seed = m.seed;
            if let Some(n) = games {
                exp.games = n;
            }
            let settings = GameRunSettings {
                out_root,
                show_progress: visible,
            };
            let result = crate::shard::game::merge(&exp, &set, &settings)?;
            report_games(&exp, &result, args.json);
            Ok(())
        }
        ("ladder", AnyExperiment::Game(mut exp)) => {
            exp.seed = m.seed;
            let given = m.overrides.get("games").and_then(serde_json::Value::as_u64);
            set_games(&mut exp, Compete::Ladder, given);
            let r = crate::shard::ladder::merge(
                &exp,
                &set,
                &LadderSettings {
                    out_root,
                    show_progress: visible,
                },
            )?;
            report_compete(
                &exp,
                Compete::Ladder,
                (r.summary, r.dir, r.files, r.seconds),
                args.json,
            );
            Ok(())
        }
        (kind, _) => Err(AleaError::invalid(
            set.dirs[0].display().to_string(),
            format!(
                "a {kind} shard, but {} is not a {kind} experiment",
                path.display()
            ),
        )),
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Compete {
    Tune,
    Ladder,
}

/// `alea tune` and `alea ladder`: load the game experiment, apply the command line, run, report.
pub(super) fn compete(args: &CompeteArgs, what: Compete) -> Result<()> {
    let visible = args.run.visible();
    let source = args.experiment.display().to_string();
    let mut exp = match load_any(&args.experiment)? {
        AnyExperiment::Game(exp) => exp,
        AnyExperiment::Battle(_) => {
            return Err(AleaError::invalid(
                source,
                "a battle experiment has no players to tune or rank (this command takes a file with a [game] table)",
            ))
        }
    };
    if let Some(seed) = args.run.seed {
        exp.seed = seed;
    }
    set_games(&mut exp, what, args.games);
    if let Some(job) = shard_job(&args.shard, &args.run, args.games)? {
        if what == Compete::Tune {
            return Err(AleaError::input(
                "command line",
                "--shard",
                args.shard.shard.as_deref().unwrap_or(""),
                "only with alea run and alea ladder: alea tune cannot be cut into shards (each round's candidates depend on the rounds before it); run it on one machine",
            ));
        }
        report_shard(&crate::shard::ladder::run_shard(&exp, &job)?, args.run.json);
        return Ok(());
    }
    let (summary, dir, files, seconds) = match what {
        Compete::Tune => {
            let r = tune(
                &exp,
                &TuneSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            (r.summary, r.dir, r.files, r.seconds)
        }
        Compete::Ladder => {
            let r = ladder(
                &exp,
                &LadderSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            (r.summary, r.dir, r.files, r.seconds)
        }
    };
    report_compete(&exp, what, (summary, dir, files, seconds), args.run.json);
    Ok(())
}

/// What `alea tune` and `alea ladder` print: their summary and files.
fn report_compete(
    exp: &GameExperiment,
    what: Compete,
    (summary, dir, files, seconds): (serde_json::Value, PathBuf, Vec<String>, f64),
    json: bool,
) {
    if json {
        let mut doc = summary;
        doc["dir"] = json!(dir.display().to_string());
        doc["files"] = json!(files);
        doc["wall_time_seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
        return;
    }
    match what {
        Compete::Tune => {
            say!(
                "{}: {} round(s) in {:.1} s, {}",
                exp.name,
                summary["rounds_played"],
                seconds,
                if summary["converged"] == true {
                    format!("converged (no seat gains more than {})", summary["margin"])
                } else {
                    "NOT converged: more rounds, games or candidates may help".into()
                }
            );
            if let Some(g) = summary["largest_gain"].as_object() {
                let judged = &summary["judging_rounds"];
                let rounds = if judged[0] == judged[1] {
                    "the last round".to_string()
                } else {
                    format!("rounds {} and {} (sampled and ends)", judged[0], judged[1])
                };
                say!(
                    "largest gain a single seat still found in {rounds}: {} ({}; 95% CI {} to {})",
                    num(&g["gain"], 4),
                    g["seat"].as_str().unwrap_or(""),
                    num(&g["ci_low"], 4),
                    num(&g["ci_high"], 4)
                );
            }
            for seat in summary["seats"].as_array().into_iter().flatten() {
                say!(
                    "  {:<16} {} = {} [{}, {}]  {}",
                    seat["seat"].as_str().unwrap_or(""),
                    seat["objective"].as_str().unwrap_or(""),
                    num(&seat["value"], 3),
                    num(&seat["ci_low"], 3),
                    num(&seat["ci_high"], 3),
                    seat["policy"].as_str().unwrap_or("")
                );
            }
        }
        Compete::Ladder => {
            say!(
                "{}: skill ladder in {:.1} s ({} games per seat and pair)",
                exp.name,
                seconds,
                summary["games_per_cell"]
            );
            for p in summary["pairs"].as_array().into_iter().flatten() {
                say!(
                    "  {:>10} over {:<10} ratio {} [{}, {}] {}",
                    p["higher"].as_str().unwrap_or(""),
                    p["lower"].as_str().unwrap_or(""),
                    num(&p["ratio"], 3),
                    num(&p["ci_low"], 3),
                    num(&p["ci_high"], 3),
                    if p["higher_beats_lower"] == true {
                        "higher rung wins more"
                    } else {
                        "NOT separated"
                    }
                );
            }
        }
    }
    say!("→ {}", dir.display());
    for f in &files {
        say!("  {}", dir.join(f).display());
    }
}

/// `--games` of `alea tune` / `alea ladder`: the `[tune]` or `[ladder]` table's `games`.
fn set_games(exp: &mut GameExperiment, what: Compete, games: Option<u64>) {
    let table = if what == Compete::Tune {
        &mut exp.tune
    } else {
        &mut exp.ladder
    };
    if let (Some(n), Some(t)) = (games, table.as_mut()) {
        t.insert("games".into(), Value::Integer(n as i64));
        // --games is every cell's count: a rung's own `games` gives way to it too.
        if let Some(Value::Array(rungs)) = t.get_mut("rungs") {
            for rung in rungs.iter_mut().filter_map(Value::as_table_mut) {
                rung.remove("games");
            }
        }
    }
}

/// A JSON number with `digits` decimals, or a dash where there is none.
fn num(v: &serde_json::Value, digits: usize) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.digits$}"))
}

pub(super) fn replay_game(args: &ReplayArgs) -> Result<()> {
    let mut exp = match load_any(&args.experiment)? {
        AnyExperiment::Game(exp) => exp,
        AnyExperiment::Battle(_) => {
            return Err(AleaError::invalid(
                args.experiment.display().to_string(),
                "a battle experiment has no games to replay (`alea replay` takes a file with a [game] table)",
            ))
        }
    };
    if let Some(seed) = args.seed {
        exp.seed = seed;
    }
    let game = replay(&exp, args.variant.as_deref(), args.point, args.game)?;
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&game.to_json()).expect("JSON of plain values")
        );
    } else {
        emit(&game.to_text());
    }
    Ok(())
}
