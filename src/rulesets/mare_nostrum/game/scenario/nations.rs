//! The nations as printed: their provinces and capital, mercenaries, alliances, and their totals
//! split over their provinces.

use super::*;

/// `[[nation]]` number `ni`'s provinces, no other nation's (marked as its own), and its capital
/// among them.
fn owned_provinces(
    path: &str,
    ni: usize,
    file: &[NationFile],
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<(Vec<usize>, usize)> {
    let n = &file[ni];
    let f = |k: &str| format!("nation[{ni}].{k}");
    let mut owned = Vec::new();
    for code in &n.provinces {
        let p = codes.find(&f("provinces"), code)?;
        if let Some(other) = provinces[p].owner {
            return Err(err(
                path,
                f("provinces"),
                format!("\"{code}\""),
                &format!(
                    "a province of no other nation (also listed by {})",
                    file[other].key
                ),
            ));
        }
        provinces[p].owner = Some(ni);
        owned.push(p);
    }
    if owned.is_empty() {
        return Err(err(path, f("provinces"), "[]", "at least one province"));
    }
    let capital = codes.find(&f("assumed.capital_province"), &n.assumed.capital_province)?;
    if !owned.contains(&capital) {
        return Err(err(
            path,
            f("assumed.capital_province"),
            format!("\"{}\"", n.assumed.capital_province),
            "one of the nation's own provinces",
        ));
    }
    Ok((owned, capital))
}

/// Which mercenaries a nation may hire: (infantry, cavalry).
fn mercenaries(path: &str, field: String, text: &str) -> Result<(bool, bool)> {
    match text {
        "all" => Ok((true, true)),
        "none" => Ok((false, false)),
        "cavalry-only" => Ok((false, true)),
        other => Err(err(
            path,
            field,
            format!("\"{other}\""),
            "\"all\", \"none\" or \"cavalry-only\"",
        )),
    }
}

/// `[[nation]]` number `ni`: its key used once, its provinces and capital, its mercenaries and
/// strategy level. Alliances come later ([`alliances`]).
pub(super) fn nation(
    path: &str,
    ni: usize,
    file: &[NationFile],
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<NationData> {
    let n = &file[ni];
    let f = |k: &str| format!("nation[{ni}].{k}");
    provenance_ok(path, &f("provenance"), &n.provenance)?;
    provenance_ok(path, &f("assumed.provenance"), &n.assumed.provenance)?;
    if file[..ni].iter().any(|x| x.key == n.key) {
        return Err(err(
            path,
            f("key"),
            format!("\"{}\"", n.key),
            "a nation key used once",
        ));
    }
    let (owned, capital) = owned_provinces(path, ni, file, codes, provinces)?;
    let (mi, mc) = mercenaries(path, f("mercenaries"), &n.mercenaries)?;
    Ok(NationData {
        key: n.key.clone(),
        name: n.name.clone(),
        provinces: owned,
        capital,
        has_capital_city: n.capital_city.is_some(),
        card_limit: n.card_limit,
        cards: n.cards_in_hand,
        strategy: level(path, &f("strategy_level"), &n.strategy_level)?,
        leaders: n.leaders,
        units: [
            n.infantry,
            n.cavalry,
            n.mercenary_infantry,
            n.mercenary_cavalry,
        ],
        fleets: n.fleets,
        ppu: n.ppu,
        ppr: n.ppr,
        harvests: n.harvests,
        mines: n.mines,
        deposits: n.deposits,
        herds: n.herds,
        trade_points: n.trade_points,
        treasury: [n.treasury.t, n.treasury.g, n.treasury.r, n.treasury.cb],
        commercial: Vec::new(),
        military: Vec::new(),
        independent_allies: Vec::new(),
        mercenary_infantry_allowed: mi,
        mercenary_cavalry_allowed: mc,
        unit_upkeep: n.unit_upkeep as i64,
    })
}

/// Commercial and military alliances: with another nation that lists this one back.
pub(super) fn alliances(path: &str, file: &[NationFile], nations: &mut [NationData]) -> Result<()> {
    let keys: Vec<&str> = file.iter().map(|n| n.key.as_str()).collect();
    let nation_index = |f: &str, key: &str| -> Result<usize> {
        keys.iter().position(|k| *k == key).ok_or_else(|| {
            err(
                path,
                f,
                format!("\"{key}\""),
                &format!("a nation key: {}", keys.join(", ")),
            )
        })
    };
    for (ni, n) in file.iter().enumerate() {
        for (k, list) in [
            ("commercial_alliances", &n.commercial_alliances),
            ("military_alliances", &n.military_alliances),
        ] {
            for key in list {
                let f = format!("nation[{ni}].{k}");
                let other = nation_index(&f, key)?;
                let mutual = if k == "commercial_alliances" {
                    &file[other].commercial_alliances
                } else {
                    &file[other].military_alliances
                };
                if other == ni || !mutual.contains(&n.key) {
                    return Err(err(
                        path,
                        f,
                        format!("\"{key}\""),
                        "another nation that lists this one back (alliances are mutual)",
                    ));
                }
                if k == "commercial_alliances" {
                    nations[ni].commercial.push(other)
                } else {
                    nations[ni].military.push(other)
                }
            }
        }
    }
    Ok(())
}

/// Splits each nation's totals over its provinces (capital first on ties), and sets garrisons:
/// `fraction` of a city's PPU, rounded up, or all of it in a capital when `capital_full`.
pub(super) fn split_totals(
    nations: &[NationData],
    provinces: &mut [ProvinceData],
    (fraction, capital_full): (f64, bool),
) {
    for n in nations {
        let weights: Vec<u32> = n
            .provinces
            .iter()
            .map(|&p| if p == n.capital { 2 } else { 1 })
            .collect();
        // The capital counts double so it rounds up first and holds the largest city.
        let split = |total: u32| largest_remainder(total, &weights);
        let (ppu, ppr, h, m, d, hd) = (
            split(n.ppu),
            split(n.ppr),
            split(n.harvests),
            split(n.mines),
            split(n.deposits),
            split(n.herds),
        );
        for (i, &p) in n.provinces.iter().enumerate() {
            let pd = &mut provinces[p];
            pd.ppu = ppu[i];
            pd.ppr = ppr[i];
            pd.harvests = h[i];
            pd.mines = m[i];
            pd.deposits = d[i];
            pd.herds = hd[i];
            pd.garrison = if p == n.capital && capital_full {
                pd.ppu
            } else {
                (fraction * pd.ppu as f64).ceil() as u32
            };
        }
    }
}
