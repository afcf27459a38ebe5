//! The frame every widget sits in: a title with its badge, and its body.

use crate::ui::pages::embed_code::EmbedCode;
use crate::ui::route::Piece;
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
    html! {
        <figure class={classes!("widget", (!props.layout.is_empty()).then(|| props.layout.to_string()))} id={format!("widget-{}", props.id)} data-widget={props.id.clone()}>
            <figcaption class="widget-title">
                <span class="badge">{ badge(&props.id) }</span>
                { crate::lesson::widget_name(&props.id).unwrap_or_default() }{ props.subtitle.clone() }
                <EmbedCode piece={Piece::Widget(props.id.to_string())} />
            </figcaption>
            { props.top.clone() }
            <div class="widget-grid">{ props.children.clone() }</div>
        </figure>
    }
}
