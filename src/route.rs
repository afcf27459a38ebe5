//! The lab's URLs: the lesson, each section, each widget and exercise on
//! its own, the same pieces for an iframe (`/embed/…`), and a print view.
//!
//! Pure: a path (without the site's base) to a [`Route`] and back, each
//! route's `<title>` ([`Route::title`]), and the query that holds the
//! pieces' state ([`widget_query`], [`with_widget`], [`with_exercise`],
//! [`landing`]). The browser's side (history, links) is `ui::router`.
//!
//! A widget alone on its page keeps its state in the query with its own
//! keys, the command line's flags (`/lecciones/l/widgets/herd?clients=2000`).
//! On a page with every widget (the lesson, a section), each widget's keys
//! carry its id (`herd.clients=2000&storm.breaker=on`), so that all their
//! states fit in one link, and `widget=<id>` names the one touched last:
//! the link lands on it. An older link's plain keys (`?widget=herd&clients=2000`)
//! are still read as that widget's.
//!
//! ```
//! use sensei_lab::route::Route;
//! let r = Route::from_path("/lecciones/l/widgets/herd");
//! assert_eq!(r, Route::Widget { lesson: "l".into(), id: "herd".into() });
//! assert_eq!(r.path(), "/lecciones/l/widgets/herd");
//! assert_eq!(Route::from_path("/lecciones/l/ejercicios/x"), Route::NotFound);
//! ```

#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// The course's first lesson (`/`).
    Home,
    /// A whole lesson (`/lecciones/:lesson`).
    Lesson { lesson: String },
    /// A lesson, scrolled to one of its sections (`/lecciones/:lesson/:section`).
    Section { lesson: String, section: String },
    /// One widget, on its own page (`/lecciones/:lesson/widgets/:id`).
    Widget { lesson: String, id: String },
    /// One exercise, on its own page (`/lecciones/:lesson/ejercicios/:n`).
    Exercise { lesson: String, n: u32 },
    /// The exercises for paper (`/imprimir/:lesson`, `?solutions=1`, `?class=K`).
    Print { lesson: String },
    /// «Para docentes»: every piece to embed, the class's variant, the SCORM package (`/docentes/:lesson`).
    Teachers { lesson: String },
    /// A section, for an iframe: no navigation (`/embed/:lesson/:section`).
    EmbedSection { lesson: String, section: String },
    /// `/embed/:lesson/widgets/:id`
    EmbedWidget { lesson: String, id: String },
    /// `/embed/:lesson/ejercicios/:n`
    EmbedExercise { lesson: String, n: u32 },
    /// Anything else.
    NotFound,
}

impl Route {
    /// The route of a path (the site's base already taken off; a trailing
    /// slash is ignored).
    pub fn from_path(path: &str) -> Route {
        let path = path.strip_suffix('/').filter(|p| !p.is_empty()).unwrap_or(path);
        let Some(rest) = path.strip_prefix('/') else {
            return Route::NotFound;
        };
        let seg: Vec<&str> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split('/').collect()
        };
        if seg.iter().any(|s| s.is_empty()) {
            return Route::NotFound;
        }
        match seg.as_slice() {
            [] => Route::Home,
            ["lecciones", lesson] => Route::Lesson {
                lesson: lesson.to_string(),
            },
            ["imprimir", lesson] => Route::Print {
                lesson: lesson.to_string(),
            },
            ["docentes", lesson] => Route::Teachers {
                lesson: lesson.to_string(),
            },
            ["lecciones", lesson, rest @ ..] => {
                Piece::from_segments(rest).map_or(Route::NotFound, |p| Route::of_piece(lesson.to_string(), p, false))
            }
            ["embed", lesson, rest @ ..] => {
                Piece::from_segments(rest).map_or(Route::NotFound, |p| Route::of_piece(lesson.to_string(), p, true))
            }
            _ => Route::NotFound,
        }
    }

    /// The route that shows `piece` of `lesson`, in the lesson or embedded.
    pub fn of_piece(lesson: String, piece: Piece, embed: bool) -> Route {
        match (piece, embed) {
            (Piece::Section(section), false) => Route::Section { lesson, section },
            (Piece::Widget(id), false) => Route::Widget { lesson, id },
            (Piece::Exercise(n), false) => Route::Exercise { lesson, n },
            (Piece::Section(section), true) => Route::EmbedSection { lesson, section },
            (Piece::Widget(id), true) => Route::EmbedWidget { lesson, id },
            (Piece::Exercise(n), true) => Route::EmbedExercise { lesson, n },
        }
    }

    /// What a link to this route carries (without the site's base): its
    /// path, and for a section its element too (`/lecciones/l/la-manada#la-manada`),
    /// so that a browser opening it (a new tab, a shared link, no JavaScript)
    /// scrolls there as it reads the page.
    ///
    /// ```
    /// use sensei_lab::route::Route;
    /// assert_eq!(Route::from_path("/lecciones/l/uno").link(), "/lecciones/l/uno#uno");
    /// assert_eq!(Route::from_path("/lecciones/l/widgets/herd").link(), "/lecciones/l/widgets/herd");
    /// ```
    pub fn link(&self) -> String {
        match self {
            Route::Section { section, .. } => format!("{}#{section}", self.path()),
            _ => self.path(),
        }
    }

    /// The path of this route (without the site's base).
    pub fn path(&self) -> String {
        match self {
            Route::Home => "/".into(),
            Route::Lesson { lesson } => format!("/lecciones/{lesson}"),
            Route::Section { lesson, section } => Piece::Section(section.clone()).path(lesson, false),
            Route::Widget { lesson, id } => Piece::Widget(id.clone()).path(lesson, false),
            Route::Exercise { lesson, n } => Piece::Exercise(*n).path(lesson, false),
            Route::Print { lesson } => format!("/imprimir/{lesson}"),
            Route::Teachers { lesson } => format!("/docentes/{lesson}"),
            Route::EmbedSection { lesson, section } => Piece::Section(section.clone()).path(lesson, true),
            Route::EmbedWidget { lesson, id } => Piece::Widget(id.clone()).path(lesson, true),
            Route::EmbedExercise { lesson, n } => Piece::Exercise(*n).path(lesson, true),
            Route::NotFound => "/404".into(),
        }
    }
}

