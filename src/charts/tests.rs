use std::fs;
use std::path::{Path, PathBuf};

use super::*;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// A fresh, empty directory, removed on drop.
fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Checks both files of a drawn chart and that nothing else was left behind.
fn check_chart(dir: &Path, stem: &str, title: &str, written: &[PathBuf]) {
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    assert_eq!(written, &[png.clone(), svg.clone()]);
    let png_bytes = fs::read(&png).expect("PNG written");
    assert!(png_bytes.starts_with(&PNG_SIGNATURE), "not a PNG: {png:?}");
    assert!(png_bytes.len() > 1024, "PNG too small: {}", png_bytes.len());
    let svg_text = fs::read_to_string(&svg).expect("SVG written");
    assert!(svg_text.contains("<svg"), "not an SVG: {svg:?}");
    assert!(svg_text.contains(title), "SVG lacks the title {title:?}");
    assert_no_leftovers(dir);
}

fn assert_no_leftovers(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.starts_with('.') && !name.contains("partial"),
            "leftover temporary file {name}"
        );
    }
}

fn sample_line_chart() -> LineChart {
    let series = (0..3)
        .map(|k| Series {
            name: format!("{} defenders", 3 + 2 * k),
            points: (1..=20)
                .map(|a| {
                    let p = 1.0 / (1.0 + (-(a as f64 - 3.0 * (k + 1) as f64) / 2.0).exp());
                    Point::with_ci(a as f64, p, p - 0.03, p + 0.03)
                })
                .collect(),
        })
        .collect();
    LineChart {
        title: "Attacker win probability".into(),
        subtitle: Some("100 000 battles per point".into()),
        x_label: "Attacking armies".into(),
        y_label: "P(attacker wins)".into(),
        series,
        y_range: None,
        legend_outside: false,
    }
}

fn sample_heatmap(n: usize, panels: usize) -> Heatmap {
    let values: Vec<f64> = (1..=n).map(|v| v as f64).collect();
    Heatmap {
        title: "Attacker win probability map".into(),
        x_label: "Attacking armies".into(),
        y_label: "Defending armies".into(),
        value_label: "P(attacker wins)".into(),
        x_values: values.clone(),
        y_values: values,
        x_tick_labels: None,
        y_tick_labels: None,
        panels: (0..panels)
            .map(|k| HeatmapPanel {
                title: format!("Ruleset {k}"),
                values: (1..=n)
                    .map(|d| {
                        (1..=n)
                            .map(|a| {
                                let s = 1.0 + 0.3 * k as f64;
                                1.0 / (1.0 + (-(a as f64 - s * d as f64) / 2.0).exp())
                            })
                            .collect()
                    })
                    .collect(),
            })
            .collect(),
        value_range: (0.0, 1.0),
    }
}

#[test]
fn line_chart_writes_png_and_svg() {
    let dir = temp_dir();
    let chart = sample_line_chart();
    let written = draw_line_chart(&chart, &dir.path().join("line")).unwrap();
    check_chart(dir.path(), "line", &chart.title, &written);
}

#[test]
fn heatmap_with_four_30x30_panels() {
    let dir = temp_dir();
    let h = sample_heatmap(30, 4);
    let written = draw_heatmap(&h, &dir.path().join("heatmap")).unwrap();
    check_chart(dir.path(), "heatmap", &h.title, &written);
}

#[test]
fn small_heatmap_prints_cell_values() {
    let dir = temp_dir();
    let mut h = sample_heatmap(5, 1);
    h.panels[0].values[4][4] = f64::NAN;
    let written = draw_heatmap(&h, &dir.path().join("small")).unwrap();
    check_chart(dir.path(), "small", &h.title, &written);
    let svg = fs::read_to_string(dir.path().join("small.svg")).unwrap();
    assert!(svg.contains("0.50"), "cell values should be printed");
    assert!(svg.contains("no data"));
}

