//! The frame every widget sits in: a title with its badge, and its body.

use crate::ui::pages::embed_code::EmbedCode;
use crate::ui::route::Piece;
use crate::ui::widgets::task_box::TaskBox;
use crate::ui::widgets::task_scope::TaskCtx;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WidgetFrameProps {
    /// The widget's id: the element is `#widget-<id>`.
    pub id: AttrValue,
    /// What follows the widget's name ([`crate::lesson::widget_name`]) in
    /// its title: «: mil clientes que fallan juntos».
    #[prop_or_default]
    pub subtitle: AttrValue,
    /// `stacked`: the controls above the results, both full width (for wide tables).
    #[prop_or_default]
    pub layout: AttrValue,
    /// What goes above the controls and the results, full width (a widget's presets).
    #[prop_or_default]
    pub top: Html,
    #[prop_or_default]
    pub children: Html,
}

/// What the badge says: a widget that plays a simulation, or one that works
/// its figures out in closed form (the clocks, the chain, the layers' product,
/// a failure's reading, what fails open or closed).
fn badge(id: &str) -> &'static str {
    match id {
        "clocks" | "chain" | "layers" | "failure" | "failmode" => "Cálculo en vivo",
        _ => "Simulación en vivo",
    }
}

#[component]
pub fn WidgetFrame(props: &WidgetFrameProps) -> Html {
    let tasks = use_context::<TaskCtx>();
    let veiled = tasks.as_ref().is_some_and(|t| t.veiled.is_some());
    let count = tasks.as_ref().map_or(0, |t| t.tasks.len());
    // The widget's state now (its `use_params` ran before this frame): a task's
    // verdict is of the state it checked.
    let query: AttrValue = tasks
        .as_ref()
        .and_then(|t| t.remote.borrow().as_ref().map(|s| s.query(s.values())))
        .unwrap_or_default()
        .into();
    html! {
        <figure class={classes!("widget", (!props.layout.is_empty()).then(|| props.layout.to_string()), veiled.then_some("veiled"))} id={format!("widget-{}", props.id)} data-widget={props.id.clone()}>
            <figcaption class="widget-title">
                <span class="badge">{ badge(&props.id) }</span>
                { crate::lesson::widget_name(&props.id).unwrap_or_default() }{ props.subtitle.clone() }
                <EmbedCode piece={Piece::Widget(props.id.to_string())} />
            </figcaption>
            { props.top.clone() }
            // While a prediction is pending its results are hidden (the style
            // sheet), and the whole widget out of reach: its controls stay in
            // sight, dimmed, saying what the question is about.
            <div class="widget-grid" inert={veiled}>{ props.children.clone() }</div>
            if count > 0 {
                <div class="tasks">{ for (0..count).map(|index| html! { <TaskBox {index} query={query.clone()} /> }) }</div>
            }
        </figure>
    }
}
