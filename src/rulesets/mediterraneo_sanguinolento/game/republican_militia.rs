//! Rome's Republican militia (digest §4.5.5 and §4.13's SPQR; rules §39.14-§39.15, L5245-L5257;
//! the rulebook's special rule `spqr_and_republican_militia`, whose first country holds it and
//! whose `militia_units` and `militia_men_recovered_per_month` are its numbers).
//!
//! A standing body of `militia_units` units of IM-RC: medium infantry (IM), Regular, morale C
//! (the rules' unit notation, digest §1: type, then R/I for regular/irregular, then the morale
//! letter; the battle code's `IM` unit raised regular at morale 2). It belongs to its nation while
//! that holds its home, never leaves the home node and costs nothing. It appears with the SPQR,
//! whenever the home is attacked (the trigger of his command, `leaders::home_lead`): it fights
//! beside the home's defenders in the field battle there, and (option
//! `republican_militia_fights`, default "all") in the assault on the capital and the siege's
//! mouths and morale, and holds a capital with no garrison; "field" reads the body as an army in
//! the field only. Every fight goes through the battle code as one more group of the defending
//! side ([`super::battles::army`]), after the own troops in the casualty order.
//!
//! It is not the ordinary militia (L5257): no call, no bar after destruction, no PV and no
//! rebellion-index row (§4.19's militia rows are the called militia's, `militia.rs`; none names
//! this body). Its losses are recovered at `militia_men_recovered_per_month` men each month
//! after it disbands (the month after the invasion ends; option `republican_militia_recovery`,
//! default "after-disbanding"; "every-month" also while mobilized), up to its full strength. A
//! body with less than one unit left is too weak to appear until it recovers; it is lost with
//! the home (men lost) and recovers from nothing if the nation takes its home back.
//!
//! Men: the body's men are in the men ledger from the start; those killed leave it as
//! `men_lost`, those recovered enter it as `men_raised`.

use super::battles::Side;
use super::scenario::{CountryId, Scenario};
use super::state::State;
use super::{Game, Kind};
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// The rulebook's special rule that names the body's nation and its numbers.
pub const RULE: &str = "spqr_and_republican_militia";
/// The IM-RC of L5257 in the battle code's terms: medium infantry, regular, morale C.
pub const UNIT: &str = "IM";
pub const REGULAR: bool = true;
pub const MORALE_C: usize = 2;
/// Below this many units left the body is too weak to appear.
pub const WEAK_BELOW: f64 = 1.0;

/// The body's nation, numbers, kind and rule options.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The nation that holds it (the rule's first country); None without the rule.
    pub nation: Option<CountryId>,
    /// Its full strength, in units.
    pub units: f64,
    /// Men of its losses recovered each month.
    pub recovered_per_month: f64,
    pub kind: Kind,
    /// It fights only in the field battle at home (option republican_militia_fights =
    /// "field"), not in the siege and the assault.
    pub field_only: bool,
    /// It recovers every month, mobilized or not (option republican_militia_recovery =
    /// "every-month"), not only after disbanding.
    pub recovers_mobilized: bool,
}

impl Rules {
    pub fn new(s: &Scenario, options: &Options) -> Rules {
        let unit = data()
            .units
            .iter()
            .position(|u| u.code == UNIT)
            .expect("the unit table has IM") as u8;
        let number = |key| s.special.number(RULE, key).unwrap_or(0.0).max(0.0);
        let nation = s
            .special
            .flag(RULE)
            .and_then(|f| (0..s.countries.len() as CountryId).find(|&c| f.who.contains(c)));
        Rules {
            nation,
            units: number("militia_units").floor(),
            recovered_per_month: number("militia_men_recovered_per_month"),
            kind: Kind::new(unit, MORALE_C, REGULAR),
            field_only: options.choice("republican_militia_fights") == "field",
            recovers_mobilized: options.choice("republican_militia_recovery") == "every-month",
        }
    }