#[test]
fn categorical_axes_show_their_names() {
    let dir = temp_dir();
    let mut h = sample_heatmap(4, 1);
    h.y_tick_labels = Some(
        [
            "1st Punic War",
            "2nd Punic War",
            "Syrian War",
            "1st Gallic War",
        ]
        .map(String::from)
        .to_vec(),
    );
    let written = draw_heatmap(&h, &dir.path().join("names")).unwrap();
    check_chart(dir.path(), "names", &h.title, &written);
    let svg = fs::read_to_string(dir.path().join("names.svg")).unwrap();
    assert!(svg.contains("2nd Punic War") && svg.contains("Syrian War"));
}

#[test]
fn bar_chart_with_groups_and_ci() {
    let dir = temp_dir();
    let chart = BarChart {
        title: "Win rate per nation".into(),
        subtitle: Some("95% confidence intervals".into()),
        x_label: "Nation".into(),
        y_label: "Win rate".into(),
        categories: ["Castilla", "Aragón", "Portugal", "Navarra"]
            .map(String::from)
            .to_vec(),
        groups: vec![
            BarGroup {
                name: "Attacking".into(),
                values: vec![0.4, 0.5, 0.6, 0.45],
                ci: Some(vec![(0.36, 0.44), (0.46, 0.54), (0.56, 0.64), (0.41, 0.49)]),
            },
            BarGroup {
                name: "Defending".into(),
                values: vec![0.6, 0.5, 0.4, 0.55],
                ci: None,
            },
        ],
        y_range: None,
    };
    let written = draw_bar_chart(&chart, &dir.path().join("bars")).unwrap();
    check_chart(dir.path(), "bars", &chart.title, &written);
}

#[test]
fn bar_chart_with_many_categories() {
    let dir = temp_dir();
    let n = 60;
    let chart = BarChart {
        title: "Loss distribution".into(),
        subtitle: None,
        x_label: "Armies lost".into(),
        y_label: "P(losses = k)".into(),
        categories: (0..n).map(|k| k.to_string()).collect(),
        groups: vec![
            BarGroup {
                name: "Attacker".into(),
                values: (0..n)
                    .map(|k| (-(k as f64 - 10.0).powi(2) / 40.0).exp())
                    .collect(),
                ci: None,
            },
            BarGroup {
                name: "Defender".into(),
                values: (0..n)
                    .map(|k| (-(k as f64 - 20.0).powi(2) / 60.0).exp())
                    .collect(),
                ci: None,
            },
        ],
        y_range: Some((0.0, 1.0)),
    };
    let written = draw_bar_chart(&chart, &dir.path().join("loss")).unwrap();
    check_chart(dir.path(), "loss", &chart.title, &written);
}

#[test]
fn histogram_writes_png_and_svg() {
    let dir = temp_dir();
    let h = Histogram {
        title: "Battle length".into(),
        subtitle: Some("200 000 battles".into()),
        x_label: "Rounds".into(),
        y_label: "Battles".into(),
        bins: (0..25)
            .map(|i| (i as f64, i as f64 + 1.0, (25 - i) as f64 * 10.0))
            .collect(),
    };
    let written = draw_histogram(&h, &dir.path().join("hist")).unwrap();
    check_chart(dir.path(), "hist", &h.title, &written);
}

