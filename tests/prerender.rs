//! The pages the build prerenders (`sensei-lab prerender`): every route's
//! page, with its title, its whole text and each widget's figures at the
//! lesson's values, as the browser's first render at that address builds it
//! (the browser test `hydration.test.mjs` checks that it hydrates).

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::route::Route;
use sensei_lab::ui::prerender;
use std::collections::HashSet;
use std::sync::OnceLock;

mod common;

const SHELL: &str = "<!doctype html><html lang=\"es\"><head><title>Sensei Lab</title>\
<base href=\"/\" /></head><body><noscript>x</noscript><div id=\"app\"></div></body></html>";

/// Every route's page, rendered once for all the tests.
fn pages() -> &'static [(Route, String)] {
    static PAGES: OnceLock<Vec<(Route, String)>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let routes = Route::all();
        let bodies = prerender::render_all(&routes, "/");
        routes.into_iter().zip(bodies).collect()
    })
}

fn page(route: &Route) -> &'static str {
    &pages().iter().find(|(r, _)| r == route).expect("a prerendered route").1
}

/// An element's text as HTML writes it.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn lesson() -> &'static sensei_lab::lesson::Lesson {
    sensei_lab::lesson::all().first().expect("a lesson")
}

#[test]
fn every_route_has_its_own_page_and_file() {
    let mut files = HashSet::new();
    for (route, body) in pages() {
        assert!(
            files.insert(prerender::file_of(route)),
            "{route:?}: two pages in one file"
        );
        let html = prerender::page(SHELL, route, body).unwrap();
        assert!(
            html.contains(&format!("<title>{}</title>", escaped(&route.title()))),
            "{route:?}"
        );
        assert!(html.contains(&format!("data-route=\"{}\"", route.path())), "{route:?}");
        assert_eq!(
            Route::from_path(&route.path()),
            *route,
            "the page's route is its path's"
        );
        // The marks hydration finds components by, balanced and without Rust's type names.
        assert_eq!(
            body.matches("<!--<[]>-->").count(),
            body.matches("<!--</[]>-->").count(),
            "{route:?}"
        );
        assert!(
            !body.contains("sensei_lab::") && !body.contains("yew::"),
            "{route:?}: a type name in the page"
        );
        // Not an empty page: its heading at least (a section's, a widget's, an exercise's).
        let named = match route.piece() {
            Some((slug, piece)) => piece.name(slug).unwrap(),
            None if *route == Route::NotFound => "No encontramos esa página".into(),
            None => lesson().title.clone(),
        };
        assert!(
            body.contains(&escaped(&named)),
            "{route:?}: «{named}» is not in the page"
        );
        // Taken back, the page gives the shell it came from (with its title).
        let shell = prerender::shell(&html).unwrap();
        assert_eq!(prerender::page(&shell, route, body).unwrap(), html);
    }
    assert!(files.contains("index.html") && files.contains("404.html"));
    // The lesson, its print view, its page for instructors, 2 × (sections + widgets
    // (the lesson's 15: every registered one) + 9 exercises), the missing page.
    let l = lesson();
    let widgets = sensei_lab::scenario::ALL.len();
    assert!(widgets >= 15);
    assert_eq!(pages().len(), 1 + 3 + 2 * (l.sections.len() + widgets + 9) + 1);
}

