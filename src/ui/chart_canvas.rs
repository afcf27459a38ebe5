//! A `<canvas>` that draws any [`Chart`] (through `canvas_backend`) whenever the
//! chart or the canvas's width changes. The drawing is in [`crate::chart`].

use super::canvas_backend::Canvas;
use crate::chart::Chart;
use plotters::prelude::IntoDrawingArea;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChartCanvasProps {
    pub chart: Rc<Chart>,
    /// Text alternative with the same data, for screen readers.
    pub label: AttrValue,
    /// Height in px on a wide screen (a phone gets ¾ of it).
    #[prop_or(340)]
    pub height: u32,
    /// What goes right under the chart, before its data table (e.g. a key).
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn ChartCanvas(props: &ChartCanvasProps) -> Html {
    let canvas = use_node_ref();
    let width = use_state(|| 0u32);
    {
        // Measure now and on every resize.
        let width = width.clone();
        let canvas = canvas.clone();
        use_effect_with((), move |_| {
            let measure = move || {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let w = c.parent_element().map(|p| p.client_width()).unwrap_or(640).max(280) as u32;
                    width.set(w);
                }
            };
            measure();
            let listener =
                web_sys::window().map(|w| gloo::events::EventListener::new(&w, "resize", move |_| measure()));
            move || drop(listener)
        });
    }
    {
        let canvas = canvas.clone();
        let height = props.height;
        use_effect_with((props.chart.clone(), *width), move |(chart, w)| {
            if *w == 0 {
                return;
            }
            let Some(el) = canvas.cast::<HtmlCanvasElement>() else {
                return;
            };
            let perf = web_sys::window().and_then(|w| w.performance());
            if let Some(p) = &perf {
                let _ = p.mark("chart-draw-start");
            }
            let h = if *w < 520 { height * 3 / 4 } else { height };
            // Resizing a canvas reallocates its pixels: only when the size changes
            // (each chart paints its whole background first anyway).
            if el.width() != *w || el.height() != h {
                el.set_width(*w);
                el.set_height(h);
            }
            if let Some(backend) = Canvas::new(el.clone()) {
                if let Err(e) = chart.draw(&backend.into_drawing_area()) {
                    web_sys::console::error_1(&format!("chart: {e}").into());
                }
            }
            // Lets the browser tests and benchmarks see each redraw.
            let n: u32 = el.get_attribute("data-draws").and_then(|v| v.parse().ok()).unwrap_or(0);
            let _ = el.set_attribute("data-draws", &(n + 1).to_string());
            if let Some(p) = &perf {
                let _ = p.mark("chart-drawn");
            }
        });
    }
    // The same data as a table, built only when the learner opens it.
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let table = if *open {
        let t = props.chart.data();
        html! {
            <table class="chart-table">
                <caption>{ t.caption }</caption>
                <thead><tr>{ for t.head.iter().map(|h| html! { <th scope="col">{ h }</th> }) }</tr></thead>
                <tbody>{ for t.rows.iter().map(|r| html! {
                    <tr>{ for r.iter().map(|c| html! { <td>{ c }</td> }) }</tr>
                }) }</tbody>
            </table>
        }
    } else {
        html! {}
    };
    html! {
        <>
            <div class="chart">
                <canvas ref={canvas} role="img" aria-label={props.label.clone()}></canvas>
            </div>
            { props.children.clone() }
            <details class="chart-data" open={*open}>
                <summary onclick={toggle.reform(|e: MouseEvent| { e.prevent_default(); e })}>{ "Ver los datos de la gráfica" }</summary>
                { table }
            </details>
        </>
    }
}