impl Route {
    /// Every route the lab has a page for, the missing page's last: the
    /// course's first lesson, and for each lesson the lesson, its print
    /// view, every section, and every widget and exercise it places, on its
    /// own and embedded.
    pub fn all() -> Vec<Route> {
        let mut all = vec![Route::Home];
        for l in crate::lesson::all() {
            let lesson = || l.slug.clone();
            all.push(Route::Lesson { lesson: lesson() });
            all.push(Route::Print { lesson: lesson() });
            all.push(Route::Teachers { lesson: lesson() });
            let mut placed: Vec<Piece> = Vec::new();
            for piece in l.directives().into_iter().filter_map(|d| match d.name.as_str() {
                "widget" => d.get("id").map(|id| Piece::Widget(id.to_string())),
                "exercise" => d.get("n").and_then(|n| n.parse().ok()).map(Piece::Exercise),
                _ => None,
            }) {
                if !placed.contains(&piece) {
                    placed.push(piece);
                }
            }
            let pieces = l.sections.iter().map(|s| Piece::Section(s.id.clone())).chain(placed);
            for piece in pieces {
                for embed in [false, true] {
                    all.push(Route::of_piece(lesson(), piece.clone(), embed));
                }
            }
        }
        all.push(Route::NotFound);
        all
    }
}

/// What a page without its lesson, section or piece is called.
const NOT_FOUND: &str = "Página no encontrada";

impl Route {
    /// The lesson and the piece this route shows, if it shows one piece.
    pub fn piece(&self) -> Option<(&str, Piece)> {
        Some(match self {
            Route::Section { lesson, section } | Route::EmbedSection { lesson, section } => {
                (lesson, Piece::Section(section.clone()))
            }
            Route::Widget { lesson, id } | Route::EmbedWidget { lesson, id } => (lesson, Piece::Widget(id.clone())),
            Route::Exercise { lesson, n } | Route::EmbedExercise { lesson, n } => (lesson, Piece::Exercise(*n)),
            _ => return None,
        })
    }

