//! A `<canvas>` that draws a chart with plotters-canvas whenever its data
//! or its width changes. The drawing itself is in [`crate::chart`].

use crate::chart::herd::{self, HerdChart};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HerdCanvasProps {
    pub chart: Rc<HerdChart>,
    /// Text alternative for screen readers.
    pub label: String,
}

#[component]
pub fn HerdCanvas(props: &HerdCanvasProps) -> Html {
    let canvas = use_node_ref();
    let width = use_state(|| 0u32);
    {
        // Redraw on resize.
        let width = width.clone();
        let canvas = canvas.clone();
        use_effect_with((), move |_| {
            let measure = move || {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let w = c
                        .parent_element()
                        .map(|p| p.client_width())
                        .unwrap_or(640)
                        .max(280) as u32;
                    width.set(w);
                }
            };
            measure();
            let listener = web_sys::window()
                .map(|w| gloo::events::EventListener::new(&w, "resize", move |_| measure()));
            move || drop(listener)
        });
    }
    {
        let canvas = canvas.clone();
        use_effect_with((props.chart.clone(), *width), move |(chart, w)| {
            if *w == 0 {
                return;
            }
            let Some(el) = canvas.cast::<HtmlCanvasElement>() else {
                return;
            };
            let height = if *w < 520 { 260 } else { 340 };
            el.set_width(*w);
            el.set_height(height);
            let perf = web_sys::window().and_then(|w| w.performance());
            if let Some(backend) = CanvasBackend::with_canvas_object(el.clone().unchecked_into()) {
                let root = backend.into_drawing_area();
                if let Err(e) = herd::draw(&root, chart) {
                    web_sys::console::error_1(&format!("chart: {e:?}").into());
                }
            }
            // Lets the browser tests and benchmarks see each redraw.
            let n: u32 = el
                .get_attribute("data-draws")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let _ = el.set_attribute("data-draws", &(n + 1).to_string());
            if let Some(p) = perf {
                let _ = p.mark("chart-drawn");
            }
        });
    }
    html! {
        <div class="chart">
            <canvas ref={canvas} role="img" aria-label={props.label.clone()}></canvas>
        </div>
    }
}
