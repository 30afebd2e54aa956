//! Mercenaries (digest §4.5.9, rules §33, L4514-L4538) and the troops a client or associated
//! state lets its partner hire (§4.10, L436-L486).
//!
//! Each game turn a 1D6 of 1 brings mercenaries onto the map: 1D6 units, in one band at a node
//! drawn uniformly, whose kind, quality and morale and whether a named leader leads them come from
//! the referee's table (abstraction.toml `[mercenaries]`, assumed: the text leaves them to the
//! referee's roll, digest §6.1 item 4). They go to the highest sealed bid (each nation's policy
//! offers `mercenary_bid` DEN a unit, within its spare DEN) among the nations with troops within one
//! month's move of them; the winner pays at once (the text allows three months) and keeps them in
//! its field army; a named leader joins its leaders. Each year it owes them a tenth of their price
//! (option `mercenary_upkeep`: each January, or on the purchase's anniversary); unpaid, they
//! desert. In battle they fight beside the field army as their own group: they attack only beside
//! at least twice their men in the employer's troops (L4522), and option `mercenary_casualties`
//! caps their share of their side's losses at 10% where the others can take the rest (L4522).
//!
//! A major may hire half of a client state's troops and 30% of an associated state's (L446, L472):
//! policy `partner_hire`; the units move from the partner's army into a band of the major's, at the
//! table's `partner_price` times their morale cost, paid to the partner, with the same upkeep.

use super::diplomacy;
use super::economy;
use super::leaders;
use super::policy::Scripted;
use super::scenario::{CountryId, DEN};
use super::state::{State, Units, KINDS};
use super::{Game, Kind};
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// Bands a nation keeps at a time (each one kind; a battle army holds at most 6 groups).
pub const BANDS: usize = 2;
/// The appearance die's face that brings mercenaries (L4518).
pub const APPEARS_ON: u32 = 1;
/// The yearly upkeep is the price over this (L4520).
pub const UPKEEP_DIVISOR: i64 = 10;
/// Their largest share of a side's casualties, where the others can take the rest (L4522).
pub const CASUALTY_CAP: f64 = 0.10;
/// They attack only beside at least this many times their men in friendly troops (L4522).
pub const SUPPORT_RATIO: f64 = 2.0;
/// Share of a client's and an associate's troops a partner may hire (L446, L472).
pub const CLIENT_HIRE: f64 = 0.5;
pub const ASSOCIATED_HIRE: f64 = 0.3;

/// What a band is: a row of the referee's table, or a partner country's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    None,
    Table(u8),
    Partner(CountryId, u8),
    /// A partner's troops lent to its protector for one fight (`alliances.rs`).
    Lent(CountryId, u8),
    /// Troops of a host's kind hired at a recruitment centre (`recruiting.rs`).
    Recruited(CountryId, u8),
}

/// A band of mercenaries in a nation's field army.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub source: Source,
    pub units: f64,
    /// DEN paid for them (the yearly upkeep is a tenth of it).
    pub price: i64,
    /// Game month they were bought.
    pub bought: u32,
}

impl Band {
    pub const NONE: Band = Band {
        source: Source::None,
        units: 0.0,
        price: 0,
        bought: 0,
    };
}

pub type Bands = [Band; BANDS];
pub const NO_BANDS: Bands = [Band::NONE; BANDS];

/// One row of the referee's table: a unit of the battle code, its quality and morale, its weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub unit: u8,
    pub regular: bool,
    pub morale: u8,
    pub weight: u32,
}

/// abstraction.toml `[mercenaries]`, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct MercenaryData {
    pub rows: Vec<Row>,
    /// Chance a band comes with a named leader (rolled on the new-leader tables).
    pub leader_chance: f64,
    /// A hired partner's unit costs this times its morale cost in DEN.
    pub partner_price: f64,
}

/// The kind of a band's units.
pub fn kind(g: &Game, source: Source) -> Option<Kind> {
    match source {
        Source::None => None,
        Source::Table(r) => Some(g.merc_kinds[r as usize]),
        Source::Partner(c, k) | Source::Lent(c, k) | Source::Recruited(c, k) => {
            Some(g.kinds[c as usize][k as usize])
        }
    }
}

/// Men in a nation's bands.
pub fn men(g: &Game, bands: &Bands) -> f64 {
    bands
        .iter()
        .filter_map(|b| kind(g, b.source).map(|k| b.units * k.men))
        .sum()
}

/// The appearance roll of a game turn: None, or the number of units (1D6 on a 1, then 1D6).
pub fn appearance(dice: &mut Dice) -> Option<u32> {
    (dice.d(6) == APPEARS_ON).then(|| dice.d(6))
}