    /// The page's `<title>`: what it shows, as the lesson calls it, then the
    /// lesson, then the lab («La manada · Timeouts, reintentos e
    /// idempotencia · Sensei Lab»); the lesson alone for the lesson; «Página
    /// no encontrada · Sensei Lab» for a path, lesson or piece that does not exist.
    /// The same for a piece embedded and on its own page.
    pub fn title(&self) -> String {
        let piece = self.piece();
        let lesson = match self {
            Route::Home => crate::lesson::all().first(),
            Route::Lesson { lesson } | Route::Print { lesson } | Route::Teachers { lesson } => {
                crate::lesson::find(lesson)
            }
            _ => piece.as_ref().and_then(|(slug, _)| crate::lesson::find(slug)),
        };
        let not_found = format!("{NOT_FOUND} · Sensei Lab");
        let Some(l) = lesson else { return not_found };
        // The part of the lesson the page shows; none for all of it.
        let part = match (self, piece) {
            (Route::Print { .. }, _) => Some("Ejercicios para imprimir".to_string()),
            (Route::Teachers { .. }, _) => Some("Para docentes".to_string()),
            (_, Some((_, p))) => match p.name(&l.slug) {
                Some(name) => Some(name),
                None => return not_found,
            },
            _ => None,
        };
        match part {
            Some(p) => format!("{p} · {} · Sensei Lab", l.title),
            None => format!("{} · Sensei Lab", l.title),
        }
    }
}

/// What one page or iframe shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Section(String),
    Widget(String),
    Exercise(u32),
}

impl Piece {
    /// The piece named by the path's segments after the lesson's:
    /// `section`, `widgets/id` or `ejercicios/n`.
    fn from_segments(seg: &[&str]) -> Option<Piece> {
        match seg {
            [section] => Some(Piece::Section(section.to_string())),
            ["widgets", id] => Some(Piece::Widget(id.to_string())),
            ["ejercicios", n] => n.parse().ok().map(Piece::Exercise),
            _ => None,
        }
    }

    /// What the lesson calls this piece: a section's title, a widget's name
    /// ([`crate::lesson::widget_name`]), «Ejercicio 3»; `None` if there is
    /// no such piece (the widgets and exercises are the lab's, every lesson's).
    /// (Read from what the build took of the lessons: naming a piece parses none.)
    pub fn name(&self, lesson: &str) -> Option<String> {
        match self {
            Piece::Section(id) => crate::lesson::section_title(lesson, id).map(String::from),
            Piece::Widget(id) => crate::lesson::widget_name(id).map(String::from),
            Piece::Exercise(n) => (1..=crate::exercise::COUNT)
                .contains(n)
                .then(|| format!("Ejercicio {n}")),
        }
    }

    /// The path of this piece (without the site's base), embedded or not.
    pub fn path(&self, lesson: &str, embed: bool) -> String {
        match (self, embed) {
            (Piece::Section(s), false) => format!("/lecciones/{lesson}/{s}"),
            (Piece::Section(s), true) => format!("/embed/{lesson}/{s}"),
            (Piece::Widget(id), false) => format!("/lecciones/{lesson}/widgets/{id}"),
            (Piece::Widget(id), true) => format!("/embed/{lesson}/widgets/{id}"),
            (Piece::Exercise(n), false) => format!("/lecciones/{lesson}/ejercicios/{n}"),
            (Piece::Exercise(n), true) => format!("/embed/{lesson}/ejercicios/{n}"),
        }
    }
}

/// The key that names the widget a lesson page's link lands on.
pub const WIDGET_KEY: &str = "widget";
/// The worked solutions' key, one name for both uses: `solutions=1` in the
/// print view adds them (the class's key); `solutions=0` on an exercise
/// leaves out «Ver la solución paso a paso» (an embed for homework).
pub const SOLUTIONS_KEY: &str = "solutions";
/// The exercises' keys (`exercise=4&variant=17`, `class=17`): never a widget's.
const EXERCISE_KEYS: [&str; 3] = ["exercise", "variant", "class"];

/// A query's `key=value` pairs (`?` and empty pairs left out; a pair
/// without `=` has an empty value).
fn pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
}

/// Appends `widget.key=value` (`key=value` without a widget) to a query.
fn push(out: &mut String, widget: &str, key: &str, value: &str) {
    for part in [
        if out.is_empty() { "" } else { "&" },
        widget,
        if widget.is_empty() { "" } else { "." },
        key,
        "=",
        value,
    ] {
        out.push_str(part);
    }
}

/// The widget an older link's plain keys belong to (`widget=<id>`), if any.
fn owner(query: &str) -> Option<&str> {
    pairs(query).find(|(k, _)| *k == WIDGET_KEY).map(|(_, v)| v)
}

/// Whose a pair's key is: a widget's with its prefix (`herd.clients`:
/// `Some("herd")`), or no one's in particular.
fn split_key(key: &str) -> (Option<&str>, &str) {
    match key.split_once('.') {
        Some((w, k)) => (Some(w), k),
        None => (None, key),
    }
}

