//! The player under a scenario's chart: ▶/⏸, a step back and forward, the
//! speed, a time slider that can be dragged both ways, and «Reiniciar».
//!
//! It owns only the clock: while playing it asks for a frame at each of the
//! browser's animation frames (`on_frame`, the moment not kept), and a
//! moment is kept (`on_keep`: the URL's `t-ms`, whole ms) when it pauses, on
//! a step, when the slider is let go, at the end. What a moment shows is the
//! widget's, from its trace ([`crate::sim::playback`]): the same `t`, the
//! same frame, however it was reached. Nothing plays by itself.
//!
//! (Moments are written and read as whole numbers: `f64`'s own formatting and
//! parsing would add ≈ 25 KB to the download.)
//!
//! Keys, with the focus on the player: space plays and pauses, ← and → step,
//! Home and End go to the start and the end.

pub use crate::sim::playback::say;
use crate::sim::playback::{advance, snap, Playback, SPEEDS};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

/// A trace as the player holds it (compared by identity: a new run, a new trace).
#[derive(Clone)]
pub struct Run(pub Rc<dyn Playback>);

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct PlayerProps {
    /// The widget's id: the player's elements are `#<id>-play`, `#<id>-time`…
    pub id: AttrValue,
    pub run: Run,
    /// The moment shown; `None` at the end, where a widget opens.
    pub t_ms: Option<f64>,
    /// A moment to show while playing or dragging (not kept).
    pub on_frame: Callback<f64>,
    /// A moment to keep (whole ms).
    pub on_keep: Callback<f64>,
    /// How a moment is said.
    #[prop_or_default]
    pub said: Said,
    /// What the widget adds to the player's controls (an injection, a pin).
    #[prop_or_default]
    pub children: Html,
    /// The moment and its figures in words, for screen readers: announced
    /// when the player stops on a moment (a pause, a step, the slider let
    /// go), never frame by frame while it plays.
    #[prop_or_default]
    pub announce: Option<AttrValue>,
}

/// How a player says its moments.
#[derive(Clone, Copy, Default, PartialEq)]
pub enum Said {
    /// In ms, or s past 10 s, from the start («350 ms», «12.5 s»).
    #[default]
    Ms,
    /// On the breaker's clock («12:00:05»), the run starting this many s from 12:00:00.
    Clock { start_s: f64 },
    /// In lines of a table, a line a second of the player's time (the idempotency store's script).
    Lines,
}

impl Said {
    pub fn say(self, t: f64) -> String {
        match self {
            Said::Ms => say(t),
            Said::Clock { start_s } => crate::sim::breaker::clock(start_s + t / 1000.0),
            Said::Lines => format!("línea {}", crate::fmt::es_int((t / 1000.0).floor() as i64)),
        }
    }

    /// A moment in a run that ends at `end`, in one unit however it plays:
    /// «350 ms de 1,410 ms», «7.833 s de 40 s», «línea 3 de 6».
    pub fn of(self, t: f64, end: f64) -> String {
        match self {
            Said::Lines => format!(
                "{} de {}",
                self.say(t),
                crate::fmt::es_int((end / 1000.0).floor() as i64)
            ),
            Said::Ms => crate::sim::playback::say_of(t, end),
            Said::Clock { .. } => format!("{} de {}", self.say(t), self.say(end)),
        }
    }

    /// The time slider's step, in the player's ms: a whole line for a script.
    fn step(self) -> &'static str {
        match self {
            Said::Lines => "1000",
            _ => "1",
        }
    }
}