#[test]
fn the_lesson_page_has_the_whole_text() {
    let home = page(&Route::Home);
    for s in &lesson().sections {
        assert!(
            home.contains(&escaped(&s.title)),
            "the section «{}» is not in the page",
            s.title
        );
    }
    // Its running text (from the lesson's markdown), and the concepts as terms.
    assert!(home.contains("los 1,000 llegan en la misma ventana: el servidor atiende 50 y rechaza 950"));
    assert!(home.contains("class=\"term\""));
    // The lesson's programs with their output, as the lesson's Python prints it.
    for line in common::HERD_LINES.iter().chain(&common::IDEMPOTENCY_LINES) {
        assert!(home.contains(&escaped(line)), "«{line}» is not in the page");
    }
    // Every widget is in it, once each (the lesson's 15 and any other registered), and the exercises.
    assert_eq!(
        home.matches("<figure id=\"widget-").count(),
        sensei_lab::scenario::ALL.len()
    );
    for s in sensei_lab::scenario::ALL {
        let frame = format!("<figure id=\"widget-{}\"", s.id);
        assert_eq!(home.matches(&frame).count(), 1, "{}", s.id);
    }
    assert_eq!(home.matches("<section id=\"exercise-").count(), 9);
    // A section's page is the lesson too, with that section marked in the contents.
    let section = Route::Section {
        lesson: lesson().slug.clone(),
        section: "la-manada".into(),
    };
    assert!(page(&section).contains("los 1,000 llegan en la misma ventana: el servidor atiende 50 y rechaza 950"));
}

/// `data-figure="name">value` in a page.
fn figures<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!("data-figure=\"{name}\">");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            &rest[..rest.find('<').unwrap_or(rest.len())]
        })
        .collect()
}

#[test]
fn the_herd_page_shows_the_figures_the_lessons_python_prints() {
    // `sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos`, then with jitter.
    let numbers: Vec<Vec<String>> = common::HERD_LINES
        .iter()
        .map(|line| {
            line.split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty() && *w != "10")
                .map(|w| sensei_lab::fmt::es_int(w.parse().unwrap()))
                .collect()
        })
        .collect();
    for route in [
        Route::Widget {
            lesson: lesson().slug.clone(),
            id: "herd".into(),
        },
        Route::EmbedWidget {
            lesson: lesson().slug.clone(),
            id: "herd".into(),
        },
        Route::Home,
    ] {
        let html = page(&route);
        for (i, name) in ["served", "gave_up", "peak", "attempts"].iter().enumerate() {
            let shown = figures(html, name);
            assert_eq!(
                shown[..2],
                [numbers[0][i].as_str(), numbers[1][i].as_str()],
                "{route:?}: {name}"
            );
        }
    }
}