/// A row of the table drawn by weight.
pub fn roll_row(data: &MercenaryData, dice: &mut Dice) -> usize {
    let total: u32 = data.rows.iter().map(|r| r.weight).sum();
    let mut x = dice.below(total as u64) as u32;
    for (i, r) in data.rows.iter().enumerate() {
        if x < r.weight {
            return i;
        }
        x -= r.weight;
    }
    data.rows.len() - 1
}

/// The yearly upkeep of a band bought for `price` DEN (a tenth, rounded up).
pub fn upkeep_of(price: i64) -> i64 {
    (price + UPKEEP_DIVISOR - 1) / UPKEEP_DIVISOR
}

/// DEN country `c` owes its bands at the next payment (its reserve keeps it back).
pub fn upkeep_due(st: &State, c: CountryId) -> i64 {
    st.nations[c as usize]
        .mercs
        .iter()
        .filter(|b| b.source != Source::None)
        .map(|b| upkeep_of(b.price))
        .sum()
}

/// Whether the band's upkeep falls due in game month `m` (option `mercenary_upkeep`).
pub fn due(g: &Game, band: &Band, m: u32) -> bool {
    if band.source == Source::None || m <= band.bought {
        return false;
    }
    if g.merc_upkeep_anniversary {
        (m - band.bought).is_multiple_of(12)
    } else {
        State::calendar(m) == 1
    }
}

/// The slot a band of `source` joins in `bands`: one of the same source, else a free one.
pub(super) fn slot(bands: &Bands, source: Source) -> Option<usize> {
    bands
        .iter()
        .position(|b| b.source == source)
        .or_else(|| bands.iter().position(|b| b.source == Source::None))
}

/// Adds `units` of `source` bought for `price` in month `m` to `c`'s bands (merged with a band of
/// the same source: prices add up, the later month counts); false when no slot is free.
pub(super) fn enlist(
    st: &mut State,
    c: CountryId,
    source: Source,
    units: f64,
    price: i64,
    m: u32,
) -> bool {
    let bands = &mut st.nations[c as usize].mercs;
    let Some(i) = slot(bands, source) else {
        return false;
    };
    let b = &mut bands[i];
    b.source = source;
    b.units += units;
    b.price += price;
    b.bought = m;
    true
}

/// Whether country `c` has troops within one month's move of `node`: at home, or its field army
/// where it stands (the cheapest land path's PM within its slowest kind's monthly allowance).
pub fn in_reach(g: &Game, st: &State, c: CountryId, node: CountryId) -> bool {
    let allowance = (0..g.nkinds[c as usize] as usize)
        .map(|k| super::mounts::movement(g, st, c, &g.kinds[c as usize][k]))
        .min()
        .unwrap_or(0);
    let nat = &st.nations[c as usize];
    let home = st.lands[c as usize].owner == c;
    let field = super::battles::has_troops(&nat.field);
    [(home, c), (field, nat.at)]
        .into_iter()
        .filter(|&(present, _)| present)
        .any(|(_, a)| a == node || st.roads.cost(g, a, node) <= allowance)
}

/// The sealed bid of `c` for `units` units: its policy's DEN a unit, within what it can spend
/// above its reserve and next payments; 0 = none.
pub fn bid(g: &Game, st: &State, c: CountryId, p: &Scripted, units: u32) -> i64 {
    let offer = p.mercenary_bid.max(0) * units as i64;
    let spare = st.nations[c as usize].stock[DEN] - economy::den_to_keep(g, st, c, p);
    if offer <= 0 || spare < offer {
        return 0;
    }
    offer
}

/// Phase 1, once a game turn: the appearance roll and, if they come, the auction.
pub fn turn(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let Some(units) = appearance(dice) else {
        return;
    };
    let data = &g.scenario.mercenaries;
    let row = roll_row(data, dice);
    let named = dice.uniform() < data.leader_chance;
    let node = dice.below(g.scenario.countries.len() as u64) as CountryId;
    st.counts.mercenaries_appeared += 1;
    st.counts.mercenary_units_offered += units;
    auction(g, st, plans, (units, row, named, node), month, dice, log);
}

