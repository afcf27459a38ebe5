//! One control for one parameter, built from its [`Spec`]: a slider and a
//! number field for integers (a "sin tope" switch if it is optional), a
//! group of buttons for a choice, a text field for a text.

use crate::fmt::es_int;
use crate::sim::params::{slider_stops, Kind, Spec, Value};
use crate::ui::hooks::use_params::use_draft;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ParamControlProps {
    /// Prefix for element ids, unique per widget on the page.
    pub widget: AttrValue,
    pub spec: Spec,
    pub value: Value,
    /// Receives what the learner set, not yet clamped.
    pub on_change: Callback<Value>,
}

#[component]
pub fn ParamControl(props: &ParamControlProps) -> Html {
    let spec = props.spec;
    let id = format!("{}-{}", props.widget, spec.key);
    // The field's text and the slider's position, kept while the learner
    // types or drags (`use_draft`): a redraw for another reason must not wipe them.
    let (field_text, slider_at) = match (&spec.kind, &props.value) {
        (Kind::Text { .. }, Value::Text(t)) => (t.clone(), String::new()),
        (Kind::Int { min, max, .. }, v) => {
            let v = match v {
                Value::Int(v) => Some(*v),
                _ => None,
            };
            let at = slider_stops(*min, *max).map(|s| s.position(v.unwrap_or(*min)).to_string());
            (v.map(|v| v.to_string()).unwrap_or_default(), at.unwrap_or_default())
        }
        _ => (String::new(), String::new()),
    };
    let (field, field_text) = use_draft(field_text);
    let (slider_field, slider_at) = use_draft(slider_at);
    match spec.kind {
        Kind::Choice { options } => {
            let current = match &props.value {
                Value::Choice(c) => *c,
                _ => options[0].0,
            };
            html! {
                <fieldset class="control choice">
                    <legend>{ spec.label }</legend>
                    <div class="segmented">
                        { for options.iter().map(|(key, label)| {
                            let on_change = props.on_change.clone();
                            let key_s: &'static str = key;
                            let onchange = Callback::from(move |_: Event| on_change.emit(Value::Choice(key_s)));
                            html! {
                                <label class={classes!("segment", (current == *key).then_some("checked"))}>
                                    <input type="radio" name={id.clone()} value={*key} checked={current == *key} {onchange} />
                                    <span>{ *label }</span>
                                </label>
                            }
                        }) }
                    </div>
                </fieldset>
            }
        }
        Kind::Text { max_chars } => {
            let on_change = props.on_change.clone();
            let oninput = Callback::from(move |e: InputEvent| {
                let input: HtmlInputElement = e.target_unchecked_into();
                on_change.emit(Value::Text(input.value()));
            });
            html! {
                <label class="control text">
                    <span class="control-head">{ spec.label }</span>
                    <input id={id} ref={field} type="text" class="number wide" maxlength={max_chars.to_string()} value={field_text} {oninput} />
                </label>
            }
        }
        Kind::Events { options, .. } => events_control(&id, spec, options, &props.value, &props.on_change),
        Kind::Int { min, max, optional } => {
            let value = match &props.value {
                Value::Int(v) => Some(*v),
                _ => None,
            };
            let shown = value.unwrap_or(min);
            let number_change = {
                let on_change = props.on_change.clone();
                Callback::from(move |e: Event| {
                    let input: HtmlInputElement = e.target_unchecked_into();
                    let v = spec.parse(&input.value()).unwrap_or(Value::Int(shown));
                    // An emptied field means "none" only for optional parameters.
                    let v = if v == Value::Unset && !optional {
                        Value::Int(shown)
                    } else {
                        v
                    };
                    on_change.emit(v);
                })
            };
            let readout = match value {
                Some(v) if spec.unit.is_empty() => es_int(v),
                Some(v) => format!("{} {}", es_int(v), spec.unit),
                None => spec.unset.to_string(),
            };
            // One stop per arrow key: every value, or round values on a wide
            // range (sim::params::slider_stops); the value said in words.
            let slider = slider_stops(min, max).map(|stops| {
                let (smin, smax) = stops.range();
                let on_change = props.on_change.clone();
                let oninput = Callback::from(move |e: InputEvent| {
                    let input: HtmlInputElement = e.target_unchecked_into();
                    if let Ok(p) = input.value().parse::<i64>() {
                        on_change.emit(Value::Int(stops.value(p)));
                    }
                });
                html! {
                    <input type="range" class="slider" aria-label={spec.label} aria-valuetext={readout.clone()}
                        min={smin.to_string()} max={smax.to_string()} step="1"
                        value={slider_at.clone()} ref={slider_field.clone()} disabled={value.is_none()} {oninput} />
                }
            });
            let toggle = optional.then(|| {
                let on_change = props.on_change.clone();
                let onchange = Callback::from(move |e: Event| {
                    let input: HtmlInputElement = e.target_unchecked_into();
                    on_change.emit(if input.checked() { Value::Int(1000.clamp(min, max)) } else { Value::Unset });
                });
                html! {
                    <label class="toggle"><input type="checkbox" checked={value.is_some()} {onchange} />{ " " }{ spec.toggle }</label>
                }
            });
            html! {
                <div class="control int">
                    <div class="control-head">
                        <label for={id.clone()}>{ spec.label }</label>
                        <output for={id.clone()} class="readout">{ readout }</output>
                    </div>
                    <div class="control-body">
                        { toggle }
                        { slider }
                        // Greyed while unset: the readout above says what that means
                        // («sin presupuesto»), which a 6-character field would cut.
                        <input id={id.clone()} ref={field} type="number" inputmode="numeric" class="number" min={min.to_string()} max={max.to_string()}
                            value={field_text} disabled={value.is_none()}
                            placeholder="—" onchange={number_change} />
                    </div>
                </div>
            }
        }
    }
}

