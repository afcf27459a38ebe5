//! Fuzzing by property (issue #8): inputs from outside the program, random
//! and hostile, never panic and never leave the bounds.
//!
//! - the lesson parser, on the real lesson with random edits (directive
//!   fragments, raw HTML, unbalanced containers, binary junk) and on random
//!   text; the concept cards' parser likewise;
//! - the URL-state decoder of every scenario's parameters, on random
//!   queries of its own keys with hostile values (NaN, infinities, huge and
//!   negative numbers, other numerals, broken percent-encodings, Unicode),
//!   and on arbitrary text: the result is always within bounds, and writing
//!   it back to a query and reading it again gives the same parameters.
//!
//! The answer reader, the Retry-After parser and every simulation at random
//! parameters have their properties in `tests/properties.rs`.
//!
//! Case counts are proptest's default (256) unless `PROPTEST_CASES` says
//! otherwise: the long run documented in the README is
//! `PROPTEST_CASES=20000 cargo test --release --test fuzz`.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use sensei_lab::sim::params::{self, Params};
use sensei_lab::sim::{degradation, herd, idempotency, retries, storm};

const LESSON: &str = include_str!("../lessons/timeouts-reintentos-idempotencia/leccion.md");
const CONCEPTS: &str = include_str!("../lessons/timeouts-reintentos-idempotencia/conceptos.md");

/// Pieces that make a parser's life hard.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(":::".to_string()),
        Just("::::".to_string()),
        Just(":::::exercise{n=3}\n".to_string()),
        Just("::::exercise{n=99999999999}\n".to_string()),
        Just("::widget{id=herd}\n".to_string()),
        Just("::widget{id=\"no-existe\"}\n".to_string()),
        Just("::widget{id=".to_string()),
        Just("::table{id=layers}\n".to_string()),
        Just("::program{output=manada}\n".to_string()),
        Just("::knew{n=}\n".to_string()),
        Just(":::details{summary=\"x\"}\n".to_string()),
        Just("{#ancla}".to_string()),
        Just("\n## Título {#dup}\n".to_string()),
        Just("\n# \n".to_string()),
        Just("<script>alert(1)</script>".to_string()),
        Just("<img src=x onerror=alert(1)>".to_string()),
        Just("[enlace](javascript:alert(1))".to_string()),
        Just("```python\n".to_string()),
        Just("---\n".to_string()),
        Just("\u{0}\u{FEFF}\u{202E}".to_string()),
        "\\PC{0,12}",
    ]
}

/// The lesson with up to 12 random edits: a fragment inserted at, or a
/// stretch deleted from, a random place (kept on character boundaries).
fn edited_lesson() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        (any::<prop::sample::Index>(), 0usize..200, fragment(), any::<bool>()),
        0..12,
    )
    .prop_map(|edits| {
        let mut s = LESSON.to_string();
        for (at, len, piece, insert) in edits {
            let boundaries: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let i = boundaries[at.index(boundaries.len())];
            if insert {
                s.insert_str(i, &piece);
            } else {
                let j = boundaries.iter().copied().find(|&b| b >= i + len).unwrap_or(s.len());
                s.replace_range(i..j, "");
            }
        }
        s
    })
}

fn hostile_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        (0u32..100_000).prop_map(|v| v.to_string()),
        Just("NaN".to_string()),
        Just("-inf".to_string()),
        Just("1e309".to_string()),
        Just("99999999999999999999999999".to_string()),
        Just("-0".to_string()),
        Just("0x10".to_string()),
        Just(" 5".to_string()),
        Just("+5".to_string()),
        Just("٣".to_string()),
        Just("%".to_string()),
        Just("%F0%9F".to_string()),
        Just("%00".to_string()),
        Just("%3Cscript%3E".to_string()),
        "\\PC{0,10}",
    ]
}

/// Random `key=value` pairs with the scenario's own keys (and junk keys).
fn query_for<P: Params>() -> impl Strategy<Value = String> {
    query_for_specs(P::specs())
}

