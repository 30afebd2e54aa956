//! `cargo bench -p alea-benches --bench battles`: exact odds per battle type, Monte Carlo battles per second per battle type, and
//! the quickstart sweep (30 × 30 × 4 exact field battles with its charts).

use alea::battle::McRun;
use alea::progress::Progress;
use alea::rulesets::{load_battle, LoadedBattle};
use criterion::{criterion_group, Criterion, Throughput};
use std::hint::black_box;

/// The battles measured: the largest exact field battle the targets name (15 v 15 dice, mixed).
const BATTLES: &[(&str, &str)] = &[
    (
        "field-15v15-mixed",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantry = 6\ncavalry = 4\nveteran_infantry = 3\nveteran_cavalry = 2\nleader = 2\n[defender]\ninfantry = 8\ncavalry = 5\nveteran_cavalry = 2\nleader = 1",
    ),
    (
        "field-15v15-infantry",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantry = 15\nleader = 1\n[defender]\ninfantry = 15\nleader = 1",
    ),
    ("naval-20v20", "ruleset = \"mare-nostrum\"\nbattle = \"naval\"\n[attacker]\nfleets = 20\nports = 3\n[defender]\nfleets = 20\nports = 1"),
    (
        "assault-6-orders",
        "ruleset = \"mare-nostrum\"\nbattle = \"assault\"\norders = 6\n[attacker]\ninfantry = 10\ncavalry = 2\n[defender]\ngarrison = 6\nppu = 6",
    ),
    (
        "siege-5-orders",
        "ruleset = \"mare-nostrum\"\nbattle = \"siege\"\norders = 5\n[attacker]\ninfantry = 12\n[defender]\ngarrison = 6\nppu = 6",
    ),
    (
        "ror-land-2nd-punic",
        "ruleset = \"republica-de-roma\"\nbattle = \"land\"\n[rome]\nlegions = 10\nveteran_legions = 2\nfleets = 5\ncommander = \"Q. Fabius Maximus Verrucosus Cunctator\"\n[war]\nname = \"2nd Punic War\"",
    ),
    (
        "ror-naval-then-land-1st-punic",
        "ruleset = \"republica-de-roma\"\nbattle = \"naval-then-land\"\n[rome]\nlegions = 12\nfleets = 14\ncommander = \"Cn. Pompeius Magnus\"\n[war]\nname = \"1st Punic War\"",
    ),
    (
        "ror-campaign-5-phases",
        "ruleset = \"republica-de-roma\"\nbattle = \"campaign\"\nphases = 5\nreinforcement = \"replace-losses\"\n[rome]\nlegions = 12\nveteran_legions = 2\nfleets = 5\ncommander_military = 3\n[war]\nname = \"2nd Punic War\"",
    ),
    (
        "invasions-basic-nisibis-rerolls-3v2",
        "ruleset = \"invasions\"\nbattle = \"basic\"\nfortified_city = true\n[attacker]\nnation = \"empire\"\nrome = true\nleader = 3\nlegion = 5\nguard = 1\npalatine_cavalry = 1\n[defender]\nnation = \"kingdom\"\nleader = 2\nclibanarii = 1\nheavy_cavalry = 1\nhorse_archer = 3\nelite_infantry = 1",
    ),
    (
        "invasions-basic-12v12-infantry",
        "ruleset = \"invasions\"\nbattle = \"basic\"\n[attacker]\ninfantry = 12\n[defender]\nnation = \"kingdom\"\ninfantry = 12",
    ),
    (
        "invasions-advanced-nisibis",
        "ruleset = \"invasions\"\nbattle = \"advanced\"\nfortified_city = true\n[attacker]\nnation = \"empire\"\nrome = true\nleader = 3\nlegion = 5\nguard = 1\npalatine_cavalry = 1\n[defender]\nnation = \"kingdom\"\nleader = 2\nclibanarii = 1\nheavy_cavalry = 1\nhorse_archer = 3\nelite_infantry = 1",
    ),
    (
        "invasions-advanced-12v12-infantry",
        "ruleset = \"invasions\"\nbattle = \"advanced\"\n[attacker]\ninfantry = 12\n[defender]\nnation = \"kingdom\"\ninfantry = 12",
    ),
    (
        "ror-civil-war",
        "ruleset = \"republica-de-roma\"\nbattle = \"civil-war\"\n[rome]\nlegions = 12\ncommander_military = 4\n[rebel]\nlegions = 9\nveteran_legions = 3\ncommander = \"Cn. Pompeius Magnus\"",
    ),
];