/// What was injected while playing (a [`Kind::Events`] parameter), one line
/// each, and a way to take it back.
fn events_control(
    id: &str,
    spec: Spec,
    options: &'static [(&'static str, &'static str)],
    value: &Value,
    on_change: &Callback<Value>,
) -> Html {
    // What was injected while playing, one line each, and a way to take it back.
    let read = crate::sim::params::read_events(
        spec.kind,
        match value {
            Value::Text(t) => t,
            _ => "",
        },
    );
    if read.events.is_empty() {
        return Html::default();
    }
    let said = |e: &crate::sim::params::Event| {
        let what = options.iter().find(|(k, _)| *k == e.key).map_or("", |(_, l)| *l);
        match e.for_ms {
            0 => format!("a los {} ms: {what}", es_int(e.at_ms as i64)),
            f => format!(
                "a los {} ms: {what}, durante {} ms",
                es_int(e.at_ms as i64),
                es_int(f as i64)
            ),
        }
    };
    let drop_last = {
        let (on_change, events) = (on_change.clone(), read.events.clone());
        Callback::from(move |_: MouseEvent| {
            let kept = &events[..events.len() - 1];
            on_change.emit(Value::Text(crate::sim::params::write_events(kept)));
        })
    };
    let drop_all = {
        let on_change = on_change.clone();
        Callback::from(move |_: MouseEvent| on_change.emit(Value::Text(String::new())))
    };
    html! {
        <div class="control events" id={id.to_string()}>
            <span class="control-head">{ spec.label }</span>
            <ol class="injected">
                { for read.events.iter().map(|e| html! { <li>{ said(e) }</li> }) }
            </ol>
            <div class="control-body">
                <button type="button" class="reset" onclick={drop_last}>{ "Quitar la última" }</button>
                if read.events.len() > 1 {
                    <button type="button" class="reset" onclick={drop_all}>{ "Quitar todas" }</button>
                }
            </div>
        </div>
    }
}
