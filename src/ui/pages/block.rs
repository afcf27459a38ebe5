//! A section's blocks: markdown, the lab's pieces placed by directives, and
//! containers such as a hidden solution.

use crate::exercise::check_directive;
use crate::lesson::{Block, Directive};
use crate::ui::islands::island_host::IslandHost;
use crate::ui::islands::IslandPiece;
use crate::ui::pages::code_listing::ProgramListing;
use crate::ui::pages::concept_cards::ConceptCards;
use crate::ui::pages::markdown::Markdown;
use crate::ui::tables::failures_table::FailuresTable;
use crate::ui::tables::inflight_table::InflightTable;
use crate::ui::tables::layers_table::LayersTable;
use crate::ui::tables::methods_table::MethodsTable;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BlocksProps {
    pub slug: String,
    pub blocks: Vec<Block>,
}

#[component]
pub fn Blocks(props: &BlocksProps) -> Html {
    html! { <>{ for props.blocks.iter().map(|b| block(&props.slug, b)) }</> }
}

fn block(slug: &str, b: &Block) -> Html {
    match b {
        Block::Markdown(text) => html! { <Markdown source={text.clone()} slug={slug.to_string()} /> },
        Block::Directive(d) => directive(slug, d),
        // The exercise as the core computes it (its text in the lesson is the same, by test).
        Block::Container { directive, .. } if directive.name == "exercise" => {
            if let Some(problem) = check_directive(slug, directive) {
                return html! { <p class="directive-error" role="note">{ format!("(No se pudo mostrar esta pieza: {problem}.)") }</p> };
            }
            let n = directive.get("n").and_then(|n| n.parse().ok()).unwrap_or(0);
            island(slug, IslandPiece::Exercise(n))
        }
        // A widget's task: shown in its widget's frame (`ui::widgets::task_box`).
        Block::Container { directive, .. } if directive.name == "task" => match check_directive(slug, directive) {
            Some(problem) => unplaceable(&problem),
            None => Html::default(),
        },
        Block::Container { directive, body } => {
            let summary = directive.get("summary").unwrap_or("Ver más").to_string();
            html! {
                <details class="reveal">
                    <summary>{ summary }</summary>
                    <div class="reveal-body"><Blocks slug={slug.to_string()} blocks={body.clone()} /></div>
                </details>
            }
        }
    }
}

fn directive(slug: &str, d: &Directive) -> Html {
    if let Some(problem) = check_directive(slug, d) {
        return unplaceable(&problem);
    }
    match (d.name.as_str(), d.get("id"), d.get("output")) {
        ("widget", Some(id), _) => match crate::scenario::ALL.iter().any(|s| s.id == id) {
            true => island(slug, IslandPiece::Widget(id.to_string())),
            false => unplaceable(&format!("este lab no tiene el widget «{id}»")),
        },
        ("table", Some("inflight"), _) => html! { <InflightTable /> },
        ("table", Some("layers"), _) => html! { <LayersTable /> },
        ("table", Some("failures"), _) => html! { <FailuresTable /> },
        ("table", Some("methods"), _) => html! { <MethodsTable /> },
        ("progress", _, _) => island(slug, IslandPiece::Progress),
        ("cards", _, _) => html! { <ConceptCards slug={slug.to_string()} /> },
        ("knew", _, _) => island(
            slug,
            IslandPiece::Knew(d.get("n").and_then(|n| n.parse().ok()).unwrap_or(0)),
        ),
        ("program", _, Some(output)) => html! {
            <ProgramListing slug={slug.to_string()} src={d.get("src").unwrap_or_default().to_string()} output={output.to_string()} />
        },
        (name, _, _) => unplaceable(&format!("«::{name}» no es una pieza que este lab dibuje")),
    }
}

macro_rules! dispatch {
    ($(($id:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
        /// The component of a registry's widget: made from the same list as
        /// [`crate::scenario::ALL`] ([`crate::registry!`]), so every id has one.
        /// (A build that loads a piece's code with it reaches them through
        /// `ui::islands::code` instead.)
        #[cfg_attr(all(target_arch = "wasm32", feature = "split"), allow(dead_code))]
        pub fn widget(id: &str) -> Option<Html> {
            $(
                if id == stringify!($id) {
                    use crate::ui::widgets::$w::$c as W;
                    use crate::ui::widgets::task_scope::TaskScope;
                    return Some(html! { <TaskScope figures={crate::exercise::task::Figures::of::<crate::sim::$m::$p>(stringify!($id))}><W /></TaskScope> });
                }
            )*
            None
        }
    };
}
crate::registry!(dispatch);

/// A live piece, placed to wake on its own (`ui::islands`).
fn island(slug: &str, piece: IslandPiece) -> Html {
    html! { <IslandHost slug={slug.to_string()} {piece} /> }
}

/// A lesson author's mistake: said in the page instead of hidden.
fn unplaceable(problem: &str) -> Html {
    html! { <p class="directive-error" role="note">{ format!("(No se pudo mostrar esta pieza: {problem}.)") }</p> }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_registered_widget_has_its_component() {
        for s in crate::scenario::ALL {
            assert!(super::widget(s.id).is_some(), "{}", s.id);
        }
        assert!(super::widget("nada").is_none());
    }
}