/// The auction of `units` units of table row `row` (led by a named leader if `named`) appearing
/// at `node`: the highest sealed bid among the nations with troops within reach wins (ties by
/// lot), pays at once and takes them into its field army; returns the winner.
pub fn auction(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    (units, row, named, node): (u32, usize, bool, CountryId),
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> Option<CountryId> {
    let source = Source::Table(row as u8);
    // Sealed bids; ties drawn by lot.
    let mut best = 0i64;
    let mut tied = 0u64;
    let mut winner = None;
    for c in 0..st.nations.len() as CountryId {
        if st.lands[c as usize].owner != c
            || slot(&st.nations[c as usize].mercs, source).is_none()
            || !in_reach(g, st, c, node)
        {
            continue;
        }
        let offer = bid(g, st, c, &plans[c as usize], units);
        if offer <= 0 || offer < best {
            continue;
        }
        if offer > best {
            (best, tied) = (offer, 0);
        }
        tied += 1;
        // Reservoir draw: each of the `tied` equal bids wins with chance 1/tied.
        if tied == 1 || dice.below(tied) == 0 {
            winner = Some(c);
        }
    }
    let w = winner?;
    st.spend(w, DEN, best);
    enlist(st, w, source, units as f64, best, month);
    let kind = g.merc_kinds[row];
    st.ledger.men_raised += units as f64 * kind.men;
    st.counts.mercenaries_hired += 1;
    st.counts.mercenary_units_hired += units;
    st.counts.mercenary_den += best as f64;
    if named && leaders::add(st, w, leaders::roll_new(g, w, dice)) {
        st.counts.mercenary_leaders += 1;
    }
    game_log!(
        log,
        "month {month}: {} buys {units} mercenary {} for {best} DEN",
        g.scenario.countries[w as usize].name,
        kind.code
    );
    Some(w)
}

/// Phase 2-3 for the months of this turn: each band's yearly upkeep falls due; unpaid, it leaves
/// (the six months it then fights its former employer are not played).
pub fn payments(g: &Game, st: &mut State, months: [u32; 2]) {
    for m in months {
        for c in 0..st.nations.len() as CountryId {
            for i in 0..BANDS {
                let band = st.nations[c as usize].mercs[i];
                if !due(g, &band, m) {
                    continue;
                }
                let owed = upkeep_of(band.price);
                if st.nations[c as usize].stock[DEN] >= owed {
                    st.spend(c, DEN, owed);
                    st.counts.mercenary_upkeep_den += owed as f64;
                    continue;
                }
                let gone = band.units * kind(g, band.source).map_or(0.0, |k| k.men);
                st.nations[c as usize].mercs[i] = Band::NONE;
                st.ledger.men_lost += gone;
                st.counts.deserted_men += gone;
                st.counts.mercenaries_deserted += band.units;
            }
        }
    }
}

/// Share of its troops a partner at treaty `level` lets its partner hire (0: none).
pub fn hire_share(level: u8) -> f64 {
    match level {
        diplomacy::CLIENT => CLIENT_HIRE,
        diplomacy::ASSOCIATED => ASSOCIATED_HIRE,
        _ => 0.0,
    }
}

/// Phase 6: a major whose policy's `partner_hire` is 0.5 or more hires, from each client or
/// associated state it has no band of yet (while it has a free band), the rules' share of the
/// partner's most numerous kind (field army and garrison alike, whole units), paying the partner
/// `partner_price` times the kind's morale cost a unit, within its spare DEN.
pub fn hire_partners(g: &Game, st: &mut State, plans: &[Scripted], month: u32) {
    for (p, &c) in g.majors.iter().enumerate() {
        let plan = &plans[c as usize];
        if plan.partner_hire < 0.5 || st.lands[c as usize].owner != c {
            continue;
        }
        for t in 0..st.nations.len() as CountryId {
            let level = st.relations[diplomacy::at(st, p, t)].level;
            let share = hire_share(level);
            if share == 0.0 || st.lands[t as usize].owner != t {
                continue;
            }
            let bands = &st.nations[c as usize].mercs;
            if bands.iter().all(|b| b.source != Source::None)
                || bands
                    .iter()
                    .any(|b| matches!(b.source, Source::Partner(x, _) if x == t))
            {
                continue;
            }
            let nat = &st.nations[t as usize];
            let Some(k) = (0..g.nkinds[t as usize] as usize).max_by(|&a, &b| {
                (nat.field[a] + nat.garrison[a]).total_cmp(&(nat.field[b] + nat.garrison[b]))
            }) else {
                continue;
            };
            let kind = g.kinds[t as usize][k];
            let unit_price =
                (kind.cost[DEN] as f64 * g.scenario.mercenaries.partner_price).ceil() as i64;
            let spare = st.nations[c as usize].stock[DEN] - economy::den_to_keep(g, st, c, plan);
            let wanted = ((nat.field[k] + nat.garrison[k]) * share).floor();
            let units = wanted.min((spare / unit_price.max(1)) as f64).max(0.0);
            if units < 1.0 {
                continue;
            }
            let price = units as i64 * unit_price;
            take_units(st, t, k, units);
            st.spend(c, DEN, price);
            st.gain(t, DEN, price);
            enlist(st, c, Source::Partner(t, k as u8), units, price, month);
            st.counts.partner_units_hired += units;
            st.counts.partner_hire_den += price as f64;
        }
    }
}

/// Removes `units` of kind `k` from `t`'s field army first, then its garrison.
fn take_units(st: &mut State, t: CountryId, k: usize, units: f64) {
    let nat = &mut st.nations[t as usize];
    let from_field = units.min(nat.field[k]);
    nat.field[k] -= from_field;
    nat.garrison[k] = (nat.garrison[k] - (units - from_field)).max(0.0);
}

/// L4522: moves the part of the mercenaries' casualties above `CASUALTY_CAP` of the side's whole
/// casualties (in men) onto the side's own troops that are left, in proportion to the men each
/// kind has left; `own`/`own_lost` are units per kind with `own_men` men a unit, `band_lost` units
/// per band with `band_men`. Returns the men moved.
pub fn cap_losses(
    own: &Units,
    own_lost: &mut Units,
    own_men: &[f64; KINDS],
    band_lost: &mut [f64; BANDS],
    band_men: &[f64; BANDS],
) -> f64 {
    let own_gone: f64 = (0..KINDS).map(|k| own_lost[k] * own_men[k]).sum();
    let band_gone: f64 = (0..BANDS).map(|b| band_lost[b] * band_men[b]).sum();
    let total = own_gone + band_gone;
    let excess = band_gone - CASUALTY_CAP * total;
    let left: f64 = (0..KINDS)
        .map(|k| (own[k] - own_lost[k]).max(0.0) * own_men[k])
        .sum();
    let moved = excess.min(left);
    if moved <= 1e-9 {
        return 0.0;
    }
    for k in 0..KINDS {
        let kind_left = (own[k] - own_lost[k]).max(0.0) * own_men[k];
        if own_men[k] > 0.0 {
            own_lost[k] += moved * kind_left / left / own_men[k];
        }
    }
    // Each band gives back in proportion to what it lost.
    for b in 0..BANDS {
        band_lost[b] -= band_lost[b] * moved / band_gone;
    }
    moved
}

impl super::load::Loader<'_> {
    /// abstraction.toml `[mercenaries]`: rows of known unit codes and morale classes, positive
    /// weights, chances and price factors in range.
    pub(super) fn mercenaries(
        &mut self,
        ab: &super::files::AbstractionFile,
    ) -> crate::error::Result<MercenaryData> {
        use super::load::{bad, class, quoted};
        let t = &ab.mercenaries;
        self.stand_in("mercenaries", &t.provenance, t.why.as_deref())?;
        if !(0.0..=1.0).contains(&t.leader_chance) {
            return Err(bad(
                self.ab,
                "mercenaries.leader_chance",
                t.leader_chance,
                "a chance from 0 to 1",
            ));
        }
        if !(0.0..=10.0).contains(&t.partner_price) {
            return Err(bad(
                self.ab,
                "mercenaries.partner_price",
                t.partner_price,
                "0 to 10 times the morale cost",
            ));
        }
        if t.bands.is_empty() || t.bands.len() > 255 {
            return Err(bad(
                self.ab,
                "mercenaries.bands",
                format!("{} rows", t.bands.len()),
                "1 to 255 rows",
            ));
        }
        let units = &crate::rulesets::mediterraneo_sanguinolento::data::data().units;
        let mut rows = Vec::with_capacity(t.bands.len());
        for (i, r) in t.bands.iter().enumerate() {
            let field = |f: &str| format!("mercenaries.bands[{i}].{f}");
            let unit = units.iter().position(|x| x.code == r.unit).ok_or_else(|| {
                let hint =
                    crate::error::did_you_mean(&r.unit, units.iter().map(|x| x.code.as_str()));
                bad(
                    self.ab,
                    field("unit"),
                    quoted(&r.unit),
                    format!("a unit code of land-units.toml{hint}"),
                )
            })?;
            if r.weight == 0 || r.weight > 1000 {
                return Err(bad(self.ab, field("weight"), r.weight, "1 to 1000"));
            }
            rows.push(Row {
                unit: unit as u8,
                regular: r.regular,
                morale: class(self.ab, &field("morale"), &r.morale)?,
                weight: r.weight,
            });
        }
        Ok(MercenaryData {
            rows,
            leader_chance: t.leader_chance,
            partner_price: t.partner_price,
        })
    }
}
