//! Strait crossing (digest §3.2): per strait 1d6 (2 in bad weather); for every 1, a danger check of
//! 2d6 (3 in bad weather): one 1 costs a random card, two 1s (A-08: or three, by option) wreck the
//! whole expedition. Good weather: no rolls.

use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str = "strait crossing: 1d6 per strait (2 in bad weather), a danger check of 2d6 (3) per 1: one 1 loses a card, two wreck the expedition";
pub const OUTCOMES: &[&str] = &["crossed", "wrecked"];
const STRAITS: Key = keys::int("straits", 1, 10)
    .default_int(1)
    .help("straits on the land legs");
pub const WEATHER: Key = keys::choice("weather", &["normal", "good", "bad"])
    .default_choice("normal")
    .help("\"good\": no rolls; \"bad\": an extra die on both rolls");
const CARDS: Key = keys::int("cards", 1, 40).default_int(3).help(
    "Troop and Fleet cards in the expedition (losing the last one ends it: counted as wrecked)",
);

pub const KEYS: &[Key] = &[STRAITS, WEATHER, CARDS];

/// The weather a `weather` key names.
pub fn weather(f: &Fields, key: &Key) -> Result<Weather> {
    Ok(match key.choice(f)? {
        "good" => Weather::Good,
        "bad" => Weather::Bad,
        _ => Weather::Normal,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weather {
    Normal,
    Good,
    Bad,
}

/// One strait's outcome distribution: (P(no loss), P(one card), P(two cards), P(wreck)).
/// Each 1 on the first dice brings a danger check; a check with `wreck_ones` or more 1s wrecks,
/// one with fewer (but at least one) costs a card.
pub fn strait_outcomes(weather: Weather, wreck_ones: u32) -> [f64; 4] {
    if weather == Weather::Good {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let (first, check, wreck_ones) = dice_for(weather, wreck_ones);
    // One check: P(wreck), P(lose a card), P(nothing).
    let binom = |n: u32, k: u32| -> f64 {
        let c = (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
        c * (1.0f64 / 6.0).powi(k as i32) * (5.0f64 / 6.0).powi((n - k) as i32)
    };
    let wreck: f64 = (wreck_ones..=check).map(|k| binom(check, k)).sum();
    let lose: f64 = (1..wreck_ones.min(check + 1))
        .map(|k| binom(check, k))
        .sum();
    let calm = binom(check, 0);
    let mut out = [0.0; 4];
    for ones in 0..=first {
        let p = binom(first, ones);
        match ones {
            0 => out[0] += p,
            1 => {
                out[0] += p * calm;
                out[1] += p * lose;
                out[3] += p * wreck;
            }
            _ => {
                // Two checks, one after the other; a wreck ends it.
                out[0] += p * calm * calm;
                out[1] += p * 2.0 * calm * lose;
                out[2] += p * lose * lose;
                out[3] += p * (wreck + (1.0 - wreck) * wreck);
            }
        }
    }
    out
}

/// The dice of a strait: first roll, danger check, and the 1s on the check that wreck.
fn dice_for(weather: Weather, wreck_ones: u32) -> (u32, u32, u32) {
    if weather == Weather::Bad {
        (2, 3, wreck_ones)
    } else {
        (1, 2, 2)
    }
}

/// One strait with dice: Some(cards lost) or None for a wreck (the simulations' twin of
/// [`strait_outcomes`]).
pub fn roll_strait(dice: &mut Dice, weather: Weather, wreck_ones: u32) -> Option<u32> {
    if weather == Weather::Good {
        return Some(0);
    }
    let (first, check, wreck_ones) = dice_for(weather, wreck_ones);
    let mut lost = 0;
    let ones = (0..first).filter(|_| dice.d(6) == 1).count();
    for _ in 0..ones {
        let k = (0..check).filter(|_| dice.d(6) == 1).count() as u32;
        if k >= wreck_ones {
            return None;
        }
        lost += (k >= 1) as u32;
    }
    Some(lost)
}

pub struct Strait {
    pub straits: u32,
    pub weather: Weather,
    pub cards: u32,
    pub wreck_ones: u32,
    schema: Schema,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let straits = STRAITS.int(fields)? as u32;
    let weather = weather(fields, &WEATHER)?;
    let cards = CARDS.int(fields)? as u32;
    Ok(Box::new(Strait::new(
        straits,
        weather,
        cards,
        options.int("bad_weather_wreck_ones") as u32,
    )))
}

impl Strait {
    pub fn new(straits: u32, weather: Weather, cards: u32, wreck_ones: u32) -> Strait {
        let mut schema = Schema::new(OUTCOMES);
        schema.count("cards_lost", cards as usize);
        Strait {
            straits,
            weather,
            cards,
            wreck_ones,
            schema,
        }
    }

    /// The distribution of cards left after every strait (index = cards left; None = wrecked).
    pub fn survivors(&self) -> (Vec<f64>, f64) {
        let o = strait_outcomes(self.weather, self.wreck_ones);
        let mut left = vec![0.0; self.cards as usize + 1];
        left[self.cards as usize] = 1.0;
        let mut wrecked = 0.0;
        for _ in 0..self.straits {
            let mut next = vec![0.0; left.len()];
            for (n, &p) in left.iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                if n == 0 {
                    next[0] += p;
                    continue;
                }
                next[n] += p * o[0];
                next[n.saturating_sub(1)] += p * o[1];
                next[n.saturating_sub(2)] += p * o[2];
                wrecked += p * o[3];
            }
            left = next;
        }
        (left, wrecked)
    }
}

impl Simulate for Strait {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        out.clear(1, 0);
        let mut left = self.cards;
        for _ in 0..self.straits {
            match roll_strait(dice, self.weather, self.wreck_ones) {
                None => {
                    out.outcome = 1;
                    out.counts[0] = self.cards;
                    return;
                }
                Some(k) => left = left.saturating_sub(k),
            }
            if left == 0 {
                break;
            }
        }
        out.outcome = if left == 0 { 1 } else { 0 };
        out.counts[0] = self.cards - left;
    }
}

impl BattleModel for Strait {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let (left, wrecked) = self.survivors();
        let emptied = left[0];
        ex.outcomes = vec![1.0 - wrecked - emptied, wrecked + emptied];
        for (n, &p) in left.iter().enumerate() {
            ex.counts[0].add_mass(self.cards as usize - n, p);
        }
        ex.counts[0].add_mass(self.cards as usize, wrecked);
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "{} strait{} in {:?} weather, an expedition of {} cards",
            self.straits,
            if self.straits == 1 { "" } else { "s" },
            self.weather,
            self.cards
        )]
    }

    fn notes(&self) -> Vec<String> {
        let o = strait_outcomes(self.weather, self.wreck_ones);
        vec![format!(
            "per strait: safe {:.5}, one card lost {:.5}, two {:.5}, wreck {:.5} (a wreck discards everything with no recovery; losing the last card ends the expedition)",
            o[0], o[1], o[2], o[3]
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digest T-53.
    #[test]
    fn t53_per_strait_outcomes() {
        let n = strait_outcomes(Weather::Normal, 2);
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert!(close(n[0], 205.0 / 216.0) && close(n[1], 10.0 / 216.0));
        assert!(close(n[2], 0.0) && close(n[3], 1.0 / 216.0));
        assert_eq!(strait_outcomes(Weather::Good, 2), [1.0, 0.0, 0.0, 0.0]);
        let b = strait_outcomes(Weather::Bad, 2);
        assert!(close(b[0], 1452025.0 / 1679616.0), "{}", b[0]);
        assert!(close(b[1], 30125.0 / 279936.0), "{}", b[1]);
        assert!(close(b[2], 625.0 / 186624.0), "{}", b[2]);
        assert!(close(b[3], 161.0 / 6561.0), "{}", b[3]);
        let total: f64 = strait_outcomes(Weather::Bad, 3).iter().sum();
        assert!(close(total, 1.0));
    }
}
