//! Whose rebellion index a nation's taxes and extra POB levies move (digest §4.16, §4.3, §4.19;
//! rules §46 L5617-L5633, §47 L5641, §26 L4092, L4100, L4108, the rows L4326-L4332 and L4362;
//! A66: the rows subtract).
//!
//! §47 (L5641) raises the DEN the provinces or cities produce, and the levy of §26 takes
//! POB from what the collection gave; the index is kept per zone (L5619). Option
//! `province_burdens` = "each-land" (default): the tax row and the levy's rows move the index of
//! every land whose collection they raise or lower, home and provinces alike, by the holder's
//! culture (a lowered tax pleases every land it lowers); "home-only": the holder's home index
//! alone, as if its provinces were taxed and levied for free. The PV are the nation's: the row's
//! PV are scored once, to the holder, whichever lands the index moves in.
//!
//! A nation sets one tax level a year for all it collects (the policy's level is the nation's,
//! a level per city is not played): the row moves each land's rural index and, §47 naming the
//! cities taxed, each of its cities' (`city_revolt.rs`: by option `city_index_rows` = "every-zone"
//! through the node's index, under "rural-only" on each city as well); the policy's floor
//! `tax_idr` is kept by the lowest zone, rural or city, among the lands the level would reach, and
//! a levy is made only if every zone it moves there stays at that floor.

use super::city_revolt;
use super::economy;
use super::pv::Row;
use super::revolt;
use super::sack;
use super::scenario::CountryId;
use super::state::State;
use super::Game;

/// Whether nation `c` collects land `l` at the collection of game month `month` (a land its tax
/// level reaches).
fn collects(st: &State, c: CountryId, l: CountryId, month: u32) -> bool {
    let land = &st.lands[l as usize];
    land.owner == c && economy::collects(land.taken_month, month) && sack::yields(st, l, month)
}

/// The lands nation `c` collects at the collection of game month `month`.
pub fn collected(st: &State, c: CountryId, month: u32) -> impl Iterator<Item = CountryId> + '_ {
    (0..st.lands.len() as CountryId).filter(move |&l| collects(st, c, l, month))
}

/// The index a tax level of nation `c` in game month `month` must keep at the policy's floor:
/// the lowest among the lands it collects (option "each-land"), or its home index ("home-only",
/// and a nation collecting nothing).
pub fn lowest_taxed_index(g: &Game, st: &State, c: CountryId, month: u32) -> i32 {
    let home = if st.lands[c as usize].owner == c {
        city_revolt::lowest_zone(g, st, c)
    } else {
        st.nations[c as usize].idr
    };
    if g.revolt.home_burdens {
        return home;
    }
    collected(st, c, month)
        .map(|l| city_revolt::lowest_zone(g, st, l))
        .min()
        .unwrap_or(home)
}

/// Nation `c`'s tax row `row` in game month `month`: its PV once, its index to every land it
/// collects (or the home's).
pub fn tax(g: &Game, st: &mut State, c: CountryId, month: u32, source: usize, row: Row) {
    let culture = g.culture[c as usize];
    if g.revolt.home_burdens {
        st.apply(c, source, row, culture);
        if st.lands[c as usize].owner == c {
            city_revolt::cities_taxed(g, st, c, row.idr(culture));
        }
        return;
    }
    st.add_pv(c, source, row.pv(culture));
    for l in 0..st.lands.len() as CountryId {
        if collects(st, c, l, month) {
            *revolt::index_mut(st, l) += row.idr(culture);
            city_revolt::cities_taxed(g, st, l, row.idr(culture));
        }
    }
}
