//! Every page of the lab, written at build time as static HTML by the same
//! components the browser runs (Yew's server renderer), so that a page's
//! whole text, its links and each widget's figures at the lesson's values
//! are there before any script: on a slow phone, without JavaScript, for a
//! search engine or a reader mode. The browser then hydrates the page
//! (`ui::start`) instead of rendering it from nothing.
//!
//! `sensei-lab prerender DIST` runs [`write_all`] on Trunk's output: its
//! `index.html` is the shell (head, scripts, the policy) into whose
//! `<div id="app">` each route's page goes, with its own `<title>`, at the
//! route's path (`lecciones/l/widgets/herd/index.html`; the first lesson in
//! `index.html`, the missing page in `404.html`). The «Para docentes» pages
//! go into the instructors' build's shell instead (`--instructors`: the
//! build with the `instructors` feature, whose wasm has that page; see
//! build.rs). Run again on the same folder, it writes the same.
//!
//! A prerendered page is what the browser's first render shows at that
//! address with no query and no saved progress ([`crate::ui::host`]): anything
//! else (a widget's state in the URL, a class's variant, the student's
//! answers) comes after hydration, or the page renders instead.

use crate::route::Route;
use crate::ui::{host, prerender_attr, App, ROOT_ID};
use std::path::Path;

/// Where `route`'s page goes in the build's folder.
pub fn file_of(route: &Route) -> String {
    match route {
        Route::Home => "index.html".into(),
        Route::NotFound => "404.html".into(),
        r => format!("{}/index.html", r.path().trim_start_matches('/')),
    }
}

/// The app's HTML for `route`, as the browser's first render at that address
/// builds it, in a build whose `<base href>` is `base_href`.
pub fn render(route: &Route, base_href: &str) -> String {
    render_all(std::slice::from_ref(route), base_href)
        .pop()
        .unwrap_or_default()
}

/// [`render`] for each route, on one runtime.
pub fn render_all(routes: &[Route], base_href: &str) -> Vec<String> {
    let base = crate::ui::hooks::url_state::base_of(base_href);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a one-thread runtime for the server renderer");
    routes
        .iter()
        .map(|route| {
            host::set(host::Page {
                pathname: format!("{base}{}", route.path()),
                base_href: base_href.to_string(),
                package: None,
            });
            let html = tokio::task::LocalSet::new()
                .block_on(&rt, yew::LocalServerRenderer::<App>::new().hydratable(true).render());
            without_type_names(&html)
        })
        .collect()
}