#[test]
fn degenerate_data_does_not_panic() {
    let dir = temp_dir();
    let d = dir.path();
    let nan = f64::NAN;
    let inf = f64::INFINITY;

    let empty = LineChart {
        title: "Empty".into(),
        ..Default::default()
    };
    draw_line_chart(&empty, &d.join("line_empty")).unwrap();
    let odd_series = vec![
        Series {
            name: "nan".into(),
            points: vec![
                Point::new(nan, 1.0),
                Point::new(1.0, nan),
                Point::with_ci(2.0, 0.5, nan, inf),
                Point::new(3.0, -inf),
            ],
        },
        Series {
            name: "single".into(),
            points: vec![Point::with_ci(5.0, 0.25, 0.3, 0.2)],
        },
        Series {
            name: "flat".into(),
            points: vec![Point::new(5.0, 0.25), Point::new(5.0, 0.25)],
        },
        Series::default(),
    ];
    for (i, y_range) in [None, Some((1.0, 1.0)), Some((nan, 2.0)), Some((2.0, -1.0))]
        .into_iter()
        .enumerate()
    {
        let chart = LineChart {
            title: "Odd".into(),
            subtitle: Some(String::new()),
            series: odd_series.clone(),
            y_range,
            ..Default::default()
        };
        draw_line_chart(&chart, &d.join(format!("line_odd_{i}"))).unwrap();
    }
    let single = LineChart {
        title: "Single".into(),
        series: vec![Series {
            name: "one".into(),
            points: vec![Point::new(0.0, 0.0)],
        }],
        ..Default::default()
    };
    draw_line_chart(&single, &d.join("line_single")).unwrap();

    draw_heatmap(&Heatmap::default(), &d.join("heat_default")).unwrap();
    let mut h = sample_heatmap(3, 2);
    h.value_range = (nan, nan);
    h.panels[0].values = vec![vec![nan; 3]; 3];
    h.panels[1].values = vec![vec![0.5; 2]; 4]; // ragged vs. axis values
    draw_heatmap(&h, &d.join("heat_nan")).unwrap();
    h.value_range = (0.5, 0.5);
    h.x_values.clear();
    draw_heatmap(&h, &d.join("heat_flat")).unwrap();
    let mut h = sample_heatmap(1, 9);
    h.value_range = (1.0, 0.0);
    draw_heatmap(&h, &d.join("heat_single_cells")).unwrap();

    draw_bar_chart(&BarChart::default(), &d.join("bar_default")).unwrap();
    let bars = BarChart {
        title: "Odd bars".into(),
        categories: vec!["a".into(), String::new()],
        groups: vec![
            BarGroup {
                name: "nan".into(),
                values: vec![nan, inf, 3.0],
                ci: Some(vec![(nan, 1.0)]),
            },
            BarGroup {
                name: "negative".into(),
                values: vec![-1.0],
                ci: Some(vec![(-2.0, 0.5), (1.0, 2.0), (0.0, 0.0), (5.0, 6.0)]),
            },
            BarGroup::default(),
        ],
        ..Default::default()
    };
    draw_bar_chart(&bars, &d.join("bar_odd")).unwrap();
    let zero = BarChart {
        title: "All zero".into(),
        categories: vec!["x".into()],
        groups: vec![BarGroup {
            name: "zero".into(),
            values: vec![0.0],
            ci: None,
        }],
        y_range: Some((0.0, 0.0)),
        ..Default::default()
    };
    draw_bar_chart(&zero, &d.join("bar_zero")).unwrap();

    draw_histogram(&Histogram::default(), &d.join("hist_default")).unwrap();
    let hist = Histogram {
        title: "Odd bins".into(),
        bins: vec![
            (1.0, 1.0, 5.0),
            (3.0, 2.0, 1.0),
            (nan, 1.0, 1.0),
            (0.0, 1.0, inf),
        ],
        ..Default::default()
    };
    draw_histogram(&hist, &d.join("hist_odd")).unwrap();
    let flat = Histogram {
        title: "One bin".into(),
        bins: vec![(2.0, 2.0, 0.0)],
        ..Default::default()
    };
    draw_histogram(&flat, &d.join("hist_flat")).unwrap();

    assert_no_leftovers(d);
}

#[test]
fn missing_directory_is_an_error() {
    let dir = temp_dir();
    let stem = dir.path().join("no").join("such").join("dir").join("chart");
    let err = draw_line_chart(&sample_line_chart(), &stem).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("does not exist"), "unhelpful message: {msg}");
    assert!(msg.contains("chart"), "message should name the file: {msg}");
    assert!(draw_histogram(&Histogram::default(), &stem).is_err());
    assert!(draw_heatmap(&Heatmap::default(), &stem).is_err());
    assert!(draw_bar_chart(&BarChart::default(), &stem).is_err());
    assert!(draw_line_chart(&sample_line_chart(), Path::new("")).is_err());
}

