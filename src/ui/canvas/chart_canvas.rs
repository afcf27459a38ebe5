//! A `<canvas>` that draws any chart (through `canvas_backend`) whenever the
//! chart, the canvas's size or the screen's pixel ratio changes. The drawing is in [`crate::chart`].
//!
//! The component is one, whatever the chart ([`Drawing`]): a widget hands it
//! its own kind of chart ([`plot`]), so the widget's code holds the drawing
//! of its charts and no other's, and the component's is not copied per kind.

use crate::chart::data::DataTable;
use crate::chart::Plot;
use crate::ui::canvas::canvas_backend::Canvas;
use gloo::events::EventListener;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use plotters::prelude::IntoDrawingArea;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// A chart of any kind, as the canvas uses it.
pub trait Drawn {
    /// Draws it on the canvas.
    fn draw_on(&self, root: &DrawingArea<Canvas, Shift>) -> Result<(), String>;
    /// Its data, as a table.
    fn table(&self) -> DataTable;
    /// Whether `other` is the same chart with the same data.
    fn same(&self, other: &dyn Drawn) -> bool;
    fn as_any(&self) -> &dyn Any;
    /// Natively (prerendering): the chart as SVG ([`Plot::svg`]).
    #[cfg(not(target_arch = "wasm32"))]
    fn svg_of(&self, width: u32, height: u32, class: &str) -> String;
}

impl<C: Plot> Drawn for C {
    fn draw_on(&self, root: &DrawingArea<Canvas, Shift>) -> Result<(), String> {
        self.draw(root).map_err(|e| e.to_string())
    }
    fn table(&self) -> DataTable {
        self.data()
    }
    fn same(&self, other: &dyn Drawn) -> bool {
        other.as_any().downcast_ref::<C>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn svg_of(&self, width: u32, height: u32, class: &str) -> String {
        self.svg(width, height, class)
    }
}

/// The chart a canvas draws: equal when it is the same one, or one of the
/// same kind with the same data.
#[derive(Clone)]
pub struct Drawing(Rc<dyn Drawn>);

impl PartialEq for Drawing {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0) || self.0.same(&*o.0)
    }
}

/// A widget's chart, for its canvas.
pub fn plot<C: Plot>(chart: Rc<C>) -> Drawing {
    Drawing(chart)
}

#[derive(Properties, PartialEq)]
pub struct ChartCanvasProps {
    /// The chart ([`plot`]).
    pub chart: Drawing,
    /// Text alternative with the same data, for screen readers.
    pub label: AttrValue,
    /// Height in CSS px on a wide chart (a narrow one gets ¾ of it): one of
    /// the heights `static/style.css` lists for `.chart[data-h]`.
    #[prop_or(340)]
    pub height: u32,
    /// What goes right under the chart, before its data table (e.g. a key).
    #[prop_or_default]
    pub children: Html,
}

/// A canvas's size in CSS pixels and the screen's device pixels per CSS pixel.
#[derive(Clone, Copy, PartialEq, Default)]
struct Size {
    width: u32,
    height: u32,
    ratio: f64,
}

/// The canvas's size as laid out by the style sheet (its height is set there,
/// by the chart's `data-h` and the width of its box), and the screen's ratio.
fn measure(canvas: &HtmlCanvasElement) -> Size {
    let ratio = web_sys::window().map(|w| w.device_pixel_ratio()).unwrap_or(1.0);
    Size {
        width: canvas.client_width().max(1) as u32,
        height: canvas.client_height().max(1) as u32,
        ratio,
    }
}