    /// Its full strength in men.
    pub fn full_men(&self) -> f64 {
        self.units * self.kind.men
    }
}

/// The body's state in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Body {
    /// Its strength, in units (men / the kind's men; fractions are men short of a unit).
    pub units: f64,
    /// It has appeared in the current invasion and not yet disbanded.
    pub out: bool,
}

/// The body at the start of a game: whole, at home.
pub fn initial(r: &Rules) -> Body {
    Body {
        units: if r.nation.is_some() { r.units } else { 0.0 },
        out: false,
    }
}

/// Men of the body counted for country `c` (its nation's, wherever its home is).
pub fn men_of(g: &Game, st: &State, c: CountryId) -> f64 {
    if g.republican.nation == Some(c) {
        st.republican.units * g.republican.kind.men
    } else {
        0.0
    }
}

/// Whether its nation holds its home (where the body stands).
fn home_held(g: &Game, st: &State) -> Option<CountryId> {
    g.republican
        .nation
        .filter(|&c| st.lands[c as usize].owner == c)
}

/// Units of the body that defend node `t` for its holder (in the assault and the siege when
/// `walls`, by option `republican_militia_fights`): its nation's home, held, and the body strong
/// enough to appear; else none.
pub fn at(g: &Game, st: &State, t: CountryId, walls: bool) -> f64 {
    let here = home_held(g, st) == Some(t);
    let fights = !(walls && g.republican.field_only);
    if here && fights && st.republican.units >= WEAK_BELOW {
        st.republican.units
    } else {
        0.0
    }
}

/// The body joins the defending side `defender` at node `t` (a fight at `walls` or in the
/// field): it appears (mobilized until the invasion ends) and the fight is counted.
pub fn join(g: &Game, st: &mut State, t: CountryId, walls: bool, defender: &mut Side) {
    let units = at(g, st, t, walls);
    if units <= 0.0 || defender.country != t {
        return;
    }
    defender.republican = units;
    st.republican.out = true;
    st.counts.republican_militia_fights += 1;
}

/// The body lost `units` in a fight (its men dead: `men_lost`).
pub fn lose(g: &Game, st: &mut State, units: f64) {
    let lost = units.clamp(0.0, st.republican.units);
    if lost <= 0.0 {
        return;
    }
    st.republican.units -= lost;
    let men = lost * g.republican.kind.men;
    st.ledger.men_lost += men;
    st.counts.republican_militia_men_lost += men;
}

/// Its home node `t` is taken: the body dies with it.
pub fn home_lost(g: &Game, st: &mut State, t: CountryId) {
    if g.republican.nation == Some(t) {
        let units = st.republican.units;
        lose(g, st, units);
        st.republican.out = false;
    }
}

/// At the end of a month: with its home invaded the body is out (it appears with the SPQR);
/// else an out body disbands; a disbanded one (or, by option, any) recovers its month's men up
/// to full strength while its nation holds its home.
pub fn month_end(g: &Game, st: &mut State, invaded: &[bool; 256]) {
    let Some(home) = home_held(g, st) else {
        return;
    };
    let body = &mut st.republican;
    let recovers = if invaded[home as usize] {
        body.out = true;
        g.republican.recovers_mobilized
    } else if body.out {
        body.out = false;
        st.counts.republican_militia_disbands += 1;
        g.republican.recovers_mobilized
    } else {
        true
    };
    if recovers {
        let men = recovery(&g.republican, st.republican.units);
        st.republican.units += men / g.republican.kind.men;
        st.ledger.men_raised += men;
        st.counts.republican_militia_men_recovered += men;
    }
}

/// Men a body of `units` recovers in a month: the rule's men, up to full strength.
pub fn recovery(r: &Rules, units: f64) -> f64 {
    r.recovered_per_month
        .min(r.full_men() - units * r.kind.men)
        .max(0.0)
}