/// Mediterráneo sanguinolento: exact answers take milliseconds to a second, so they are measured
/// with fewer samples. The field battle is digest §7.3's armies on battle terrain 1.
const MS_FIELD_73: &str = "ruleset = \"mediterraneo-sanguinolento\"\nbattle = \"field\"\nbattle_terrain = 1\n[attacker]\nnation = [\"roman\"]\nunits = { \"IML-RC\" = 10 }\ntactical = 2\nstrategic = 2\ntactic = \"AF\"\n[defender]\nculture = \"barbarian\"\nunits = { \"IL-IC\" = 20, \"CL-IC\" = 5 }\ntactical = 1\ntactic = \"DE\"";
const MS_FIELD_73_RESOLUTION_10: &str = "ruleset = \"mediterraneo-sanguinolento\"\nbattle = \"field\"\nbattle_terrain = 1\nresolution = 10\n[attacker]\nnation = [\"roman\"]\nunits = { \"IML-RC\" = 10 }\ntactical = 2\nstrategic = 2\ntactic = \"AF\"\n[defender]\nculture = \"barbarian\"\nunits = { \"IL-IC\" = 20, \"CL-IC\" = 5 }\ntactical = 1\ntactic = \"DE\"";
/// (name, battle, whether its exact answer is measured)
const MS_BATTLES: &[(&str, &str, bool)] = &[
    ("ms-field-7.3-resolution-10", MS_FIELD_73_RESOLUTION_10, true),
    ("ms-field-7.3", MS_FIELD_73, true),
    (
        "ms-field-rolled-terrain-10-im-v-6-il",
        "ruleset = \"mediterraneo-sanguinolento\"\nbattle = \"field\"\nhex = \"plain\"\nresolution = 10\n[attacker]\nunits = { \"IM-RC\" = 10 }\ntactic = \"AE\"\n[defender]\nunits = { \"IL-RC\" = 6 }\ntactic = \"DE\"",
        true,
    ),
    (
        "ms-assault-12v4",
        "ruleset = \"mediterraneo-sanguinolento\"\nbattle = \"assault\"\nfort_level = 2\nmonths_besieged = 1\nresolution = 10\n[attacker]\nunits = { \"IM-RC\" = 12 }\ntactical = 2\n[defender]\nunits = { \"IM-RC\" = 4 }\ntactical = 1",
        true,
    ),
    (
        "ms-naval-ram-2v2",
        "ruleset = \"mediterraneo-sanguinolento\"\nbattle = \"naval\"\n[attacker]\nfleets = { FT = 2 }\n[defender]\nfleets = { FT = 2 }",
        true,
    ),
];

/// Imperios del Mediterráneo: the expedition chain of the bundled file and the digest's T-61.
const IDM_BATTLES: &[(&str, &str)] = &[
    ("idm-expedition-naval-two-interceptions", include_str!("../experiments/battles/idm-expedition.toml")),
    ("idm-expedition-t61", "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\n[attacker]\nfleets = [{ naval = 2, assault = 1 }, { naval = 3, assault = 1 }]\ntroops = [{ assault = 3 }, { assault = 3 }, { assault = 2 }]\naboard = [1, 1, 2]\n[naval_interception]\nfleets = [{ naval = 4 }, { naval = 0 }]\n[target]\nsize = 3\nmarkers = 1"),
    ("idm-field", include_str!("../experiments/battles/idm-field.toml")),
    ("idm-assault", include_str!("../experiments/battles/idm-assault.toml")),
];

fn battle(text: &str) -> LoadedBattle {
    load_battle("bench", &text.parse().expect("bench battle is valid TOML"))
        .expect("bench battle is valid")
}

/// One exact answer per battle, in group `name`.
fn exact_group<'a>(
    c: &mut Criterion,
    name: &str,
    samples: usize,
    battles: impl Iterator<Item = (&'a str, &'a str)>,
    patient: bool,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(samples);
    for (name, text) in battles {
        let b = battle(text);
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let answer = if patient {
                    b.model.exact_patiently(false)
                } else {
                    b.model.exact()
                };
                black_box(answer.expect("tractable"))
            })
        });
    }
    group.finish();
}

/// `trials` simulated battles per iteration, in group `name` (throughput in battles a second).
fn monte_carlo_group<'a>(
    c: &mut Criterion,
    name: &str,
    trials: u64,
    battles: impl Iterator<Item = (&'a str, &'a str)>,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(trials));
    let progress = Progress::hidden();
    for (name, text) in battles {
        let b = battle(text);
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let run = McRun {
                    trials,
                    seed: 1,
                    stream: 0,
                    progress: &progress,
                };
                black_box(b.model.monte_carlo(&run))
            })
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    exact_group(c, "exact", 100, BATTLES.iter().copied(), false);
}

fn monte_carlo(c: &mut Criterion) {
    monte_carlo_group(c, "monte-carlo", 2_000_000, BATTLES.iter().copied());
}

/// Mediterráneo sanguinolento: exact answers take up to seconds, so fewer samples, with the
/// patient budget `--exact` uses.
fn mediterraneo_sanguinolento(c: &mut Criterion) {
    let tractable = MS_BATTLES.iter().filter(|b| b.2).map(|b| (b.0, b.1));
    exact_group(c, "ms-exact", 10, tractable, true);
    let all = MS_BATTLES.iter().map(|b| (b.0, b.1));
    monte_carlo_group(c, "ms-monte-carlo", 200_000, all);
}

fn imperios(c: &mut Criterion) {
    exact_group(c, "idm-exact", 100, IDM_BATTLES.iter().copied(), false);
    monte_carlo_group(c, "idm-monte-carlo", 2_000_000, IDM_BATTLES.iter().copied());
}

fn quickstart_sweep(c: &mut Criterion) {
    let exp = alea::battle::experiment::Experiment::load(std::path::Path::new(
        "experiments/quickstart.toml",
    ))
    .expect("quickstart loads");
    let out_root = tempfile::tempdir().expect("a temporary folder");
    let settings = alea::battle::sweep::RunSettings {
        out_root: out_root.path().to_path_buf(),
        show_progress: false,
    };
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("quickstart-3600-exact-with-charts", |bench| {
        bench
            .iter(|| black_box(alea::battle::sweep::run(&exp, &settings).expect("quickstart runs")))
    });
    group.finish();
}

criterion_group!(
    benches,
    exact,
    monte_carlo,
    mediterraneo_sanguinolento,
    imperios,
    quickstart_sweep
);

/// criterion's `main`, run from the repository root, where the experiments name their files from.
fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::set_current_dir(&root).expect("the repository root");
    benches();
    Criterion::default().configure_from_args().final_summary();
}