/// Watches the canvas's box (`ResizeObserver`: the column narrows, the page
/// is zoomed, a font loads) and the screen's ratio (a window moved to another
/// screen, zoom), and sets `size` when either changes.
#[hook]
fn use_canvas_size(canvas: NodeRef) -> UseStateHandle<Size> {
    // Set on every observation; the component renders only when it changed.
    let size = use_state_eq(Size::default);
    {
        let size = size.clone();
        use_effect_with((), move |_| {
            let update = {
                let canvas = canvas.clone();
                let size = size.clone();
                move || {
                    if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                        size.set(measure(&c));
                    }
                }
            };
            update();
            let on_resize = Closure::<dyn FnMut()>::new(update.clone());
            let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(c)) = (&observer, canvas.get()) {
                o.observe(&c.unchecked_into());
            }
            // The ratio: a media query that stops matching when it changes.
            let ratio_watch: Rc<RefCell<Option<EventListener>>> = Rc::default();
            fn watch(slot: Rc<RefCell<Option<EventListener>>>, update: Rc<dyn Fn()>) {
                let Some(w) = web_sys::window() else { return };
                if let Ok(Some(mq)) = w.match_media(&format!("(resolution: {}dppx)", w.device_pixel_ratio())) {
                    let again = slot.clone();
                    let listener = EventListener::once(&mq, "change", move |_| {
                        update();
                        watch(again, update);
                    });
                    *slot.borrow_mut() = Some(listener);
                }
            }
            watch(ratio_watch.clone(), Rc::new(update));
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(on_resize);
                ratio_watch.borrow_mut().take();
            }
        });
    }
    size
}

/// The chart as the page first shows it, before the canvas draws: natively
/// (prerendering), the chart as SVG at the two boxes of `chart::boxes`, which
/// the style sheet picks by the chart's width; in the browser, nothing new:
/// hydration keeps what the prerendered page holds in the same place (a raw
/// node claims whatever the page has between its marks), and a page the
/// browser renders itself has none.
fn prerendered(chart: &dyn Drawn, height: u32) -> Html {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use crate::chart::boxes::{NARROW, WIDE};
        let svg = format!(
            "{}{}",
            chart.svg_of(NARROW, height, "pre narrow"),
            chart.svg_of(WIDE, height, "pre wide")
        );
        Html::from_html_unchecked(svg.into())
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (chart, height);
        Html::from_html_unchecked(AttrValue::Static(""))
    }
}

#[component]
pub fn ChartCanvas(props: &ChartCanvasProps) -> Html {
    // The prerendered picture stays (hidden by the style sheet once the canvas
    // has drawn, and printed instead of it: sharp on paper) while the chart
    // is the one the page was built with; the first change takes it away.
    let first = use_mut_ref(|| Some(props.chart.clone()));
    let fresh = {
        let mut first = first.borrow_mut();
        if first.as_ref().is_some_and(|c| *c != props.chart) {
            *first = None;
        }
        first.is_some()
    };
    // What the chart shows, as a fingerprint (tests compare the page's with the app's).
    let sum = use_memo(props.chart.clone(), |c| c.0.table().fingerprint());
    let picture = if fresh {
        prerendered(&*props.chart.0, props.height)
    } else {
        html! {}
    };
    let canvas = use_node_ref();
    let size = use_canvas_size(canvas.clone());
    {
        let canvas = canvas.clone();
        use_effect_with((props.chart.clone(), *size), move |(chart, size)| {
            if size.width <= 1 {
                return;
            }
            let Some(el) = canvas.cast::<HtmlCanvasElement>() else {
                return;
            };
            let perf = web_sys::window().and_then(|w| w.performance());
            if let Some(p) = &perf {
                let _ = p.mark("chart-draw-start");
            }
            if let Some(backend) = Canvas::new(el.clone(), (size.width, size.height), size.ratio) {
                if let Err(e) = chart.0.draw_on(&backend.into_drawing_area()) {
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
        let t = props.chart.0.table();
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
            <div class="chart-pin">
                <div class="chart" data-h={props.height.to_string()} data-sum={(*sum).clone()}>
                    <canvas ref={canvas} role="img" aria-label={props.label.clone()}></canvas>
                    { picture }
                </div>
                { props.children.clone() }
            </div>
            <details class="chart-data" open={*open}>
                <summary onclick={toggle.reform(|e: MouseEvent| { e.prevent_default(); e })}>{ "Ver los datos de la gráfica" }</summary>
                { table }
            </details>
        </>
    }
}
