//! `alea odds`: one battle from the command line or a battle file, answered exactly or by Monte Carlo.

use super::*;
use crate::rulesets::LoadedBattle;

/// Merges the `key=value` assignments of `flag` into the table of the ruleset's side number `side`.
/// The flags (`--attacker`, `--defender`) are the command line's fixed names for a ruleset's first
/// and second side; the table they fill is named by the ruleset's own `sides`.
fn merge_side(table: &mut Table, flag: &str, side: usize, spec: &str) -> Result<()> {
    let values = parse_assignments(flag, spec)?;
    let slug = table.get("ruleset").and_then(Value::as_str).unwrap_or("");
    let Some(ruleset) = RULESETS.iter().find(|r| r.slug == slug) else {
        // No ruleset, or an unknown one: loading the battle says so.
        return Ok(());
    };
    let Some(side) = ruleset.sides.get(side) else {
        return Err(AleaError::invalid(
            flag,
            format!(
                "the {} battles have no two sides for it; give their keys with --set (see `alea list {}`)",
                ruleset.title, ruleset.slug
            ),
        ));
    };
    let entry = table
        .entry(side.to_string())
        .or_insert_with(|| Value::Table(Table::new()));
    let Value::Table(t) = entry else {
        return Err(AleaError::invalid(
            flag,
            format!("`{side}` in the battle file is not a table"),
        ));
    };
    t.extend(values);
    Ok(())
}

fn battle_table(args: &OddsArgs) -> Result<(String, Table)> {
    let (source, mut table) = match &args.file {
        None => ("command line".to_string(), Table::new()),
        Some(path) => {
            let source = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| {
                AleaError::invalid(&source, format!("cannot read the battle file: {e}"))
            })?;
            let table: Table = text.parse().map_err(|e: toml::de::Error| {
                crate::spec::toml_error(&source, "battle file", &text, &e)
            })?;
            (source, table)
        }
    };
    for (key, given) in [("ruleset", &args.ruleset), ("battle", &args.battle)] {
        if let Some(v) = given {
            match table.get(key).and_then(Value::as_str) {
                Some(existing) if existing != v => {
                    return Err(AleaError::input(
                        "command line",
                        key,
                        format!("\"{v}\""),
                        format!("\"{existing}\", as the battle file says (or leave it out)"),
                    ));
                }
                _ => {
                    table.insert(key.into(), Value::String(v.clone()));
                }
            }
        }
    }
    for (side, (flag, spec)) in [
        ("--attacker", &args.attacker),
        ("--defender", &args.defender),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(spec) = spec {
            merge_side(&mut table, flag, side, spec)?;
        }
    }
    let sugar = [
        ("war.name", args.war.clone().map(Value::String)),
        (
            "rome.legions",
            args.legions.map(|n| Value::Integer(n as i64)),
        ),
        (
            "rome.veteran_legions",
            args.veterans.map(|n| Value::Integer(n as i64)),
        ),
        ("rome.fleets", args.fleets.map(|n| Value::Integer(n as i64))),
        ("rome.commander", args.commander.clone().map(Value::String)),
    ];
    for (field, value) in sugar {
        if let Some(v) = value {
            set_dotted(&mut table, field, v).map_err(|m| AleaError::invalid("command line", m))?;
        }
    }
    for s in &args.set {
        let (k, v) = s.split_once('=').ok_or_else(|| {
            AleaError::invalid("--set", format!("`{s}` is not of the form key=value"))
        })?;
        set_dotted(&mut table, k.trim(), parse_value(v.trim()))
            .map_err(|m| AleaError::invalid("--set", m))?;
    }
    for o in &args.option {
        let (k, v) = o.split_once('=').ok_or_else(|| {
            AleaError::invalid("--option", format!("`{o}` is not of the form name=value"))
        })?;
        set_dotted(
            &mut table,
            &format!("options.{}", k.trim()),
            parse_value(v.trim()),
        )
        .map_err(|m| AleaError::invalid("--option", m))?;
    }
    Ok((source, table))
}

/// Monte Carlo trials when exact odds are not tractable and no `--trials` is given.
pub(crate) const DEFAULT_TRIALS: u64 = 1_000_000;

/// Asked before a simulation with its number of trials; an error refuses it.
pub(crate) type Admit = dyn Fn(&LoadedBattle, u64) -> Result<()>;

/// How `alea odds` (and `alea serve`) answer a battle.
pub(crate) struct OddsSettings<'a> {
    /// Monte Carlo with this many trials; `None`: exact where tractable, else `fallback_trials`.
    pub trials: Option<u64>,
    pub fallback_trials: u64,
    pub seed: u64,
    /// Exact odds only, patiently (an error when they are not tractable).
    pub exact: bool,
    /// A progress bar on the terminal.
    pub visible: bool,
    /// Asked before any simulation with its number of trials; an error refuses it (the server's
    /// time budget).
    pub admit: Option<&'a Admit>,
}