/// The part of a page's query that is widget `id`'s, with its own keys:
/// the plain pairs of an older link (for `widget=<id>`, or no `widget` key
/// at all, as on a widget's own page), then its `id.key=value` pairs.
pub fn widget_query(query: &str, id: &str) -> String {
    let plain = owner(query).is_none_or(|o| o == id);
    let mut out = String::new();
    for prefixed in [false, true] {
        for (k, v) in pairs(query) {
            let (w, key) = split_key(k);
            let mine = match w {
                Some(w) => w == id,
                None => plain && k != WIDGET_KEY && !EXERCISE_KEYS.contains(&k),
            };
            if mine && w.is_some() == prefixed {
                push(&mut out, "", key, v);
            }
        }
    }
    out
}

/// A page's query once widget `id`, on a page with several pieces, holds
/// `own` (its pairs, with its own keys): `widget=<id>` first (the link lands
/// on it), the other pieces' pairs as they were (an older link's plain keys
/// given their widget's prefix), then `id`'s pairs with its prefix.
pub fn with_widget(query: &str, id: &str, own: &str) -> String {
    let old = owner(query).filter(|o| *o != id).unwrap_or_default();
    let mut out = String::new();
    push(&mut out, "", WIDGET_KEY, id);
    for (k, v) in pairs(query) {
        match split_key(k) {
            (Some(w), _) if w != id => push(&mut out, "", k, v),
            (None, _) if EXERCISE_KEYS.contains(&k) => push(&mut out, "", k, v),
            (None, _) if !old.is_empty() && k != WIDGET_KEY => push(&mut out, old, k, v),
            _ => {}
        }
    }
    for (k, v) in pairs(own) {
        push(&mut out, id, k, v);
    }
    out
}

/// A page's query once exercise `n` shows `variant`: `exercise=n&variant=k`
/// first (nothing for the lesson's numbers, 0), the exercises' other keys
/// dropped (as a class's variant is left for this one), the widgets' pairs kept.
pub fn with_exercise(query: &str, n: u32, variant: u32) -> String {
    let mut out = String::new();
    if variant > 0 {
        push(&mut out, "", "exercise", &n.to_string());
        push(&mut out, "", "variant", &variant.to_string());
    }
    for (k, v) in pairs(query).filter(|(k, _)| !EXERCISE_KEYS.contains(k)) {
        push(&mut out, "", k, v);
    }
    out
}

/// The part of a page's query that is `piece`'s, for its own link: a
/// widget's with its own keys, an exercise's variant (or its class's), a
/// section's whole query (its widgets' states).
pub fn piece_query(query: &str, piece: &Piece) -> String {
    match piece {
        Piece::Widget(id) => widget_query(query, id),
        Piece::Exercise(n) => {
            let mine = pairs(query).any(|(k, v)| k == "exercise" && v == n.to_string());
            let mut out = String::new();
            for (k, v) in pairs(query) {
                if k == "class" || (mine && EXERCISE_KEYS.contains(&k)) {
                    push(&mut out, "", k, v);
                }
            }
            out
        }
        Piece::Section(_) => query.trim_start_matches('?').to_string(),
    }
}

