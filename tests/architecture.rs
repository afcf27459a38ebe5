//! The core knows nothing of the browser, and has no clock: checked on the
//! source, so a wasm-only import cannot slip into it unnoticed. Nothing
//! below the command line uses it. And ARCHITECTURE.md's code map matches
//! the tree.

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

/// The layers point one way (ARCHITECTURE.md): the core (`sim`, with `fmt`
/// and `text`), then the registry of scenarios and the charts, then the
/// lessons, then the exercises, then the routes, then the browser's pieces
/// and the command line. A file may name (`crate::x`, outside comments) only
/// its own layer's modules and those below it.
#[test]
fn the_layers_point_one_way() {
    const CORE: &[&str] = &["sim", "fmt", "text"];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let top = [
        "chart", "cli", "exercise", "fmt", "lesson", "route", "scenario", "sim", "text", "ui",
    ];
    let layers: &[(&str, &[&str])] = &[
        ("sim", CORE),
        ("fmt.rs", CORE),
        ("text.rs", CORE),
        ("scenario.rs", CORE),
        ("chart", &["sim", "fmt", "text", "chart"]),
        ("lesson", &["sim", "fmt", "text", "scenario", "lesson"]),
        ("exercise", &["sim", "fmt", "text", "scenario", "lesson", "exercise"]),
        (
            "route.rs",
            &["sim", "fmt", "text", "scenario", "lesson", "exercise", "route"],
        ),
    ];
    for (place, allowed) in layers {
        let path = src.join(place);
        let mut files = Vec::new();
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            files.push(path);
        }
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for (at, _) in code.match_indices("crate::") {
                    let rest = &code[at + "crate::".len()..];
                    // `crate::{a, b::c}` names each of its items.
                    let items: Vec<&str> = match rest.strip_prefix('{') {
                        Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                        None => vec![rest],
                    };
                    for item in items {
                        let name: String = item
                            .trim()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if !top.contains(&name.as_str()) {
                            continue;
                        }
                        assert!(
                            allowed.contains(&name.as_str()),
                            "{}:{} names `crate::{name}`, a layer above it: {line}",
                            f.display(),
                            i + 1
                        );
                    }
                }
            }
        }
    }
}

/// The command line is the top layer, beside the browser's pieces: nothing
/// below it (the core, the lessons, exercises and charts, the registry of
/// scenarios, the front end) uses it. (Its doc comments may name it.)
#[test]
fn nothing_below_the_command_line_uses_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for f in files {
        if f.ends_with("cli.rs") || f.ends_with("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                !code.contains("cli::") && !code.contains("crate::cli"),
                "{}:{} uses the command line: {line}",
                f.display(),
                i + 1
            );
        }
    }
}

/// ARCHITECTURE.md's code map matches the tree: every file under `src/` is
/// named in it (by its path, a suffix of it, or its module's name), and every
/// test and benchmark file; and every source path it names exists.
#[test]
fn the_code_map_names_every_source_file_and_only_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let start = text.find("## Code map").expect("a code map");
    let end = text[start..].find("## Invariants").map_or(text.len(), |i| start + i);
    let map = &text[start..end];
    // Every `…` span of the code map.
    let tokens: Vec<&str> = map.split('`').skip(1).step_by(2).collect();
    let mut files = Vec::new();
    for d in ["src", "tests", "benches"] {
        rust_files(&root.join(d), &mut files);
    }
    let files: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    let names = |f: &str, t: &str| f == t || f.ends_with(&format!("/{t}"));
    for f in files.iter().filter(|f| f.starts_with("src/")) {
        let path = Path::new(f);
        let stem = path.file_stem().unwrap().to_string_lossy();
        let folder = format!("{}/", path.parent().unwrap().to_string_lossy());
        // Its module named with its parent (`policy::time`, `crate::fmt`), or alone.
        let parent = match path.parent().unwrap().file_name().unwrap().to_string_lossy() {
            p if p == "src" => "crate".to_string(),
            p => p.into_owned(),
        };
        let module = format!("{parent}::{stem}");
        let named = tokens.iter().any(|t| {
            names(f, t)
                || (stem == "mod" && names(&folder, t))
                || (stem != "mod" && (*t == stem || t.starts_with(&format!("{stem}::")) || t.contains(&module)))
        });
        assert!(named, "ARCHITECTURE.md's code map does not name {f}");
    }
    // The tests and benchmarks, file by file.
    for d in ["tests", "benches"] {
        for e in std::fs::read_dir(root.join(d)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".rs") || name.ends_with(".mjs") {
                let f = format!("{d}/{name}");
                assert!(
                    tokens.iter().any(|t| names(&f, t)),
                    "ARCHITECTURE.md's code map does not name {f}"
                );
            }
        }
    }
    for t in tokens.iter().filter(|t| t.ends_with(".rs") && !t.contains(' ')) {
        assert!(
            files.iter().any(|f| names(f, t)) || root.join(t).exists(),
            "ARCHITECTURE.md's code map names {t}, which is not in the tree"
        );
    }
    for t in tokens.iter().filter(|t| t.starts_with("src/") && t.ends_with('/')) {
        assert!(
            root.join(t).is_dir(),
            "ARCHITECTURE.md's code map names {t}, which is not a folder"
        );
    }
}
