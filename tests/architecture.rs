//! The core knows nothing of the browser, and has no clock: checked on the
//! source, so a wasm-only import cannot slip into it unnoticed.

#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_core_does_not_know_the_browser_nor_the_clock() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for d in ["sim", "lesson", "chart", "exercise"] {
        rust_files(&src.join(d), &mut files);
    }
    for f in ["fmt.rs", "route.rs", "scenario.rs", "text.rs"] {
        files.push(src.join(f));
    }
    let forbidden = [
        "yew",
        "web_sys",
        "js_sys",
        "wasm_bindgen",
        "gloo",
        "Instant::now",
        "SystemTime",
        "thread_rng",
        "getrandom",
    ];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for word in forbidden {
            assert!(!text.contains(word), "{} mentions {word}", f.display());
        }
    }
}