/// A SCORM package's page: `shell` (the package's `index.html`, its root
/// empty) with the lesson it holds prerendered in the root, as the browser's
/// first render in that package builds it (its class's variants, its
/// solutions' rule, links in the fragment), so that the lesson can be read
/// before the lab's code has arrived (an LMS may serve it uncompressed), and
/// wakes as islands as the site's lesson does.
pub fn package_page(shell: &str, package: &host::Package) -> Result<String, String> {
    let route = Route::Lesson {
        lesson: package.lesson.clone(),
    };
    if crate::lesson::find(&package.lesson).is_none() {
        return Err(format!("no lesson «{}»", package.lesson));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a one-thread runtime for the server renderer");
    host::set(host::Page {
        pathname: route.path(),
        base_href: String::new(),
        package: Some(package.clone()),
    });
    let html =
        tokio::task::LocalSet::new().block_on(&rt, yew::LocalServerRenderer::<App>::new().hydratable(true).render());
    host::set(host::Page::default());
    page(shell, &route, &without_type_names(&html))
}

/// Hydration finds each component between two comments,
/// `<!--<[…]>-->…<!--</[…]>-->`, by their marks only (`<[`, `]>`). A build
/// with debug assertions (this command's, in development) writes the
/// component's Rust type between them: bytes, and the code's inner names, in
/// every page. The release build writes `<!--<[]>-->`, and so does the page.
fn without_type_names(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("<!--<") {
        let (head, tail) = rest.split_at(i);
        out.push_str(head);
        let mark = if tail.starts_with("<!--</[") {
            "<!--</["
        } else if tail.starts_with("<!--<[") {
            "<!--<["
        } else {
            out.push_str("<!--<");
            rest = &tail[5..];
            continue;
        };
        match tail.find("]>-->") {
            Some(end) => {
                out.push_str(mark);
                out.push_str("]>-->");
                rest = &tail[end + 5..];
            }
            None => {
                out.push_str(tail);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Text for HTML (an attribute's value or an element's text).
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const ROOT_OPEN: &str = "<div id=\"app\"";

/// The shell of a built `index.html`: the page with its app's root empty
/// (as Trunk wrote it, or taken back from an already prerendered page: the
/// root is the body's last element).
pub fn shell(index: &str) -> Result<String, String> {
    debug_assert_eq!(ROOT_OPEN, format!("<div id=\"{ROOT_ID}\""));
    let start = index
        .find(ROOT_OPEN)
        .ok_or_else(|| format!("no {ROOT_OPEN}> in the page to prerender into"))?;
    let body_end = index.rfind("</body>").ok_or("no </body> in the page")?;
    let end = index[..body_end]
        .rfind("</div>")
        .filter(|e| *e > start)
        .ok_or("the app's root is not the body's last element")?;
    Ok(format!(
        "{}{ROOT_OPEN}></div>{}",
        &index[..start],
        &index[end + "</div>".len()..]
    )
    .replacen(&format!("{NOINDEX}\n"), "", 1))
}

/// The `href` of the shell's `<base>` (Trunk's public URL: `/`, `/cursos/lab/`).
pub fn base_href(shell: &str) -> Result<String, String> {
    let tag = &shell[shell.find("<base ").ok_or("no <base href> in the page")?..];
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let value = tag.split_once("href=\"").ok_or("no href in the page's <base>")?.1;
    Ok(value[..value.find('"').unwrap_or(value.len())].to_string())
}

/// Whether search engines should list `route`'s page: not an embed (the
/// same piece has its own page), not the exercises for paper (the lesson's
/// exercises again), not the missing page. The others are in `sitemap.xml`;
/// these carry `noindex` ([`page`]).
pub fn indexed(route: &Route) -> bool {
    !matches!(
        route,
        Route::EmbedSection { .. }
            | Route::EmbedWidget { .. }
            | Route::EmbedExercise { .. }
            | Route::Print { .. }
            | Route::NotFound
    )
}

/// What a page that is not [`indexed`] says to search engines.
pub const NOINDEX: &str = "<meta name=\"robots\" content=\"noindex\" />";

/// `shell` with `route`'s page (`body`, from [`render`]) in its root and its
/// title, and `noindex` where it is not [`indexed`].
pub fn page(shell: &str, route: &Route, body: &str) -> Result<String, String> {
    let empty = format!("{ROOT_OPEN}></div>");
    if !shell.contains(&empty) {
        return Err(format!("no empty {empty} in the shell"));
    }
    let (t0, t1) = (
        shell.find("<title>").ok_or("no <title> in the page")?,
        shell.find("</title>").ok_or("no </title> in the page")?,
    );
    let mut titled = format!("{}<title>{}{}", &shell[..t0], escape(&route.title()), &shell[t1..]);
    if !indexed(route) {
        let head_end = titled.find("</head>").ok_or("no </head> in the page")?;
        titled.insert_str(head_end, &format!("{NOINDEX}\n"));
    }
    let root = format!(
        "{ROOT_OPEN} {}=\"{}\">{body}</div>",
        prerender_attr::ROUTE,
        escape(&route.path())
    );
    Ok(titled.replacen(&empty, &root, 1))
}

/// The address of `route` on the site: `site` (`https://cursos.example`,
/// no trailing slash) and the build's public path (`base_href`, `/cursos/lab/`);
/// without a site, the path alone.
fn address(route: &Route, base_href: &str, site: Option<&str>) -> String {
    let base = base_href.trim_end_matches('/');
    let path = match route {
        Route::Home => "/".to_string(),
        r => r.path(),
    };
    format!("{}{base}{path}", site.unwrap_or("").trim_end_matches('/'))
}

/// `sitemap.xml`: every prerendered page that is [`indexed`], each at its
/// address on the site (sitemaps.org's protocol: `urlset`, one `url` with
/// its `loc` per page).
pub fn sitemap(routes: &[Route], base_href: &str, site: Option<&str>) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for r in routes.iter().filter(|r| indexed(r)) {
        out.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            escape(&address(r, base_href, site))
        ));
    }
    out.push_str("</urlset>\n");
    out
}

/// `robots.txt`: every page may be read, and where the sitemap is (only
/// with the site's address: the line must be a whole URL). A crawler reads
/// it only at the site's root: a build under a sub-path leaves it to the
/// site (README).
pub fn robots(base_href: &str, site: Option<&str>) -> String {
    let mut out = String::from("User-agent: *\nAllow: /\n");
    if let Some(site) = site {
        out.push_str(&format!(
            "\nSitemap: {}{}sitemap.xml\n",
            site.trim_end_matches('/'),
            base_href
        ));
    }
    out
}

/// The shell of the «Para docentes» pages: the instructors' build's
/// `index.html` at `instructors`, or, without it, the shell of those pages
/// already written into `dist` (a build finished again). It must be for the
/// same site path as the learner's `shell`.
fn instructors_shell(dist: &Path, instructors: Option<&Path>, base: &str) -> Result<String, String> {
    let file = match instructors {
        Some(f) => f.to_path_buf(),
        None => crate::lesson::all()
            .first()
            .map(|l| dist.join(file_of(&Route::Teachers { lesson: l.slug.clone() })))
            .ok_or("no lesson")?,
    };
    let index = std::fs::read_to_string(&file).map_err(|e| {
        format!(
            "{}: {e} (the instructors' build, `trunk build --features instructors`, gives the «Para docentes» pages their shell: --instructors)",
            file.display()
        )
    })?;
    let shell = shell(&index)?;
    let theirs = base_href(&shell)?;
    if theirs != base {
        return Err(format!(
            "{}: built for {theirs}, the learner's build for {base}",
            file.display()
        ));
    }
    Ok(shell)
}

/// Writes every route's page into the build's folder `dist` (see the
/// module's text), those of «Para docentes» into the shell of the
/// instructors' build (its `index.html` at `instructors`), and `sitemap.xml`
/// and `robots.txt` for the site at `site` (`https://cursos.example`);
/// returns each file written with its size.
pub fn write_all(dist: &Path, instructors: Option<&Path>, site: Option<&str>) -> Result<Vec<(String, usize)>, String> {
    // A lesson that places a piece the lab does not have (an unknown widget id,
    // a directive missing what it needs) fails the build, not the learner's page.
    let problems = crate::exercise::check_lessons();
    if !problems.is_empty() {
        return Err(format!("the lessons' directives: {}", problems.join("; ")));
    }
    let index = std::fs::read_to_string(dist.join("index.html"))
        .map_err(|e| format!("{}: {e}", dist.join("index.html").display()))?;
    let shell = shell(&index)?;
    let base_href = base_href(&shell)?;
    let teachers = instructors_shell(dist, instructors, &base_href)?;
    let routes = Route::all();
    let bodies = render_all(&routes, &base_href);
    let mut written = Vec::new();
    for (route, body) in routes.iter().zip(bodies) {
        let shell = match route {
            Route::Teachers { .. } => &teachers,
            _ => &shell,
        };
        let html = page(shell, route, &body)?;
        let file = dist.join(file_of(route));
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&file, &html).map_err(|e| format!("{}: {e}", file.display()))?;
        written.push((file_of(route), html.len()));
    }
    for (name, text) in [
        ("sitemap.xml", sitemap(&routes, &base_href, site)),
        ("robots.txt", robots(&base_href, site)),
    ] {
        let file = dist.join(name);
        std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
        written.push((name.to_string(), text.len()));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packages_page_is_its_lesson_as_that_package_shows_it_and_the_sites_pages_stay_theirs() {
        let slug = crate::lesson::first_slug().to_string();
        let shell = "<html><head><title>x</title></head><body><div id=\"app\"></div></body></html>";
        let package = |class| host::Package {
            lesson: slug.clone(),
            class,
            mastery: Some(80),
            solutions: crate::exercise::scorm::Solutions::Never,
        };
        let page = package_page(shell, &package(17)).expect("the package's page");
        assert!(page.contains(&format!("<div id=\"app\" data-route=\"/lecciones/{slug}\"><!--")));
        let hrefs: Vec<&str> = page
            .split("href=\"")
            .skip(1)
            .map(|h| &h[..h.find('"').unwrap()])
            .collect();
        assert!(hrefs.len() > 20);
        assert!(
            hrefs.iter().all(|h| h.starts_with('#') || h.starts_with("http")),
            "{hrefs:?}"
        );
        assert!(page.contains("id=\"exercise-4\"") && page.contains("data-variant=\"17\""));
        // Another class, other numbers; the site's lesson afterwards is the site's.
        assert_ne!(page, package_page(shell, &package(18)).unwrap());
        let site = render(&Route::Lesson { lesson: slug.clone() }, "/");
        assert!(!site.contains("href=\"#/") && !site.contains("data-variant=\"17\""));
        assert!(site.contains(&format!("href=\"/lecciones/{slug}/")));
        assert!(package_page(
            shell,
            &host::Package {
                lesson: "nope".into(),
                ..package(0)
            }
        )
        .is_err());
    }

    #[test]
    fn the_sitemap_lists_every_page_at_the_sites_address() {
        let routes = Route::all();
        let map = sitemap(&routes, "/cursos/lab/", Some("https://cursos.example/"));
        let locs: Vec<&str> = map
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<url><loc>")?.strip_suffix("</loc></url>"))
            .collect();
        let listed: Vec<&Route> = routes.iter().filter(|r| indexed(r)).collect();
        assert_eq!(locs.len(), listed.len());
        // Neither an embed nor the exercises for paper: each has its piece's or its lesson's page.
        assert!(locs.iter().all(|l| !l.contains("/embed/") && !l.contains("/imprimir/")));
        assert!(routes.iter().any(|r| matches!(r, Route::EmbedWidget { .. })));
        assert!(locs.iter().any(|l| l.contains("/docentes/")));
        assert_eq!(locs[0], "https://cursos.example/cursos/lab/");
        for (r, loc) in listed.into_iter().zip(&locs) {
            if *r != Route::Home {
                assert_eq!(*loc, format!("https://cursos.example/cursos/lab{}", r.path()));
            }
        }
        assert!(locs.iter().any(|l| l.ends_with("/widgets/herd")));
        assert!(map.starts_with("<?xml") && map.contains("sitemaps.org/schemas/sitemap/0.9"));
        assert_eq!(
            robots("/cursos/lab/", Some("https://cursos.example")),
            "User-agent: *\nAllow: /\n\nSitemap: https://cursos.example/cursos/lab/sitemap.xml\n"
        );
        assert!(!robots("/", None).contains("Sitemap"));
        assert!(sitemap(&routes, "/", None).contains("<loc>/lecciones/"));
    }

    #[test]
    fn type_names_come_out_of_the_marks_and_nothing_else() {
        assert_eq!(
            without_type_names("a<!--<[x::Y]>--><p>b</p><!--</[x::Y]>--><!--<#>-->c<!--</#>-->"),
            "a<!--<[]>--><p>b</p><!--</[]>--><!--<#>-->c<!--</#>-->"
        );
        assert_eq!(without_type_names("<!--<[broken"), "<!--<[broken");
    }

    #[test]
    fn the_shell_comes_back_from_a_prerendered_page() {
        let trunk = "<html><head><title>Sensei Lab</title><base href=\"/cursos/lab/\" /></head><body>\n<noscript>x</noscript>\n<div id=\"app\"></div>\n</body></html>";
        let s = shell(trunk).unwrap();
        assert_eq!(s, trunk);
        assert_eq!(base_href(&s).unwrap(), "/cursos/lab/");
        let r = Route::Widget {
            lesson: "l".into(),
            id: "herd".into(),
        };
        let p = page(&s, &r, "<main><div>hola</div></main>").unwrap();
        assert!(
            p.contains("<div id=\"app\" data-route=\"/lecciones/l/widgets/herd\"><main><div>hola</div></main></div>")
        );
        assert!(p.contains(&format!("<title>{}</title>", r.title())));
        assert_eq!(
            shell(&p).unwrap(),
            s.replace("Sensei Lab</title>", &format!("{}</title>", r.title()))
        );
        assert_eq!(file_of(&r), "lecciones/l/widgets/herd/index.html");
        assert!(!p.contains("noindex"));
        // An embed and the exercises for paper are not for search engines; their shell is the same.
        for r in [
            Route::EmbedWidget {
                lesson: "l".into(),
                id: "herd".into(),
            },
            Route::Print { lesson: "l".into() },
        ] {
            let p = page(&s, &r, "<main></main>").unwrap();
            assert!(p.contains(&format!("{NOINDEX}\n</head>")), "{p}");
            assert_eq!(
                shell(&p).unwrap(),
                s.replace("Sensei Lab</title>", &format!("{}</title>", r.title()))
            );
        }
    }
}