/// The element a lesson page's link lands on: the widget or exercise whose
/// key comes first in the query (`widget-herd`, `exercise-4`).
pub fn landing(query: &str) -> Option<String> {
    pairs(query).find_map(|(k, v)| match k {
        WIDGET_KEY | "exercise" => Some(format!("{k}-{v}")),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_reads_back_from_its_path() {
        let (l, x) = (
            "timeouts-reintentos-idempotencia".to_string(),
            "idempotencia".to_string(),
        );
        let routes = [
            Route::Home,
            Route::Lesson { lesson: l.clone() },
            Route::Section {
                lesson: l.clone(),
                section: x.clone(),
            },
            Route::Widget {
                lesson: l.clone(),
                id: "herd".into(),
            },
            Route::Exercise {
                lesson: l.clone(),
                n: 4,
            },
            Route::Print { lesson: l.clone() },
            Route::EmbedSection {
                lesson: l.clone(),
                section: x.clone(),
            },
            Route::EmbedWidget {
                lesson: l.clone(),
                id: "storm".into(),
            },
            Route::EmbedExercise {
                lesson: l.clone(),
                n: 12,
            },
        ];
        for r in routes {
            assert_eq!(Route::from_path(&r.path()), r, "{}", r.path());
            // A trailing slash changes nothing.
            assert_eq!(Route::from_path(&format!("{}/", r.path())), r, "{}", r.path());
        }
        assert_eq!(
            Route::from_path("/lecciones/l/widgets"),
            Route::Section {
                lesson: "l".into(),
                section: "widgets".into()
            }
        );
    }

    #[test]
    fn anything_else_is_not_found() {
        for p in [
            "",
            "lecciones/l",
            "/404",
            "/lecciones",
            "/lecciones//x",
            "/lecciones/l/ejercicios/-1",
            "/lecciones/l/ejercicios/99999999999",
            "/lecciones/l/a/b",
            "/lecciones/l/widgets/a/b",
            "/embed/l",
            "/imprimir",
            "/otra/cosa",
        ] {
            assert_eq!(Route::from_path(p), Route::NotFound, "{p}");
        }
    }
}

#[cfg(test)]
mod title_tests {
    use super::*;

    const L: &str = "timeouts-reintentos-idempotencia";
    const LAB: &str = "Timeouts, reintentos e idempotencia · Sensei Lab";

    fn both(piece: Piece) -> [Route; 2] {
        [
            Route::of_piece(L.into(), piece.clone(), false),
            Route::of_piece(L.into(), piece, true),
        ]
    }

    #[test]
    fn the_lesson_print_view_and_missing_pages() {
        assert_eq!(Route::Home.title(), "Timeouts, reintentos e idempotencia · Sensei Lab");
        assert_eq!(Route::Lesson { lesson: L.into() }.title(), LAB);
        assert_eq!(
            Route::Print { lesson: L.into() }.title(),
            format!("Ejercicios para imprimir · {LAB}")
        );
        let missing = "Página no encontrada · Sensei Lab";
        for r in [
            Route::NotFound,
            Route::Lesson { lesson: "otra".into() },
            Route::Print { lesson: "otra".into() },
            Route::Widget {
                lesson: "otra".into(),
                id: "herd".into(),
            },
        ]
        .into_iter()
        .chain(both(Piece::Section("no-existe".into())))
        .chain(both(Piece::Widget("nada".into())))
        .chain(both(Piece::Exercise(0)))
        .chain(both(Piece::Exercise(10)))
        {
            assert_eq!(r.title(), missing, "{r:?}");
        }
    }

    #[test]
    fn every_widget_by_its_spanish_name() {
        let names = [
            ("herd", "La manada"),
            ("clocks", "Tres relojes"),
            ("inflight", "Lo que cuesta esperar de más"),
            ("chain", "La cadena de C01"),
            ("hedging", "Hedging"),
            ("shedding", "Load shedding"),
            ("backoff", "Calculadora de backoff"),
            ("layers", "Cada capa multiplica"),
            ("budget", "El presupuesto de reintentos"),
            ("failure", "¿Reintentarías?"),
            ("breaker", "Circuit breaker"),
            ("storm", "Tormenta de reintentos"),
            ("store", "La llave de idempotencia"),
            ("degradation", "Degradación"),
            ("failmode", "¿Abierto o cerrado?"),
        ];
        // The lesson's widgets keep their names…
        for (id, name) in names {
            assert_eq!(crate::lesson::widget_name(id), Some(name), "{id}");
        }
        // …and every registered widget's page is titled by its name.
        for s in crate::scenario::ALL {
            for r in both(Piece::Widget(s.id.into())) {
                assert_eq!(r.title(), format!("{} · {LAB}", s.name), "{r:?}");
            }
        }
    }

    #[test]
    fn every_exercise_by_its_number() {
        for n in 1..=crate::exercise::COUNT {
            for r in both(Piece::Exercise(n)) {
                assert_eq!(r.title(), format!("Ejercicio {n} · {LAB}"), "{r:?}");
            }
        }
        assert_eq!(
            Route::from_path(&format!("/lecciones/{L}/ejercicios/3")).title(),
            "Ejercicio 3 · Timeouts, reintentos e idempotencia · Sensei Lab"
        );
    }

    #[test]
    fn every_section_by_its_heading() {
        let lesson = crate::lesson::find(L).unwrap();
        assert!(lesson.sections.len() > 40);
        for s in &lesson.sections {
            for r in both(Piece::Section(s.id.clone())) {
                assert_eq!(r.title(), format!("{} · {LAB}", s.title), "{r:?}");
                assert!(!s.title.is_empty());
            }
        }
        assert_eq!(
            Route::from_path(&format!("/lecciones/{L}/la-manada")).title(),
            "El problema de la manada · Timeouts, reintentos e idempotencia · Sensei Lab"
        );
        assert_eq!(
            Route::from_path(&format!("/embed/{L}/conceptos")).title(),
            format!("Tarjetas de conceptos · {LAB}")
        );
    }
}

#[cfg(test)]
mod query_tests {
    use super::*;

    #[test]
    fn a_widget_reads_its_own_keys_and_an_older_links_plain_ones() {
        // A widget's own page, and an older link to the lesson.
        assert_eq!(
            widget_query("?clients=2000&jitter=equal", "herd"),
            "clients=2000&jitter=equal"
        );
        assert_eq!(widget_query("?widget=herd&clients=2000", "herd"), "clients=2000");
        assert_eq!(widget_query("?widget=herd&clients=2000", "storm"), "");
        // Several widgets in one link.
        let q = "?widget=storm&herd.clients=2000&storm.breaker=on&storm.budget-pct=10&exercise=4&variant=17";
        assert_eq!(widget_query(q, "herd"), "clients=2000");
        assert_eq!(widget_query(q, "storm"), "breaker=on&budget-pct=10");
        assert_eq!(widget_query(q, "chain"), "");
        // A prefix is a whole id, and the exercises' keys are nobody's.
        assert_eq!(widget_query("herdx.clients=1&exercise=4&class=3", "herd"), "");
        assert_eq!(widget_query("", "herd"), "");
    }

    #[test]
    fn a_widget_writes_its_keys_beside_the_others_and_becomes_the_landing() {
        assert_eq!(with_widget("", "herd", "clients=2000"), "widget=herd&herd.clients=2000");
        let q = with_widget("widget=herd&herd.clients=2000", "storm", "breaker=on");
        assert_eq!(q, "widget=storm&herd.clients=2000&storm.breaker=on");
        // Its own earlier pairs are replaced; back at the lesson's values, it has none.
        let q = with_widget(&q, "herd", "clients=3000&jitter=equal");
        assert_eq!(q, "widget=herd&storm.breaker=on&herd.clients=3000&herd.jitter=equal");
        assert_eq!(with_widget(&q, "herd", ""), "widget=herd&storm.breaker=on");
        // An older link's plain pairs keep their widget, now with its prefix.
        assert_eq!(
            with_widget(
                "?widget=herd&clients=2000&exercise=4&variant=17",
                "chain",
                "prep-ms=160"
            ),
            "widget=chain&herd.clients=2000&exercise=4&variant=17&chain.prep-ms=160"
        );
        assert_eq!(
            with_widget("?widget=herd&clients=2000", "herd", "clients=5"),
            "widget=herd&herd.clients=5"
        );
        // What the other widgets read is what they read before.
        let q = with_widget("?widget=herd&clients=2000&jitter=none", "storm", "breaker=on");
        assert_eq!(widget_query(&q, "herd"), "clients=2000&jitter=none");
        assert_eq!(landing(&q).as_deref(), Some("widget-storm"));
    }

    #[test]
    fn an_exercise_keeps_the_widgets() {
        let q = "widget=herd&herd.clients=2000&exercise=2&variant=5&class=9";
        assert_eq!(
            with_exercise(q, 4, 17),
            "exercise=4&variant=17&widget=herd&herd.clients=2000"
        );
        assert_eq!(with_exercise(q, 4, 0), "widget=herd&herd.clients=2000");
        assert_eq!(with_exercise("", 4, 17), "exercise=4&variant=17");
        assert_eq!(landing(&with_exercise(q, 4, 17)).as_deref(), Some("exercise-4"));
    }

    #[test]
    fn a_pieces_own_link_holds_its_state_only() {
        let q = "?widget=storm&herd.clients=2000&storm.breaker=on&exercise=4&variant=17&class=3";
        assert_eq!(piece_query(q, &Piece::Widget("storm".into())), "breaker=on");
        assert_eq!(piece_query(q, &Piece::Exercise(4)), "exercise=4&variant=17&class=3");
        assert_eq!(piece_query(q, &Piece::Exercise(5)), "class=3");
        assert_eq!(piece_query(q, &Piece::Section("x".into())), &q[1..]);
        assert_eq!(piece_query("", &Piece::Exercise(5)), "");
    }

    #[test]
    fn the_landing_is_the_first_piece_named() {
        assert_eq!(landing("?widget=herd&clients=2000").as_deref(), Some("widget-herd"));
        assert_eq!(landing("clients=2000").as_deref(), None);
        assert_eq!(landing("class=3&exercise=7&variant=2").as_deref(), Some("exercise-7"));
        assert_eq!(landing(""), None);
    }
}
