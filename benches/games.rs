//! `cargo bench -p alea-benches --bench games`: whole automated games. One game on one thread (games per second)
//! of the Mare Nostrum balance experiment, of the República de Roma Early Republic experiment and
//! of the Imperios del Mediterráneo mirror ring (its 4-seat case, greedy empires: the middle of
//! its 2-8 sweep, where an 8-seat game costs about three 4-seat ones) and of Invasions'
//! Scenario I (every player scripted), and each
//! experiment end to end on every thread with all its outputs (parquet, CSV, JSON,
//! charts) for 2,000 games; and one Mare Nostrum game with Rome as the search player (one search
//! decision a turn, at the default budget: the time per decision is the game's time over its turns).

use alea::dice::Dice;
use alea::game::experiment::GameExperiment;
use alea::game::sweep::{run_games, GameRunSettings};
use alea::game::{GameRecord, NoLog, NoObserver};
use criterion::{criterion_group, Criterion, Throughput};
use std::path::Path;

const BALANCE: &str = "experiments/mare-nostrum-punic-balance.toml";
const EARLY_REPUBLIC: &str = "experiments/ror-early-republic.toml";
const SEARCH: &str = "experiments/mare-nostrum-search.toml";
/// The mirror ring's sweep of 2-8 greedy empires; one game is timed on its 4-seat point.
const IMPERIOS: &str = "experiments/imperios-mirror-ring.toml";
const IMPERIOS_FOUR_SEATS: usize = 2;
/// Scenario I, every player scripted (issue 21's benchmark: 10^6 games in under 10 minutes).
const INVASIONS: &str = "experiments/invasions-scenario-1.toml";

fn one_game(c: &mut Criterion) {
    for path in [BALANCE, EARLY_REPUBLIC, SEARCH, IMPERIOS, INVASIONS] {
        one_game_of(c, path);
    }
}

fn one_game_of(c: &mut Criterion, path: &str) {
    let exp = GameExperiment::load(Path::new(path)).expect("the experiment loads");
    let point = if path == IMPERIOS {
        IMPERIOS_FOUR_SEATS
    } else {
        0
    };
    let model = exp.build(0, point).expect("its model builds");
    if path == IMPERIOS {
        assert_eq!(model.players().len(), 4, "the mirror ring's 4-seat point");
    }
    let mut worker = model.worker();
    let mut record = GameRecord::new(model.players().len(), model.game_columns().len());
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(1));
    if path == SEARCH {
        group.sample_size(10);
    }
    let mut index = 0u64;
    group.bench_function(format!("{}/one-game", exp.name), |b| {
        b.iter(|| {
            record.clear();
            let mut dice = Dice::for_trial(exp.seed, 0, index);
            index += 1;
            worker.play(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            record.turns
        })
    });
    group.finish();
}

fn experiment_end_to_end(c: &mut Criterion) {
    for path in [BALANCE, EARLY_REPUBLIC, IMPERIOS, INVASIONS] {
        end_to_end_of(c, path);
    }
}

fn end_to_end_of(c: &mut Criterion, path: &str) {
    let mut exp = GameExperiment::load(Path::new(path)).expect("the experiment loads");
    exp.games = 2_000;
    let out = tempfile::tempdir().expect("a temporary folder");
    let settings = GameRunSettings {
        out_root: out.path().to_path_buf(),
        show_progress: false,
    };
    let mut group = c.benchmark_group("game-run");
    group.sample_size(10);
    group.throughput(Throughput::Elements(exp.games));
    group.bench_function(format!("{}/2000-games-with-outputs", exp.name), |b| {
        b.iter(|| run_games(&exp, &settings).expect("the run completes").games)
    });
    group.finish();
}

criterion_group!(benches, one_game, experiment_end_to_end);

/// criterion's `main`, run from the repository root, where the experiments name their files from.
fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::set_current_dir(&root).expect("the repository root");
    benches();
    Criterion::default().configure_from_args().final_summary();
}