/// Loads the battle of `table`, answers it, and hands the answer to `then`: the one path from a
/// battle table to the answer that both the command line and the server take.
pub(crate) fn answer_battle<R>(
    source: &str,
    table: &Table,
    settings: &OddsSettings,
    then: impl FnOnce(&OddsAnswer) -> Result<R>,
) -> Result<R> {
    let loaded = load_battle(source, table)?;
    let started = Instant::now();
    let simulate = |trials: u64| -> Result<Estimates> {
        if let Some(admit) = settings.admit {
            admit(&loaded, trials)?;
        }
        let progress = Progress::new(trials, "battles", settings.visible);
        let run = McRun {
            trials,
            seed: settings.seed,
            stream: 0,
            progress: &progress,
        };
        let tally = loaded.model.monte_carlo(&run);
        progress.finish();
        Ok(Estimates::from_tally(&tally))
    };
    let (estimates, unavailable, seed) = match settings.trials {
        Some(trials) => (simulate(trials)?, None, Some(settings.seed)),
        None => match if settings.exact {
            loaded.model.exact_patiently(settings.visible)
        } else {
            loaded.model.exact()
        } {
            Ok(exact) => (Estimates::from_exact(&exact), None, None),
            Err(why) if settings.exact => {
                return Err(AleaError::invalid(
                    source,
                    format!(
                        "exact odds are not tractable here: {}; use --trials N",
                        why.0
                    ),
                ));
            }
            Err(why) => (
                simulate(settings.fallback_trials)?,
                Some(why.0),
                Some(settings.seed),
            ),
        },
    };
    then(&OddsAnswer {
        ruleset: loaded.ruleset,
        kind: loaded.kind,
        schema: loaded.model.schema(),
        options: &loaded.options,
        describe: loaded.model.describe(),
        notes: loaded.model.notes(),
        estimates,
        seed,
        exact_unavailable: unavailable,
        seconds: started.elapsed().as_secs_f64(),
    })
}

pub(super) fn odds(args: &OddsArgs) -> Result<()> {
    let (source, table) = battle_table(args)?;
    let settings = OddsSettings {
        trials: args.trials,
        fallback_trials: DEFAULT_TRIALS,
        seed: args.seed,
        exact: args.exact,
        visible: !args.quiet && !args.json && std::io::stderr().is_terminal(),
        admit: None,
    };
    answer_battle(&source, &table, &settings, |answer| {
        let mut chart_files = Vec::new();
        if let Some(stem) = &args.chart {
            chart_files = draw_odds_chart(answer, stem)?;
        }
        if args.json {
            let mut doc = answer.to_json();
            if !chart_files.is_empty() {
                doc["charts"] = json!(chart_files);
            }
            say!("{}", odds_json_text(&doc));
        } else {
            emit(&answer.to_text());
            for f in chart_files {
                say!("chart: {f}");
            }
        }
        Ok(())
    })
}

/// The text of `alea odds --json` (and of the server's `POST /api/odds`).
pub(crate) fn odds_json_text(doc: &serde_json::Value) -> String {
    serde_json::to_string_pretty(doc).expect("JSON of plain values")
}

fn draw_odds_chart(answer: &OddsAnswer, stem: &Path) -> Result<Vec<String>> {
    let stem = if matches!(
        stem.extension().and_then(|e| e.to_str()),
        Some("png" | "svg")
    ) {
        stem.with_extension("")
    } else {
        stem.to_path_buf()
    };
    if let Some(parent) = stem.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| AleaError::io(parent, e))?;
    }
    let schema = answer.schema;
    let sides = answer.ruleset.sides;
    let summary = PointSummary {
        loss_pmfs: (schema.side_losses(sides).into_iter())
            .map(|k| k.map_or_else(Vec::new, |k| loss_pmf(&answer.estimates, k)))
            .collect(),
        ..Default::default()
    };
    let outcomes: Vec<String> = schema
        .outcomes
        .iter()
        .zip(&answer.estimates.outcomes)
        .map(|(n, e)| {
            format!(
                "{} {:.1}%",
                crate::battle::report::outcome_label(sides, n),
                100.0 * e.value
            )
        })
        .collect();
    let title = format!(
        "{} {} battle: losses",
        answer.ruleset.title, answer.kind.name
    );
    let Some(mut chart) =
        crate::battle::charts::loss_chart(&title, sides, std::iter::once(("", &summary)))
    else {
        return Ok(Vec::new());
    };
    chart.subtitle = Some(format!(
        "{} · {}",
        answer.describe.join(" vs "),
        outcomes.join(", ")
    ));
    let files = crate::charts::draw_bar_chart(&chart, &stem)
        .map_err(|e| AleaError::Internal(format!("drawing a chart: {e}")))?;
    Ok(files.iter().map(|p| p.display().to_string()).collect())
}
