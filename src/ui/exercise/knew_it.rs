//! «Lo sabía / no lo sabía» under a review question's answer, kept with
//! the student's progress.

use crate::ui::hooks::progress_store;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct KnewItProps {
    pub n: u32,
}

#[component]
pub fn KnewIt(props: &KnewItProps) -> Html {
    let n = props.n;
    // What the student marked before: read once the page is shown (a
    // prerendered page, which knows no student, is hydrated first).
    let knew = use_state(|| None::<bool>);
    {
        let knew = knew.clone();
        use_effect_with(n, move |n| knew.set(progress_store::load().0.review.get(n).copied()));
    }
    let notice = use_state(|| None::<String>);
    let set = |value: bool| {
        let knew = knew.clone();
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| {
            let (mut p, _) = progress_store::load();
            p.review.insert(n, value);
            notice.set(progress_store::save(&p).err());
            knew.set(Some(value));
        })
    };
    html! {
        <div class="knew-it" role="group" aria-label="¿Lo sabías?" data-review={n.to_string()}>
            <span>{ "¿Lo sabías?" }</span>
            <button type="button" aria-pressed={(*knew == Some(true)).to_string()} class={classes!((*knew == Some(true)).then_some("on"))} onclick={set(true)}>{ "Lo sabía" }</button>
            <button type="button" aria-pressed={(*knew == Some(false)).to_string()} class={classes!((*knew == Some(false)).then_some("on"))} onclick={set(false)}>{ "No lo sabía" }</button>
            if let Some(msg) = &*notice { <span class="aside">{ msg }</span> }
        </div>
    }
}
