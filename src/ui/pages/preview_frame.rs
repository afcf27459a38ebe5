//! A piece's preview on «Para docentes»: the embedded piece in an iframe,
//! loaded only when the instructor opens it (fifteen widgets and nine
//! exercises at once would load the lab two dozen times).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PreviewFrameProps {
    /// The embedded piece's address.
    pub src: AttrValue,
    /// The piece's name, for the iframe's title.
    pub name: AttrValue,
}

#[component]
pub fn PreviewFrame(props: &PreviewFrameProps) -> Html {
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <div class="preview">
            <button type="button" class="secondary preview-toggle" aria-expanded={open.to_string()} onclick={toggle}>
                { if *open { "Ocultar la vista previa" } else { "Vista previa" } }
            </button>
            if *open {
                <iframe class="preview-frame" src={props.src.clone()} title={format!("Vista previa: {}", props.name)}
                    loading="lazy" width="100%" height="560"></iframe>
            }
        </div>
    }
}