/// [`query_for`] from a spec table.
fn query_for_specs(specs: &'static [params::Spec]) -> impl Strategy<Value = String> {
    let keys: Vec<&'static str> = specs.iter().map(|s| s.key).chain(["widget", "x", ""]).collect();
    proptest::collection::vec((proptest::sample::select(keys), hostile_value(), any::<bool>()), 0..12).prop_map(|kv| {
        kv.into_iter()
            .map(|(k, v, enc)| {
                if enc {
                    format!("{k}={}", v.replace('&', "%26"))
                } else {
                    format!("{k}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    })
}

/// Whatever the query, the parameters are within bounds, and they survive a
/// round trip through the URL unchanged.
fn decodes_within_bounds<P: Params + std::fmt::Debug>(q: &str) -> Result<P, TestCaseError> {
    let (p, _notes) = params::from_query::<P>(q);
    prop_assert!(params::check(&p).is_ok(), "{q:?} gave {p:?}");
    let (again, notes) = params::from_query::<P>(&params::to_query(&p));
    prop_assert_eq!(&again, &p);
    prop_assert!(notes.is_empty());
    Ok(p)
}

/// Puts a skeleton's markdown runs back in place of their references.
fn restore(blocks: &mut [sensei_lab::lesson::Block], runs: &[String]) {
    use sensei_lab::lesson::{run_index, Block};
    for b in blocks {
        match b {
            Block::Markdown(text) => *text = runs[run_index(text).expect("a reference")].clone(),
            Block::Container { body, .. } => restore(body, runs),
            Block::Directive(_) => {}
        }
    }
}

/// Compiled markdown opens as many elements as it closes, and only known ones.
fn compiles_balanced(src: &str) -> Result<(), TestCaseError> {
    use sensei_lab::lesson::markup::{compile, events, Event};
    let (mut open, mut close) = (0, 0);
    for e in events(&compile(src)) {
        match e {
            Event::Open(name) => {
                open += 1;
                prop_assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "{name:?}");
            }
            Event::Close => close += 1,
            _ => {}
        }
    }
    prop_assert_eq!(open, close);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn the_lesson_parser_takes_any_edit(src in edited_lesson()) {
        match sensei_lab::lesson::parse("prueba", &src) {
            Ok(lesson) => {
                prop_assert!(!lesson.title.is_empty());
                // What the browser build embeds (build.rs) is the same lesson.
                let mut runs = Vec::new();
                let skeleton = sensei_lab::lesson::skeleton(&lesson, &mut runs);
                let mut again = sensei_lab::lesson::parse("prueba", &skeleton).unwrap();
                for s in &mut again.sections {
                    restore(&mut s.blocks, &runs);
                }
                prop_assert_eq!(again, lesson);
                for run in &runs {
                    compiles_balanced(run)?;
                }
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= src.lines().count() + 1, "{e:?}"),
        }
    }

    #[test]
    fn markdown_compiles_from_any_text(src in "\\PC{0,300}", junk in fragment()) {
        compiles_balanced(&format!("{src}\n{junk}"))?;
    }

    #[test]
    fn stored_progress_from_any_text(text in "\\PC{0,200}") {
        let _ = sensei_lab::exercise::progress::Progress::load(Some(&text));
        if let Ok(v) = sensei_lab::exercise::json::parse(&text) {
            // Whatever it reads, it writes back as text it reads the same.
            prop_assert_eq!(sensei_lab::exercise::json::parse(&v.to_string()), Ok(v));
        }
    }

    #[test]
    fn the_lesson_parser_takes_any_text(src in "(---\ntitle: x\n---\n)?\\PC{0,400}") {
        let _ = sensei_lab::lesson::parse("prueba", &src);
    }

    #[test]
    fn the_concept_parser_takes_anything(cut in 0usize..6000, junk in fragment()) {
        let mut s = CONCEPTS.chars().take(cut).collect::<String>();
        s.push_str(&junk);
        s.push_str(CONCEPTS);
        let cards = sensei_lab::lesson::concepts::parse(&s);
        prop_assert!(cards.iter().all(|c| !c.term.is_empty() && !c.id.is_empty()));
        // The untouched copy at the end still gives every card of the lesson.
        prop_assert!(cards.len() >= sensei_lab::lesson::concepts::parse(CONCEPTS).len());
    }

    #[test]
    fn any_text_as_a_query(q in "\\PC{0,200}") {
        decodes_within_bounds::<herd::HerdParams>(&q)?;
        decodes_within_bounds::<storm::StormParams>(&q)?;
        decodes_within_bounds::<idempotency::StoreParams>(&q)?;
        decodes_within_bounds::<degradation::DegradationParams>(&q)?;
    }

    #[test]
    fn herd_queries(q in query_for::<herd::HerdParams>()) {
        let p = decodes_within_bounds::<herd::HerdParams>(&q)?;
        let r = herd::simulate(&p);
        prop_assert_eq!(r.served + r.gave_up, p.clients);
    }

    /// Every scenario of the registry: any query gives values within bounds that
    /// survive the URL's round trip, and its run (its `Scenario::report`, as the
    /// command line calls it) answers without a panic, with lines to show and no figure that
    /// is not a number.
    #[test]
    fn every_scenario_takes_any_query(
        (i, q) in (0..sensei_lab::scenario::ALL.len())
            .prop_flat_map(|i| (Just(i), query_for_specs((sensei_lab::scenario::ALL[i].specs)())))
    ) {
        let s = &sensei_lab::scenario::ALL[i];
        let specs = (s.specs)();
        let (values, _notes) = params::values_from_query(specs, (s.defaults)(), &q);
        prop_assert!(params::out_of_range(specs, &values).is_empty(), "{}: {q:?} gave {values:?}", s.id);
        let again = params::values_to_query(specs, &values, &(s.defaults)());
        let (back, notes) = params::values_from_query(specs, (s.defaults)(), &again);
        prop_assert_eq!(&back, &values);
        prop_assert!(notes.is_empty());
        let run = sensei_lab::scenario::run(s.id, &values, &mut sensei_lab::cli::Ctx::new(&[], None)).unwrap();
        prop_assert!(!run.lines.is_empty() && run.lines.iter().all(|l| !l.trim().is_empty()), "{}: {q:?}", s.id);
        // No figure printed as «NaN» or «inf» (the JSON would show them as null, unseen);
        // a text the learner typed, echoed between «», may say anything.
        for line in run.lines.iter().chain(&run.notes) {
            let ours: String = line.split('«').enumerate().map(|(i, part)| if i == 0 { part } else { part.split_once('»').map_or("", |(_, rest)| rest) }).collect();
            prop_assert!(!ours.split(|c: char| !c.is_alphanumeric()).any(|w| w == "NaN" || w == "inf"), "{}: {q:?}: {line}", s.id);
        }
    }

    #[test]
    fn degradation_queries(b in query_for::<degradation::DegradationParams>()) {
        let d = decodes_within_bounds::<degradation::DegradationParams>(&b)?;
        let r = degradation::run(&d);
        prop_assert!(r.minutes.len() as u32 <= d.duration_min);
    }

    #[test]
    fn layers_queries(b in query_for::<retries::LayersParams>()) {
        let l = decodes_within_bounds::<retries::LayersParams>(&b)?;
        let r = retries::layers(&l);
        prop_assert!(r.reaching.iter().all(|x| x.is_finite() && *x >= 1.0));
    }
}
