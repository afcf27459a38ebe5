//! Concept cards: `conceptos.md` in a lesson's folder, one card per
//! `## id`, with its term, the forms to link in the text, and its
//! definition; and [`find_terms`], which finds those forms in a text.
//!
//! ```
//! use sensei_lab::lesson::concepts::{cards, find_terms};
//! let cards = cards("timeouts-reintentos-idempotencia");
//! let found = find_terms(&cards, "Con jitter, los clientes se reparten.");
//! assert_eq!(found[0].2, "jitter");
//! ```

use super::registry::program_source;

#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub id: String,
    pub term: String,
    /// Forms of the term as they appear in the text (case-insensitive).
    pub forms: Vec<String>,
    pub definition: String,
}

/// Reads `conceptos.md`. Lines before the first `## ` (a comment) are ignored,
/// and so is a card without an id or a term.
pub fn parse(src: &str) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for line in src.lines() {
        let l = line.trim();
        if let Some(id) = l.strip_prefix("## ") {
            out.push(Card {
                id: id.trim().to_string(),
                term: String::new(),
                forms: Vec::new(),
                definition: String::new(),
            });
        } else if let Some(card) = out.last_mut() {
            if let Some(t) = l.strip_prefix("término:") {
                card.term = t.trim().to_string();
            } else if let Some(f) = l.strip_prefix("buscar:") {
                card.forms = f
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
            } else if !l.is_empty() {
                if !card.definition.is_empty() {
                    card.definition.push(' ');
                }
                card.definition.push_str(l);
            }
        }
    }
    // A card needs an id and a term (found by the fuzz test: a file cut in
    // the middle of a card left one with neither).
    out.retain(|c| !c.id.is_empty() && !c.term.is_empty());
    out
}

/// The cards of a lesson (none if it has no `conceptos.md`).
pub fn cards(slug: &str) -> Vec<Card> {
    program_source(slug, "conceptos.md").map(parse).unwrap_or_default()
}

fn is_word(c: char) -> bool {
    crate::text::is_alnum(c) || c == '-' || c == '_'
}

/// Every occurrence of a card's form in `text`, as `(start, end, card id)`
/// byte ranges, left to right, not overlapping; longer forms win ("llave
/// de idempotencia" over "idempotencia"). Whole words only.
pub fn find_terms<'a>(cards: &'a [Card], text: &str) -> Vec<(usize, usize, &'a str)> {
    let lower = crate::text::lower(text);
    if lower.len() != text.len() {
        return Vec::new(); // a case change moved the bytes: do not guess
    }
    let mut forms: Vec<(String, &str)> = cards
        .iter()
        .flat_map(|c| c.forms.iter().map(move |f| (crate::text::lower(f), c.id.as_str())))
        .collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.0.len()));
    let mut out: Vec<(usize, usize, &str)> = Vec::new();
    let mut i = 0;
    while i < lower.len() {
        if !lower.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let before_ok = lower[..i].chars().next_back().is_none_or(|c| !is_word(c));
        let hit = before_ok
            .then(|| {
                forms.iter().find(|(f, _)| {
                    lower[i..].starts_with(f.as_str())
                        && lower[i + f.len()..].chars().next().is_none_or(|c| !is_word(c))
                })
            })
            .flatten();
        match hit {
            Some((f, id)) => {
                out.push((i, i + f.len(), id));
                i += f.len();
            }
            None => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_concept_of_the_lesson_has_its_card() {
        let c = cards("timeouts-reintentos-idempotencia");
        // NOTES.md item 7: the concepts the lesson introduces.
        let ids = [
            "timeout",
            "deadline",
            "trabajo-zombi",
            "reintento",
            "falla-pasajera",
            "backoff-exponencial",
            "jitter",
            "retry-after",
            "tormenta-de-reintentos",
            "presupuesto-de-reintentos",
            "idempotencia",
            "llave-de-idempotencia",
            "circuit-breaker",
            "load-shedding",
            "backpressure",
            "degradacion",
            "fail-open-fail-closed",
            "hedging",
        ];
        assert_eq!(c.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ids);
        for card in &c {
            assert!(
                !card.term.is_empty() && !card.forms.is_empty() && card.definition.len() > 60,
                "{}",
                card.id
            );
        }
    }

    #[test]
    fn longest_form_whole_words() {
        let c = cards("timeouts-reintentos-idempotencia");
        let t = "Una llave de idempotencia no es idempotencia; los timeouts y el timeoutazo.";
        let found: Vec<&str> = find_terms(&c, t).iter().map(|f| f.2).collect();
        assert_eq!(found, ["llave-de-idempotencia", "idempotencia", "timeout"]);
        let f = find_terms(&c, "El Retry-After dice cuándo.");
        assert_eq!(&"El Retry-After dice cuándo."[f[0].0..f[0].1], "Retry-After");
    }
}
