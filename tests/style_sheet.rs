//! The style sheet and the components agree: every chart height a widget
//! asks for (`<ChartCanvas … height={N}>`) has its `.chart[data-h="N"]` rule
//! in `static/style.css`; an unlisted height would fall back to 340 px.

use std::fs;
use std::path::Path;

#[test]
fn every_chart_height_a_widget_asks_for_is_in_the_style_sheet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let css = fs::read_to_string(root.join("static/style.css")).unwrap();
    let mut asked = vec![340]; // ChartCanvas's default.
    let mut dirs = vec![root.join("src/ui")];
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    for path in files {
        let text = fs::read_to_string(path).unwrap();
        for call in text.split("<ChartCanvas ").skip(1) {
            let call = &call[..call.find("/>").unwrap()];
            if let Some(h) = call.split("height={").nth(1) {
                asked.push(h[..h.find('}').unwrap()].parse::<u32>().unwrap());
            }
        }
    }
    assert!(asked.len() > 10, "{asked:?}");
    for h in asked {
        assert!(
            css.contains(&format!(".chart[data-h=\"{h}\"] {{ --chart-h: {h}px; }}")),
            "no rule for {h}"
        );
    }
}
