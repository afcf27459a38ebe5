//! Islands: on a lesson's page only what moves wakes.
//!
//! A lesson page is long text with a few dozen live pieces in it (the
//! widgets, the exercises, the table of contents' toggle, the terms that open
//! their cards, «Lo sabía», the progress). Hydrating the whole page as one
//! tree walks every paragraph on a phone's slow CPU before anything moves.
//! Instead each live piece is placed in the page by [`island_host::IslandHost`]:
//! an element `data-island="<key>"` (styled `display: contents`) whose one
//! child is an [`island_root::IslandRoot`], the piece with the contexts it
//! needs. The prerendered page has each root's hydratable markup in its
//! host, so the browser hydrates each piece alone into its host
//! (`yew::Renderer::with_root_and_props`), those near the screen first, the
//! others one per idle moment (`wake`, browser only), and never walks the
//! text. The cost of waking a page is its pieces', not its text's.
//!
//! In a tree the app renders (any page after the first, a piece's page) the
//! same hosts and roots are ordinary components under the app: one tree, the
//! same markup.

pub mod code;
pub mod island_host;
pub mod island_root;
#[cfg(target_arch = "wasm32")]
pub mod wake;

/// A piece of a lesson page that wakes on its own.
#[derive(Clone, Debug, PartialEq)]
pub enum IslandPiece {
    /// A widget, by its id.
    Widget(String),
    /// An exercise, by its number.
    Exercise(u32),
    /// «Lo sabía / No lo sabía» under review question `n`.
    Knew(u32),
    /// The summary of the learner's progress.
    Progress,
    /// The table of contents, with the active section.
    Toc(Option<String>),
    /// A section's «Insertar».
    Embed(String),
    /// A concept named in the text: its card's id and the words as written.
    Term { card: String, text: String },
}

/// The attribute of a host that names its piece ([`IslandPiece::key`]).
pub const KEY: &str = "data-island";
/// The attribute of a host that names its lesson.
pub const LESSON: &str = "data-lesson";
/// The attribute a host gets once its piece is awake.
pub const AWAKE: &str = "data-awake";

impl IslandPiece {
    /// The piece as its host's `data-island` says it: `widget:herd`,
    /// `exercise:4`, `knew:2`, `progress`, `toc:` (`toc:<section>`),
    /// `embed:<section>`, `term:<card>:<words>`.
    pub fn key(&self) -> String {
        match self {
            IslandPiece::Widget(id) => format!("widget:{id}"),
            IslandPiece::Exercise(n) => format!("exercise:{n}"),
            IslandPiece::Knew(n) => format!("knew:{n}"),
            IslandPiece::Progress => "progress".into(),
            IslandPiece::Toc(active) => format!("toc:{}", active.as_deref().unwrap_or("")),
            IslandPiece::Embed(section) => format!("embed:{section}"),
            IslandPiece::Term { card, text } => format!("term:{card}:{text}"),
        }
    }

    /// The piece a host's `data-island` names ([`IslandPiece::key`]).
    pub fn from_key(key: &str) -> Option<IslandPiece> {
        let (kind, rest) = key.split_once(':').unwrap_or((key, ""));
        Some(match kind {
            "widget" if !rest.is_empty() => IslandPiece::Widget(rest.into()),
            "exercise" => IslandPiece::Exercise(rest.parse().ok()?),
            "knew" => IslandPiece::Knew(rest.parse().ok()?),
            "progress" => IslandPiece::Progress,
            "toc" => IslandPiece::Toc((!rest.is_empty()).then(|| rest.to_string())),
            "embed" if !rest.is_empty() => IslandPiece::Embed(rest.into()),
            "term" => {
                let (card, text) = rest.split_once(':')?;
                IslandPiece::Term {
                    card: card.into(),
                    text: text.into(),
                }
            }
            _ => return None,
        })
    }

    /// Whether waking it is a small matter (a button or two, no run of the
    /// core): several such wake in one idle moment.
    pub fn light(&self) -> bool {
        matches!(
            self,
            IslandPiece::Term { .. } | IslandPiece::Embed(_) | IslandPiece::Knew(_)
        )
    }

    /// Whether the host sits in running text (a `<span>`) rather than
    /// between blocks (a `<div>`).
    pub fn inline(&self) -> bool {
        matches!(self, IslandPiece::Term { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_reads_back_from_its_key() {
        let all = [
            IslandPiece::Widget("herd".into()),
            IslandPiece::Exercise(4),
            IslandPiece::Knew(2),
            IslandPiece::Progress,
            IslandPiece::Toc(None),
            IslandPiece::Toc(Some("la-manada".into())),
            IslandPiece::Embed("reintentos".into()),
            IslandPiece::Term {
                card: "jitter".into(),
                text: "jitter: con dos puntos".into(),
            },
        ];
        for p in all {
            assert_eq!(IslandPiece::from_key(&p.key()), Some(p.clone()), "{}", p.key());
        }
        for bad in ["", "widget:", "exercise:x", "term:sin-texto", "nada:1", "embed:"] {
            assert_eq!(IslandPiece::from_key(bad), None, "{bad}");
        }
    }
}
