//! `alea run`, `alea tune`, `alea ladder` and `alea replay`: experiment files, battle or game.

use super::*;

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

pub(super) fn run_experiment(args: &RunArgs) -> Result<()> {
    let visible = args.run.visible();
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
            run_battle_experiment(&exp, args, visible)
        }
        AnyExperiment::Game(mut exp) => {
            if let Some(n) = args.games {
                exp.games = n;
            }
            if let Some(seed) = args.run.seed {
                exp.seed = seed;
            }
            let result = run_games(
                &exp,
                &GameRunSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            if args.run.json {
                say!(
                    "{}",
                    serde_json::to_string_pretty(&result.to_json()).expect("JSON of plain values")
                );
            } else {
                emit(&run_text(&exp, &result));
            }
            Ok(())
        }
    }
}

fn run_battle_experiment(exp: &Experiment, args: &RunArgs, visible: bool) -> Result<()> {
    let result = run(
        exp,
        &RunSettings {
            out_root: args.run.out.clone(),
            show_progress: visible,
        },
    )?;
    if args.run.json {
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
    Ok(())
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
    let table = if what == Compete::Tune {
        &mut exp.tune
    } else {
        &mut exp.ladder
    };
    if let (Some(n), Some(t)) = (args.games, table.as_mut()) {
        t.insert("games".into(), Value::Integer(n as i64));
        // --games is every cell's count: a rung's own `games` gives way to it too.
        if let Some(Value::Array(rungs)) = t.get_mut("rungs") {
            for rung in rungs.iter_mut().filter_map(Value::as_table_mut) {
                rung.remove("games");
            }
        }
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
    if args.run.json {
        let mut doc = summary;
        doc["dir"] = json!(dir.display().to_string());
        doc["files"] = json!(files);
        doc["wall_time_seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
        return Ok(());
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
            if let Some(g) = summary["last_round_largest_gain"].as_object() {
                say!(
                    "largest gain a single seat still found in the last round: {} ({}; 95% CI {} to {})",
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
    Ok(())
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
