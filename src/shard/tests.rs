use super::codec::{Decoder, Encoder};
use super::*;
use crate::battle::{Est, Estimates, Method, PmfEst};
use crate::game::run::{ChunkRows, TurnRows};
use crate::game::tally::{ExactSum, GameTally, Shape};

#[test]
fn shard_numbers_count_from_one_and_every_chunk_has_one_owner() {
    assert_eq!(Part::parse("1/4").unwrap(), Part { k: 1, n: 4 });
    assert_eq!(Part::parse(" 4 / 4 ").unwrap(), Part { k: 4, n: 4 });
    for bad in [
        "0/4", "5/4", "4", "/4", "1/", "-1/4", "1/0", "x/y", "1/100001",
    ] {
        let e = Part::parse(bad).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{bad}");
        assert!(e.to_string().contains("--shard"), "{e}");
    }
    for n in 1..=7u64 {
        for g in 0..100u64 {
            let owners: Vec<u64> = (1..=n).filter(|&k| Part { k, n }.owns(g)).collect();
            assert_eq!(owners.len(), 1, "chunk {g} of {n} shards");
            assert_eq!(Part::owner(g, n) as u64, owners[0] - 1);
        }
    }
    assert_eq!(Part { k: 2, n: 4 }.folder(), "2-of-4");
}

fn shape() -> Shape {
    Shape {
        players: 2,
        endings: 3,
        max_turns: 4,
        metrics: 2,
        globals: 1,
        extras: 1,
    }
}

/// Values a decimal or 32-bit round trip would change.
const AWKWARD: [f64; 6] = [1.0 / 3.0, -0.0, 1e-300, f64::MAX, 0.1 + 0.2, f64::INFINITY];

#[test]
fn what_a_shard_stores_reads_back_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.bin");
    let mut tally = GameTally::new(shape());
    tally.games = 7;
    tally.win[1].sum = ExactSum::from_bits(i128::MIN + 3);
    tally.score[0].squares = ExactSum::from_bits(i128::MAX);
    tally.score_min = vec![AWKWARD[0], f64::NEG_INFINITY];
    tally.score_max = vec![AWKWARD[4], f64::NAN];
    tally.endings = vec![1, 0, u64::MAX];
    tally.length[3] = 5;
    tally.extra[0].add(AWKWARD[0]);
    tally.turns.running[0] = 7;
    tally.turns.player[3].add(2.5);
    tally.turns.global[2].add(-1.0 / 7.0);
    let rows = ChunkRows {
        first_game: 32,
        turns: vec![1, 4],
        ending: vec![2, 0],
        win: vec![0.5, 0.5, 1.0, 0.0],
        score: AWKWARD[..4].to_vec(),
        extra: vec![f64::NAN, AWKWARD[5]],
        turn_rows: TurnRows {
            game: vec![32, 33],
            turn: vec![1, 1],
            per_player: AWKWARD[..4].iter().chain(&AWKWARD[..4]).copied().collect(),
            global: vec![AWKWARD[0], AWKWARD[1]],
        },
    };
    let est = |value: f64, se: Option<f64>| Est { value, se };
    let estimates = Estimates {
        method: Method::MonteCarlo,
        trials: Some(99),
        outcomes: vec![est(AWKWARD[0], Some(AWKWARD[4])), est(2.0 / 3.0, None)],
        counts: vec![PmfEst {
            mean: est(1.5, Some(0.25)),
            pmf: vec![est(0.1, None), est(0.9, Some(1e-17))],
        }],
        scalars: vec![],
    };
    let mut enc = Encoder::create(&path, "test 1\n").unwrap();
    enc.game_tally(&tally).unwrap();
    enc.chunk_rows(&rows).unwrap();
    enc.estimates(&estimates).unwrap();
    enc.finish().unwrap();
    let mut dec = Decoder::open(&path, "test 1\n").unwrap();
    let back = dec.game_tally(shape()).unwrap();
    assert_eq!(back.games, 7);
    assert_eq!(back.win, tally.win);
    assert_eq!(back.score, tally.score);
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back.score_min), bits(&tally.score_min));
    assert_eq!(bits(&back.score_max), bits(&tally.score_max));
    assert_eq!(
        (&back.endings, &back.length, &back.extra),
        (&tally.endings, &tally.length, &tally.extra)
    );
    assert_eq!(back.turns, tally.turns);
    let r = dec.chunk_rows().unwrap();
    assert_eq!(
        (r.first_game, &r.turns, &r.ending),
        (32, &rows.turns, &rows.ending)
    );
    assert_eq!(bits(&r.score), bits(&rows.score));
    assert_eq!(bits(&r.extra), bits(&rows.extra));
    assert_eq!(
        bits(&r.turn_rows.per_player),
        bits(&rows.turn_rows.per_player)
    );
    assert_eq!(r.turn_rows.game, rows.turn_rows.game);
    let e = dec.estimates().unwrap();
    assert_eq!((e.method, e.trials), (Method::MonteCarlo, Some(99)));
    assert_eq!(e.outcomes, estimates.outcomes);
    assert_eq!(e.counts[0].pmf, estimates.counts[0].pmf);
    assert_eq!(e.counts[0].mean, estimates.counts[0].mean);
    assert_eq!(dec.next_u64().unwrap(), None);
}

#[test]
fn a_cut_or_foreign_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.bin");
    let mut enc = Encoder::create(&path, "test 1\n").unwrap();
    enc.game_tally(&GameTally::new(shape())).unwrap();
    enc.finish().unwrap();
    let whole = std::fs::read(&path).unwrap();
    std::fs::write(&path, &whole[..whole.len() - 3]).unwrap();
    let mut dec = Decoder::open(&path, "test 1\n").unwrap();
    let e = dec.game_tally(shape()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("ends too early"), "{e}");
    let e = Decoder::open(&path, "other 1\n").err().unwrap();
    assert!(e.to_string().contains("does not start with"), "{e}");
    // A tally of another shape (another experiment) is refused, not misread.
    std::fs::write(&path, &whole).unwrap();
    let mut dec = Decoder::open(&path, "test 1\n").unwrap();
    let other = Shape {
        players: 3,
        ..shape()
    };
    let e = dec.game_tally(other).unwrap_err();
    assert!(e.to_string().contains("where the experiment has 3"), "{e}");
}
