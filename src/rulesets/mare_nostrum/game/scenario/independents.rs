//! The independent provinces: their figures, their alliances with nations, and their leaders.

use super::*;

/// `[[independent]]`: the provinces no nation owns, each listed once, with the default stats of
/// `[assumptions].independent` where the entry gives none; every province is a nation's or listed.
pub(super) fn independents(
    path: &str,
    file: &File,
    assumptions: &Assumptions,
    codes: &Codes,
    provinces: &mut [ProvinceData],
) -> Result<()> {
    let defaults = assumptions
        .get("independent")
        .and_then(Value::as_table)
        .cloned()
        .ok_or_else(|| {
            assumptions.error(
                "independent",
                "nothing",
                "a table of default independent stats",
            )
        })?;
    let mut listed = vec![false; provinces.len()];
    for (i, ind) in file.independent.iter().enumerate() {
        let f = format!("independent[{i}]");
        provenance_ok(path, &format!("{f}.provenance"), &ind.provenance)?;
        let p = codes.find(&format!("{f}.code"), &ind.code)?;
        if let Some(o) = provinces[p].owner {
            return Err(err(
                path,
                format!("{f}.code"),
                format!("\"{}\"", ind.code),
                &format!(
                    "a province no nation owns (owned by {})",
                    file.nation[o].key
                ),
            ));
        }
        if std::mem::replace(&mut listed[p], true) {
            return Err(err(
                path,
                format!("{f}.code"),
                format!("\"{}\"", ind.code),
                "an independent province listed once",
            ));
        }
        independent_stats(path, &f, ind, &defaults, &mut provinces[p])?;
    }
    for (p, pd) in provinces.iter().enumerate() {
        if pd.owner.is_none() && !listed[p] {
            return Err(err(
                path,
                "map.province",
                format!("\"{}\"", pd.code),
                "a province owned by a nation or listed as [[independent]]",
            ));
        }
    }
    Ok(())
}

/// One independent's figures: its own entry over the defaults.
fn independent_stats(
    path: &str,
    f: &str,
    ind: &IndependentFile,
    defaults: &Table,
    pd: &mut ProvinceData,
) -> Result<()> {
    let mut stats = defaults.clone();
    for (k, v) in &ind.rest {
        if k != "why" && k != "lines" && k != "source" {
            stats.insert(k.clone(), v.clone());
        }
    }
    let get = |k: &str| -> Result<u32> {
        match stats.get(k).and_then(Value::as_integer) {
            Some(v) if (0..=1000).contains(&v) => Ok(v as u32),
            other => Err(err(
                path,
                format!("{f}.{k}"),
                other.map_or("nothing".into(), |v| v.to_string()),
                "a whole number 0..1000 (here or in [assumptions].independent)",
            )),
        }
    };
    pd.ppu = get("ppu")?;
    pd.ppr = get("ppr")?;
    pd.harvests = get("harvests")?;
    pd.mines = get("mines")?;
    pd.deposits = get("deposits")?;
    pd.herds = get("herds")?;
    pd.garrison = get("garrison")?.min(pd.ppu.max(1));
    pd.troops = [get("infantry")?, get("cavalry")?];
    Ok(())
}

/// Nations' military alliances with independent provinces.
pub(super) fn independent_alliances(
    path: &str,
    file: &[NationFile],
    codes: &Codes,
    provinces: &[ProvinceData],
    nations: &mut [NationData],
) -> Result<()> {
    for (ni, n) in file.iter().enumerate() {
        for code in &n.independent_military_alliances {
            let f = format!("nation[{ni}].independent_military_alliances");
            let p = codes.find(&f, code)?;
            if provinces[p].owner.is_some() {
                return Err(err(
                    path,
                    f,
                    format!("\"{code}\""),
                    "an independent province",
                ));
            }
            nations[ni].independent_allies.push(p);
        }
    }
    Ok(())
}

/// The independents' leaders at the start: `count` of each row.
pub(super) fn initial_leaders(path: &str, rows: &[InitialLeader]) -> Result<Vec<(u8, [u32; 2])>> {
    let mut leaders = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let l = level(
            path,
            &format!("independent_leaders.initial[{i}].level"),
            &row.level,
        )?;
        for _ in 0..row.count {
            leaders.push((l, [row.infantry, row.cavalry]));
        }
    }
    Ok(leaders)
}

/// The replacement leaders by d20 range: the rows cover 1..20 exactly once.
pub(super) fn replacement_leaders(
    path: &str,
    rows: &[ReplacementLeader],
) -> Result<Vec<IndependentLeaderRow>> {
    let mut leaders = Vec::new();
    let mut covered = [0u32; 21];
    for (i, row) in rows.iter().enumerate() {
        let f = format!("independent_leaders.replacement[{i}]");
        let [low, high] = row.d20;
        if !(1..=20).contains(&low) || !(low..=20).contains(&high) {
            return Err(err(
                path,
                format!("{f}.d20"),
                format!("[{low}, {high}]"),
                "[low, high] with 1 <= low <= high <= 20",
            ));
        }
        for c in &mut covered[low as usize..=high as usize] {
            *c += 1;
        }
        leaders.push(IndependentLeaderRow {
            low,
            high,
            level: level(path, &format!("{f}.level"), &row.level)?,
            troops: [row.infantry, row.cavalry],
        });
    }
    if covered[1..].iter().any(|&c| c != 1) {
        return Err(err(
            path,
            "independent_leaders.replacement",
            "rows that miss or repeat a d20 face",
            "rows covering 1..20 exactly once",
        ));
    }
    Ok(leaders)
}
