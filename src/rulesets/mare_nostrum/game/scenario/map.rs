//! The assumed map: provinces and their codes, land borders, sea links.

use super::*;

/// The index of sea `key` in map.seas.
fn sea_index(path: &str, seas: &[String], f: &str, key: &str) -> Result<usize> {
    seas.iter().position(|s| s == key).ok_or_else(|| {
        err(
            path,
            f,
            format!("\"{key}\""),
            &format!("a sea of map.seas: {}", seas.join(", ")),
        )
    })
}

/// Province codes to their index in `[[map.province]]`.
pub(super) struct Codes<'a> {
    path: &'a str,
    index: HashMap<String, usize>,
}

impl Codes<'_> {
    pub(super) fn find(&self, f: &str, code: &str) -> Result<usize> {
        self.index.get(code).copied().ok_or_else(|| {
            err(
                self.path,
                f,
                format!("\"{code}\""),
                "a province code of [[map.province]]",
            )
        })
    }
}

/// `[[map.province]]`: every code once, each port on a sea of map.seas.
pub(super) fn map_provinces<'a>(
    path: &'a str,
    map: &MapFile,
    seas: &[String],
) -> Result<(Vec<ProvinceData>, Codes<'a>)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut provinces = Vec::new();
    for (i, p) in map.province.iter().enumerate() {
        if index.insert(p.code.clone(), i).is_some() {
            return Err(err(
                path,
                format!("map.province[{i}].code"),
                format!("\"{}\"", p.code),
                "a province code listed once",
            ));
        }
        let mut ports = 0u16;
        for s in &p.ports {
            ports |= 1 << sea_index(path, seas, &format!("map.province[{i}].ports"), s)?;
        }
        provinces.push(ProvinceData {
            code: p.code.clone(),
            ports,
            ..Default::default()
        });
    }
    Ok((provinces, Codes { path, index }))
}

/// map.land: "A-B" or "A-B:kind", between two different provinces, each border once.
pub(super) fn land_borders(
    path: &str,
    map: &MapFile,
    codes: &Codes,
) -> Result<Vec<(usize, usize, Border)>> {
    let mut land = Vec::new();
    for (i, e) in map.land.iter().enumerate() {
        let f = format!("map.land[{i}]");
        let (pair, kind) = e.split_once(':').unwrap_or((e, "plain"));
        let (a, b) = pair.split_once('-').ok_or_else(|| {
            err(
                path,
                &f,
                format!("\"{e}\""),
                "\"A-B\" or \"A-B:river|mountain|strait\"",
            )
        })?;
        let border = match kind {
            "plain" => Border::Plain,
            "river" => Border::River,
            "mountain" => Border::Mountain,
            "strait" => Border::Strait,
            _ => {
                return Err(err(
                    path,
                    &f,
                    format!("\"{e}\""),
                    "a border kind river, mountain or strait",
                ))
            }
        };
        let (a, b) = (codes.find(&f, a)?, codes.find(&f, b)?);
        if a == b
            || land
                .iter()
                .any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            return Err(err(
                path,
                &f,
                format!("\"{e}\""),
                "a border between two different provinces, listed once",
            ));
        }
        land.push((a, b, border));
    }
    Ok(land)
}

/// map.sea_links: "sea-sea" between seas of map.seas.
pub(super) fn sea_links(path: &str, map: &MapFile, seas: &[String]) -> Result<Vec<(usize, usize)>> {
    let mut links = Vec::new();
    for (i, e) in map.sea_links.iter().enumerate() {
        let f = format!("map.sea_links[{i}]");
        let (a, b) = e
            .split_once('-')
            .ok_or_else(|| err(path, &f, format!("\"{e}\""), "\"sea-sea\""))?;
        links.push((sea_index(path, seas, &f, a)?, sea_index(path, seas, &f, b)?));
    }
    Ok(links)
}
