//! The frame every widget sits in: a title with its badge, and its body.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WidgetFrameProps {
    /// The widget's id: the element is `#widget-<id>`.
    pub id: AttrValue,
    pub title: AttrValue,
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn WidgetFrame(props: &WidgetFrameProps) -> Html {
    html! {
        <figure class="widget" id={format!("widget-{}", props.id)} data-widget={props.id.clone()}>
            <figcaption class="widget-title">
                <span class="badge">{ "Simulación en vivo" }</span>
                { props.title.clone() }
            </figcaption>
            <div class="widget-grid">{ props.children.clone() }</div>
        </figure>
    }
}