#[test]
fn dots_in_the_stem_are_kept() {
    let dir = temp_dir();
    let written = draw_line_chart(&sample_line_chart(), &dir.path().join("win_rate_0.5")).unwrap();
    assert_eq!(written[0], dir.path().join("win_rate_0.5.png"));
    assert_eq!(written[1], dir.path().join("win_rate_0.5.svg"));
    assert!(written.iter().all(|p| p.exists()));
}

#[test]
fn overwriting_replaces_the_files() {
    let dir = temp_dir();
    let stem = dir.path().join("chart");
    let mut chart = sample_line_chart();
    draw_line_chart(&chart, &stem).unwrap();
    chart.title = "Second version".into();
    let written = draw_line_chart(&chart, &stem).unwrap();
    check_chart(dir.path(), "chart", "Second version", &written);
}

#[test]
fn bundled_font_metrics_are_readable() {
    let font = text::Font::new(14.0, common::TEXT);
    let w = font.width("Attacker");
    assert!(w > 40.0 && w < 90.0, "unexpected width {w}");
    assert!(font.height() > 8.0);
}

#[test]
fn nice_ticks_and_clipping() {
    let (ticks, dec) = common::nice_ticks(0.0, 1.0, 6, false);
    assert_eq!(ticks, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
    assert_eq!(dec, 1);
    let (ticks, dec) = common::nice_ticks(0.5, 30.5, 7, true);
    assert_eq!(ticks, vec![5.0, 10.0, 15.0, 20.0, 25.0, 30.0]);
    assert_eq!(dec, 0);
    assert!(common::nice_ticks(1.0, 1.0, 5, false).0.is_empty());
    assert_eq!(common::fmt_num(-0.0001, 2), "0.00");
    let clipped = common::clip_segment((-1.0, 0.5), (2.0, 0.5), (0.0, 1.0), (0.0, 1.0));
    assert_eq!(clipped, Some(((0.0, 0.5), (1.0, 0.5))));
    assert_eq!(
        common::clip_segment((2.0, 2.0), (3.0, 3.0), (0.0, 1.0), (0.0, 1.0)),
        None
    );
}

#[test]
fn long_subtitles_wrap_at_words() {
    let lines = super::common::wrap("aaa bbb ccc ddd", 7.0, |t| t.len() as f64);
    assert_eq!(lines, vec!["aaa bbb", "ccc ddd"]);
    let lines = super::common::wrap("averyveryverylongword x", 5.0, |t| t.len() as f64);
    assert_eq!(lines, vec!["averyveryverylongword", "x"]);
}

#[test]
fn line_chart_with_bands_and_thirteen_series_outside_legend() {
    let dir = temp_dir();
    let series = (0..13)
        .map(|k| Series {
            name: format!("Player number {k}"),
            points: (1..=30)
                .map(|t| {
                    let y = (t * (k + 1)) as f64;
                    Point::with_band(t as f64, y, y - 5.0, y + 5.0)
                })
                .collect(),
        })
        .collect();
    let chart = LineChart {
        title: "Score over turns".into(),
        subtitle: Some("band: ±1 SD".into()),
        x_label: "turn".into(),
        y_label: "VP".into(),
        series,
        y_range: None,
        legend_outside: true,
    };
    let written = draw_line_chart(&chart, &dir.path().join("bands")).unwrap();
    check_chart(dir.path(), "bands", &chart.title, &written);
    let svg = fs::read_to_string(dir.path().join("bands.svg")).unwrap();
    assert!(
        svg.contains("Player number 12"),
        "every series in the legend"
    );
    assert!(svg.contains("<polygon"), "bands are drawn");
}
