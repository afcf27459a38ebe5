//! The moment a widget shows while its run is played: the kept one (its
//! `t-ms` parameter, in the URL) or, while playing or dragging, a live one
//! that is not kept. The player ([`crate::ui::widgets::player`]) sends both.

use crate::sim::params::Value;
use crate::sim::playback::Playback;
use crate::sim::playback::{kept_in, past_end_note, shown, MOMENT_KEY};
use crate::ui::hooks::use_params::ValuesState;
use crate::ui::widgets::player::Run;
use yew::prelude::*;

/// What a played widget needs of its moment.
pub struct Moment {
    /// The moment shown (within the run); `None` at the end, where a widget opens.
    pub t: Option<f64>,
    /// A moment while playing or dragging (not kept).
    pub on_frame: Callback<f64>,
    /// A moment to keep (whole ms): the parameter, in the URL.
    pub on_keep: Callback<f64>,
}

/// The moment of a run that ends at `end` ms, `kept` being the widget's
/// `t-ms` parameter.
#[hook]
pub fn use_moment(state: &ValuesState, kept: Option<u32>, end: f64) -> Moment {
    use_moment_in(state, MOMENT_KEY, 1.0, kept, end)
}

/// The same, the moment kept as the parameter `key` in units of `unit` ms
/// (the idempotency store's `line`: a line a step, 1,000 of the player's ms).
#[hook]
pub fn use_moment_in(state: &ValuesState, key: &'static str, unit: f64, kept: Option<u32>, end: f64) -> Moment {
    let live = use_state_eq(|| None::<f64>);
    let t = shown(*live, kept, unit, end);
    // The kept moment arrives a task later (`use_params` applies changes in
    // their own task): until it has, the moment kept is shown as the live
    // one, not the one kept before (a paused store showed its line 0 for a
    // frame). Once the parameter changes, it is what is shown.
    {
        let live = live.clone();
        use_effect_with(kept, move |_| live.set(None));
    }
    let on_frame = {
        let live = live.clone();
        Callback::from(move |t: f64| live.set(Some(t)))
    };
    let on_keep = {
        let (live, set) = (live.clone(), state.setter(key));
        Callback::from(move |t: f64| {
            let whole = kept_in(t, unit);
            live.set(Some(whole as f64 * unit));
            set.emit(Value::Int(whole));
        })
    };
    Moment { t, on_frame, on_keep }
}

/// The note a link's moment past the run's end gets (`said` turns a moment
/// into words, as the player says it).
pub fn past_end(kept: Option<u32>, end: f64, said: impl Fn(f64) -> String) -> Html {
    match kept.filter(|t| *t as f64 > end) {
        Some(t) => html! {
            <ul class="notes" role="status"><li>{ crate::text::upper_first(&past_end_note(&said(t as f64), &said(end))) }{ "." }</li></ul>
        },
        None => Html::default(),
    }
}

/// A played widget's run and its player's part, as every played widget opens:
/// the run memoised on its parameters without the moment, its span as the
/// player's [`Run`], the end, and the moment ([`use_moment`]).
pub struct Played<R> {
    pub run: std::rc::Rc<R>,
    pub span: Run,
    pub end: f64,
    pub moment: Moment,
}

/// [`Played`] for parameters `run_p` (the moment left out: the run does not
/// depend on it), `kept` the `t-ms` parameter.
#[hook]
pub fn use_played<P, R, S>(
    state: &ValuesState,
    run_p: &P,
    kept: Option<u32>,
    simulate: fn(&P) -> R,
    span: fn(&R, &P) -> S,
) -> Played<R>
where
    P: PartialEq + Clone + 'static,
    R: 'static,
    S: Playback + 'static,
{
    let run = use_memo(run_p.clone(), simulate);
    let played_span = {
        let r = run.clone();
        use_memo(run_p.clone(), move |p| {
            Run(std::rc::Rc::new(span(&r, p)) as std::rc::Rc<dyn Playback>)
        })
    };
    let end = played_span.0.end_ms();
    let moment = use_moment(state, kept, end);
    Played {
        run,
        span: (*played_span).clone(),
        end,
        moment,
    }
}