#[component]
pub fn Player(props: &PlayerProps) -> Html {
    let run = props.run.0.clone();
    let end = run.end_ms();
    let t = props.t_ms.unwrap_or(end).clamp(0.0, end);
    let playing = use_state_eq(|| false);
    let speed = use_state_eq(|| 2usize); // 1×
                                         // The clock's own moment while playing (the props lag a frame behind).
    let clock = use_mut_ref(|| t);
    if !*playing {
        *clock.borrow_mut() = t;
    }
    // The animation: one frame after another while playing. Stopped (paused,
    // another speed or run, the widget gone), the pending frame is cancelled
    // and its closure dropped at once.
    {
        let (run, clock, on_frame, on_keep, playing_h) = (
            run.clone(),
            clock.clone(),
            props.on_frame.clone(),
            props.on_keep.clone(),
            playing.clone(),
        );
        let factor = SPEEDS[*speed].0;
        use_effect_with((*playing, *speed, props.run.clone()), move |(on, _, _)| {
            type Frame = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;
            let frame: Frame = Rc::default();
            let pending = Rc::new(Cell::new(None::<i32>));
            let request = {
                let pending = pending.clone();
                move |cb: &Closure<dyn FnMut(f64)>| {
                    let w = web_sys::window();
                    pending.set(w.and_then(|w| w.request_animation_frame(cb.as_ref().unchecked_ref()).ok()));
                }
            };
            if *on {
                let (again, request2) = (frame.clone(), request.clone());
                let last = Cell::new(None::<f64>);
                *frame.borrow_mut() = Some(Closure::new(move |now: f64| {
                    let dt = last.get().map_or(0.0, |l| now - l);
                    last.set(Some(now));
                    let t = advance(&*run, *clock.borrow(), dt, factor);
                    *clock.borrow_mut() = t;
                    if t >= run.end_ms() {
                        on_keep.emit(snap(t, run.end_ms()));
                        playing_h.set(false);
                    } else {
                        on_frame.emit(t);
                        if let Some(cb) = again.borrow().as_ref() {
                            request2(cb);
                        }
                    }
                }));
                if let Some(cb) = frame.borrow().as_ref() {
                    request(cb);
                }
            }
            move || {
                if let (Some(id), Some(w)) = (pending.take(), web_sys::window()) {
                    let _ = w.cancel_animation_frame(id);
                }
                frame.borrow_mut().take();
            }
        });
    }
    // A committed prediction (a task of the widget's) plays the run from its start.
    {
        let asked = use_context::<crate::ui::widgets::task_scope::TaskCtx>().map_or(0, |c| c.play);
        let seen = use_mut_ref(|| asked);
        let (playing, clock) = (playing.clone(), clock.clone());
        use_effect_with(asked, move |asked| {
            if std::mem::replace(&mut *seen.borrow_mut(), *asked) != *asked {
                *clock.borrow_mut() = 0.0;
                playing.set(true);
            }
        });
    }
    let keep = {
        let (on_keep, playing) = (props.on_keep.clone(), playing.clone());
        move |t: f64| {
            playing.set(false);
            on_keep.emit(snap(t, end));
        }
    };
    let toggle = {
        let (playing, on_keep, clock) = (playing.clone(), props.on_keep.clone(), clock.clone());
        Callback::from(move |_: MouseEvent| {
            if *playing {
                playing.set(false);
                on_keep.emit(snap(*clock.borrow(), end));
            } else {
                // At the end, ▶ plays the run again from its start.
                if *clock.borrow() >= end {
                    *clock.borrow_mut() = 0.0;
                    on_keep.emit(0.0);
                }
                playing.set(true);
            }
        })
    };
    let step = |forward: bool| {
        let (run, keep, clock) = (run.clone(), keep.clone(), clock.clone());
        Callback::from(move |_: MouseEvent| {
            let now = *clock.borrow();
            keep(if forward {
                run.next_stop(now)
            } else {
                run.prev_stop(now)
            })
        })
    };
    let restart = {
        let keep = keep.clone();
        Callback::from(move |_: MouseEvent| keep(0.0))
    };
    let on_slide = {
        let (on_frame, playing) = (props.on_frame.clone(), playing.clone());
        Callback::from(move |e: InputEvent| {
            playing.set(false);
            if let Ok(v) = e.target_unchecked_into::<HtmlInputElement>().value().parse::<i64>() {
                on_frame.emit(v as f64);
            }
        })
    };
    let on_let_go = {
        let keep = keep.clone();
        Callback::from(move |e: Event| {
            if let Ok(v) = e.target_unchecked_into::<HtmlInputElement>().value().parse::<i64>() {
                keep(v as f64);
            }
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            if let Ok(i) = e.target_unchecked_into::<HtmlSelectElement>().value().parse::<usize>() {
                speed.set(i.min(SPEEDS.len() - 1));
            }
        })
    };
    let on_key = {
        let (run, keep, toggle, clock) = (run.clone(), keep.clone(), toggle.clone(), clock.clone());
        Callback::from(move |e: KeyboardEvent| {
            // Not on the slider or the speed list: their keys are their own.
            let on_slider = e.target().is_some_and(|t| {
                t.dyn_ref::<HtmlInputElement>().is_some() || t.dyn_ref::<HtmlSelectElement>().is_some()
            });
            let now = *clock.borrow();
            match e.key().as_str() {
                " " if !on_slider => {
                    e.prevent_default();
                    if let Ok(m) = MouseEvent::new("click") {
                        toggle.emit(m);
                    }
                }
                "ArrowRight" if !on_slider => {
                    e.prevent_default();
                    keep(run.next_stop(now));
                }
                "ArrowLeft" if !on_slider => {
                    e.prevent_default();
                    keep(run.prev_stop(now));
                }
                "Home" if !on_slider => {
                    e.prevent_default();
                    keep(0.0);
                }
                "End" if !on_slider => {
                    e.prevent_default();
                    keep(end);
                }
                _ => {}
            }
        })
    };
    let id = &props.id;
    let moment = props.said.of(t, end);
    html! {
        <div class="player" role="group" aria-label="Reproducir la corrida" onkeydown={on_key} data-t-ms={(snap(t, end) as i64).to_string()} data-playing={playing.to_string()}>
            <button type="button" id={format!("{id}-play")} class="play" onclick={toggle}
                aria-label={if *playing { "Pausa" } else { "Reproducir" }}>{ if *playing { "❚❚" } else { "▶" } }</button>
            <button type="button" id={format!("{id}-back")} class="step" onclick={step(false)} aria-label="Un paso atrás">{ "◁" }</button>
            <button type="button" id={format!("{id}-step")} class="step" onclick={step(true)} aria-label="Un paso adelante">{ "▷" }</button>
            <input type="range" id={format!("{id}-time")} class="scrubber" min="0" max={(end.ceil() as i64).to_string()} step={props.said.step()}
                value={(t.round() as i64).to_string()} aria-label="Momento de la corrida" aria-valuetext={moment.clone()}
                oninput={on_slide} onchange={on_let_go} />
            <output class="moment" for={format!("{id}-time")}>{ moment }</output>
            <label class="speed">
                <select id={format!("{id}-speed")} onchange={on_speed} aria-label="Velocidad">
                    { for SPEEDS.iter().enumerate().map(|(i, (_, l))| html! { <option value={i.to_string()} selected={i == *speed}>{ *l }</option> }) }
                </select>
            </label>
            <button type="button" id={format!("{id}-restart")} class="restart" onclick={restart}>{ "Reiniciar" }</button>
            { props.children.clone() }
            <p class="visually-hidden" aria-live="polite" aria-atomic="true">
                { if *playing { None } else { props.announce.clone() } }
            </p>
        </div>
    }
}
