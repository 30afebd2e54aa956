//! Foraging (digest §4.4, rules §10 L2092-L2106): a field army that spends 2 extra PM per hex
//! gathers the hex terrain's COM per hex (plain 10, desert 1, forest 8, rough 6, hills 5, mountain
//! 4; rulebook.toml `[forage]`, by the battle code's hex terrain of the node) into the food it
//! carries, never above what it can carry (`supply::capacity`). On the region graph a leg's hexes
//! are all of the node it enters (as `roads::leg_pm` charges them), so an army foraging a leg
//! gathers that many hexes of the entered node's terrain and pays 2 PM for each on top of the
//! leg's cost; the 2 PM are time spent gathering, not moving: a road does not halve them and
//! winter or a storm does not double them. Option forage_standing: "marching-only" (the text's
//! extra PM, the default) or "standing-too" (an army standing still beyond its lands, besieging or
//! idle, also forages the node it stands in once a month: its hexes taken as half its shortest
//! land link's, rounded up, the links running centre to centre). A node foraged this month
//! yields again to another army (the graph keeps no hexes to strip; armies rarely share a node).
//! Foraging needs the carried-food reading of option army_supply (by "home-stock" nothing is
//! carried). The policy forages beyond its lands while the food carried is within forage_months
//! of need of the food at which it turns home (the way home and supply_margin, `supply::month`),
//! and a leg only where the COM it gathers (within what it can carry) exceeds what the army eats
//! in the extra PM at its pace: foraging must not slow a march into hunger.

use super::policy::Scripted;
use super::scenario::{CountryId, COM};
use super::state::{Land, Ledger, Mission, Nation, State};
use super::supply::{self, Reading as Supply};
use super::Game;

/// Extra PM per hex foraged (L2092).
pub const PM_PER_HEX: u32 = 2;

/// Who forages (option forage_standing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Only an army crossing a leg, with its extra PM.
    MarchingOnly,
    /// Also an army standing still beyond its lands, once a month, the node it stands in.
    StandingToo,
}

impl Reading {
    pub fn from_option(v: &str) -> Reading {
        if v == "standing-too" {
            Reading::StandingToo
        } else {
            Reading::MarchingOnly
        }
    }
}

/// COM one hex of node `t` yields to a forager.
pub fn per_hex(g: &Game, t: CountryId) -> i64 {
    g.scenario.forage[g.scenario.nodes[t as usize].terrain as usize] as i64
}

/// Hexes of node `t` an army standing in it forages (option "standing-too"): half its shortest
/// land link's hexes, rounded up, at least 1.
pub fn node_hexes(g: &Game, t: CountryId) -> i64 {
    let s = &g.scenario;
    let shortest = (0..s.links.len())
        .filter(|&i| !s.links[i].sea && s.links[i].to == t)
        .map(|i| s.links[i].hexes)
        .min()
        .unwrap_or(1);
    (shortest.div_ceil(2) as i64).max(1)
}

/// What `c`'s field army and policy need to decide on foraging a leg this month (fixed while it
/// marches: its men, convoys and pace do not change on the way).
pub struct Forager {
    c: CountryId,
    /// Forages at all (carried food, a policy that forages, troops that eat).
    on: bool,
    need: i64,
    capacity: i64,
    /// Below this much food carried, it forages (0: never).
    below: i64,
    /// PM a month at its pace.
    pace: u32,
}

impl Forager {
    pub fn new(g: &Game, st: &State, p: &Scripted, c: CountryId, pace: u32) -> Forager {
        let need = supply::monthly_need(g, st, c);
        Forager {
            c,
            on: g.supply == Supply::Carried && p.forage_months > 0 && need > 0 && pace > 0,
            need,
            capacity: supply::capacity(g, st, c),
            // The food at which the army turns home (`supply::month`) plus forage_months of it.
            below: need
                * (p.forage_months as i64 + supply::months_home(g, st, c) + p.supply_margin as i64),
            pace,
        }
    }

    /// COM the army gathers foraging the leg of `hexes` into `next`, if its policy forages it:
    /// beyond its lands, while its food is short, where the gain beats the food the extra PM eat.
    pub fn leg(&self, g: &Game, lands: &[Land], food: i64, next: CountryId, hexes: i64) -> i64 {
        if !self.on || lands[next as usize].owner == self.c || food >= self.below {
            return 0;
        }
        let gain = (hexes * per_hex(g, next)).min(self.capacity - food).max(0);
        let extra_pm = PM_PER_HEX as i64 * hexes;
        // Gain beats need × extra_pm / pace, in whole numbers.
        if gain * self.pace as i64 > self.need * extra_pm {
            gain
        } else {
            0
        }
    }
}

/// Adds `com` foraged to `nat`'s carried food: a source in the ledger.
pub fn gather(nat: &mut Nation, ledger: &mut Ledger, foraged: &mut f64, com: i64) {
    nat.supply.food += com;
    ledger.gained[COM] += com;
    *foraged += com as f64;
}

/// Option "standing-too": `c`'s field army standing beyond its lands (besieging or idle) forages
/// the node it stands in once a month, after eating, when its policy's food is short.
pub fn standing(g: &Game, st: &mut State, p: &Scripted, c: CountryId) {
    if g.forage != Reading::StandingToo {
        return;
    }
    let n = &st.nations[c as usize];
    if !matches!(n.mission, Mission::Siege { .. } | Mission::Idle) || n.by_sea {
        return;
    }
    let at = n.at;
    let f = Forager::new(g, st, p, c, u32::MAX);
    if !f.on || st.lands[at as usize].owner == c || n.supply.food >= f.below {
        return;
    }
    // Its month's PM are not spent moving: no trade-off with the march.
    let com = (node_hexes(g, at) * per_hex(g, at)).min(f.capacity - n.supply.food);
    if com > 0 {
        let (nat, ledger, counts) = (&mut st.nations[c as usize], &mut st.ledger, &mut st.counts);
        gather(nat, ledger, &mut counts.foraged_com, com);
    }
}