#[test]
fn links_carry_the_sites_base() {
    for base in ["/", "/cursos/lab/"] {
        let html = prerender::render(&Route::Home, base);
        let prefix = base.trim_end_matches('/');
        let hrefs: Vec<&str> = html
            .match_indices("href=\"")
            .map(|(i, _)| {
                let rest = &html[i + 6..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect();
        assert!(hrefs.len() > 50);
        for h in hrefs.iter().filter(|h| h.starts_with('/')) {
            assert!(h.starts_with(&format!("{prefix}/")), "{base}: {h}");
            let path = &h[prefix.len()..];
            let path = path.split('#').next().unwrap();
            assert_ne!(
                Route::from_path(path),
                Route::NotFound,
                "{base}: a link to a missing page: {h}"
            );
        }
    }
}

#[test]
fn the_missing_page_says_so_and_links_home() {
    let html = page(&Route::NotFound);
    assert!(html.contains("No encontramos esa página"));
    assert!(html.contains("href=\"/\""));
}

#[test]
fn a_page_knows_no_student_and_no_query() {
    // No saved progress and no variant: what any browser's first render shows.
    let ex = page(&Route::Exercise {
        lesson: lesson().slug.clone(),
        n: 4,
    });
    assert!(ex.contains("data-variant=\"0\""));
    assert!(!ex.contains("is-right") && !ex.contains("Otra versión (número"));
    assert!(page(&Route::Home).contains("Tu avance: 0 de 9 ejercicios resueltos"));
}

/// Every chart of every page is in it, drawn: its SVG at both boxes (narrow,
/// wide) right after its canvas, sized as the style sheet sizes the canvas,
/// each with its texts, and the chart's data fingerprint; and every
/// widget and exercise of a lesson's page sits in a host of its own.
#[test]
fn every_chart_is_drawn_into_its_page_and_every_piece_has_its_island() {
    use sensei_lab::chart::boxes::{height, NARROW, WIDE};
    let mut charts = 0;
    for (route, body) in pages() {
        let mut rest = body.as_str();
        while let Some(i) = rest.find("<canvas ") {
            rest = &rest[i..];
            let before = &body[..body.len() - rest.len()];
            let open = &before[before.rfind("<div ").expect("a chart's box")..];
            let h: u32 = open
                .split("data-h=\"")
                .nth(1)
                .and_then(|v| v.split('"').next())
                .and_then(|v| v.parse().ok())
                .expect("the box's data-h");
            assert!(
                open.contains("data-sum=\""),
                "{route:?}: a chart without its data's fingerprint"
            );
            let after = &rest[rest.find("</canvas>").unwrap() + "</canvas>".len()..];
            assert!(
                after.starts_with("<!--<#>--><svg"),
                "{route:?}: a canvas without its picture"
            );
            let pictures = &after[..after.find("<!--</#>-->").unwrap()];
            let svgs: Vec<&str> = pictures.split("</svg>").filter(|s| !s.is_empty()).collect();
            assert_eq!(svgs.len(), 2, "{route:?}");
            for (svg, (class, w)) in svgs.iter().zip([("pre narrow", NARROW), ("pre wide", WIDE)]) {
                assert!(svg.contains(&format!("class=\"{class}\"")), "{route:?}");
                assert!(
                    svg.contains(&format!("viewBox=\"0 0 {w} {}\"", height(w, h))),
                    "{route:?}: {class}"
                );
                assert!(svg.matches("<text").count() >= 3, "{route:?}: {class} says nothing");
            }
            charts += 1;
            rest = &rest[1..];
        }
        if matches!(route, Route::Lesson { .. }) {
            let l = lesson();
            for id in l
                .directives()
                .iter()
                .filter(|d| d.name == "widget")
                .filter_map(|d| d.get("id"))
            {
                assert!(
                    body.contains(&format!("data-island=\"widget:{id}\"")),
                    "{id}: no island"
                );
            }
            for n in 1..=9 {
                assert!(
                    body.contains(&format!("data-island=\"exercise:{n}\"")),
                    "exercise {n}: no island"
                );
            }
        }
    }
    assert!(charts > 100, "{charts} charts in all the pages");
}

#[test]
fn the_page_for_instructors_lists_every_widget_with_its_tasks_and_every_exercise() {
    let l = lesson();
    let p = page(&Route::Teachers { lesson: l.slug.clone() });
    for s in sensei_lab::scenario::ALL {
        assert!(
            p.contains(&format!(r#"data-piece="widget/{}""#, s.id)),
            "widget {}",
            s.id
        );
    }
    for (t, _) in sensei_lab::exercise::task::of_lesson(l) {
        assert!(p.contains(&format!(r#"data-task="{}""#, t.key())), "task {}", t.key());
    }
    for n in 1..=sensei_lab::exercise::COUNT {
        assert!(p.contains(&format!(r#"data-piece="exercise/{n}""#)), "exercise {n}");
    }
    // The package to download, the sheets of the class's variant; no iframe until a preview is opened.
    assert!(p.contains(&format!(r#"href="/scorm/{}.zip""#, l.slug)));
    // The package's worked solutions: after a check (the download above), after every part, or never.
    assert_eq!(p.matches(r#"name="scorm-solutions""#).count(), 3);
    for setting in ["always", "checked", "never"] {
        assert!(p.contains(&format!(r#"value="{setting}""#)), "{setting}");
    }
    assert!(p.contains("no suma a la calificación"));
    assert!(p.contains(&format!(r#"href="/imprimir/{}?solutions=1""#, l.slug)));
    assert!(!p.contains("<iframe"));
    // And the lesson links to it.
    assert!(page(&Route::Lesson { lesson: l.slug.clone() }).contains(&format!(r#"href="/docentes/{}""#, l.slug)));
}
