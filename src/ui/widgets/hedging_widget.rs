//! Hedged requests, live: a Monte Carlo of reads with and without a second copy.

use crate::chart::hedging::HedgingChart;
use crate::fmt::{es_dec, es_int, es_percent};
use crate::sim::hedging::{formula, simulate_with, Draws, HedgingParams, Percentiles};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

fn ms(v: f64) -> String {
    format!("{} ms", es_int(v.round() as i64))
}

#[component]
pub fn HedgingWidget() -> Html {
    let h = use_params::<HedgingParams>("hedging");
    let p = h.params.clone();
    // The random draws depend on the seed only: made once, extended when
    // the reads grow, replayed on every other change.
    let draws = use_mut_ref(|| Draws::new(p.seed, p.reads));
    let run = use_memo(p.clone(), move |p| {
        let mut d = draws.borrow_mut();
        d.cover(p.seed, p.reads);
        (simulate_with(&d, p), formula(p))
    });
    let r2 = run.clone();
    let chart = use_memo(p.clone(), move |p| {
        let r = &r2.0;
        Rc::new(HedgingChart {
            without: r.ccdf_without.clone(),
            with: r.with.as_ref().map(|_| r.ccdf_with.clone()),
            hedge_at_ms: r.hedge_at_ms,
            floor: 1.0 / p.reads.max(1) as f64,
        })
    });
    let (r, f) = (&run.0, &run.1);
    let pick = |sel: fn(&Percentiles) -> f64| {
        let mut v = vec![ms(sel(&r.without))];
        if let Some(w) = &r.with {
            v.push(ms(sel(w)));
        }
        v
    };
    let both = |a: String, b: String| if r.with.is_some() { vec![a, b] } else { vec![a] };
    let rows = vec![
        row("p50", "p50", pick(|x| x.p50)),
        row("p95", "p95", pick(|x| x.p95)),
        row("p99", "p99", pick(|x| x.p99)),
        row("p99.9", "p999", pick(|x| x.p999)),
        row(
            "siguen lentas",
            "slow",
            both(es_percent(r.slow_without, 2), es_percent(r.slow_with, 2)),
        ),
        row("carga extra", "extra", both("0 %".into(), es_percent(r.extra_load, 1))),
    ];
    let head: Vec<String> = if r.with.is_some() {
        vec!["sin hedging".into(), "con hedging".into()]
    } else {
        vec!["sin hedging".into()]
    };
    let arithmetic = match (p.hedge_pct, r.hedge_at_ms) {
        (Some(hp), Some(at)) => html! {
            <ul class="arithmetic">
                <li>{ format!("Siguen lentas las que caen dos veces en una pausa: {} × {} = {}.",
                    es_dec(p.pause_pct as f64 / 100.0, 2), es_dec(p.pause_pct as f64 / 100.0, 2), es_percent(f.still_slow, 2)) }</li>
                <li>{ format!("La copia sale en el p{hp}, a los {}: una rescatada tarda a lo más ≈ {} + {} = {} (la más lenta medida: {}).",
                    ms(at), es_int(at.round() as i64), es_int(p.copy_ms as i64), ms(at + p.copy_ms as f64),
                    r.rescued_max_ms.map_or("ninguna".into(), ms)) }</li>
                <li data-figure="gpu">{ crate::sim::hedging::gpu_sentence(&p, f) }</li>
            </ul>
        },
        _ => html! { <p class="aside">{ "Sin hedging no hay carga extra, y la cola lenta se queda como está." }</p> },
    };
    let label = format!(
        "Latencia sin hedging: p99 de {}. {}",
        ms(r.without.p99),
        r.with.as_ref().map_or(String::new(), |w| format!(
            "Con hedging: p99 de {} y {} de carga extra.",
            ms(w.p99),
            es_percent(r.extra_load, 1)
        ))
    );
    // The frame names the percentile the copy goes out at, as chosen.
    let subtitle = match p.hedge_pct {
        Some(hp) => format!(": una segunda copia en el p{hp}"),
        None => ": sin segunda copia".to_string(),
    };
    html! {
        <WidgetFrame id="hedging" {subtitle}>
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={300} />
                { figures(&head, rows) }
                { arithmetic }
                { crate::ui::widgets::controls::run_notes(&crate::sim::hedging::notes(&p, f, r)) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
