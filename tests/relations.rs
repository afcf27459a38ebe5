//! Every scenario over its whole accepted range (not the lesson's point):
//! the relations between its outputs hold. Shares equal their counts'
//! ratios, counts add up (served + rejected = arrivals), durations are never
//! negative, percentages of a whole stay within 0–100 %, a cut run says so
//! and draws no conclusion, and each verdict's premise is true of the
//! figures it sits beside. Parameters are drawn from each scenario's own
//! table (`Params::specs`): often at its ends, otherwise log-uniform between.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use sensei_lab::scenario::Scenario;
use sensei_lab::sim::params::{self, Kind, Params, Spec, Value};
use sensei_lab::sim::*;

fn value_for(spec: &Spec) -> BoxedStrategy<Value> {
    match spec.kind {
        Kind::Int { min, max, optional } => {
            let between = (0.0f64..1.0).prop_map(move |u| {
                // Log-uniform over [min, max] (shifted so that 0 works).
                let (a, b) = ((min as f64 + 1.0).ln(), (max as f64 + 1.0).ln());
                ((a + u * (b - a)).exp() - 1.0).round().clamp(min as f64, max as f64) as i64
            });
            let ints = prop_oneof![1 => Just(min), 1 => Just(max), 4 => between].prop_map(Value::Int);
            if optional {
                prop_oneof![1 => Just(Value::Unset), 3 => ints].boxed()
            } else {
                ints.boxed()
            }
        }
        Kind::Choice { options } => proptest::sample::select(options.iter().map(|o| o.0).collect::<Vec<_>>())
            .prop_map(Value::Choice)
            .boxed(),
        // A header as servers send it (seconds, a date, past or future), or as they should not.
        Kind::Text { max_chars } => prop_oneof![
            1 => Just(String::new()),
            3 => (0u64..100_000).prop_map(|s| s.to_string()),
            2 => (0u32..60, 0u32..24).prop_map(|(s, h)| format!("Wed, 02 Dec 2026 {h:02}:00:{s:02} GMT")),
            1 => Just("9".repeat(max_chars)),
            2 => proptest::string::string_regex(".{0,64}").unwrap(),
        ]
        .prop_map(move |t| Value::Text(t.chars().take(max_chars).collect::<String>().trim().to_string()))
        .boxed(),
        // Faults injected while playing: none (most often), or a few, anywhere in the accepted range.
        Kind::Events {
            options,
            max_items,
            max_ms,
            lasting,
        } => {
            let most = lasting.map_or(0, |(_, m)| m as i64);
            let item = (0..options.len(), 0.0f64..1.0, 0.0f64..1.0).prop_map(move |(k, a, f)| params::Event {
                key: options[k].0,
                at_ms: (a * a * max_ms as f64).round() as u32,
                for_ms: (f * f * most as f64).round() as u32,
            });
            prop_oneof![2 => Just(Vec::new()), 1 => proptest::collection::vec(item, 1..=max_items.min(4))]
                .prop_map(|mut v| {
                    v.sort_by_key(|e| e.at_ms);
                    Value::Text(params::write_events(&v))
                })
                .boxed()
        }
    }
}

/// Any accepted parameters of `P`.
fn any_params<P: Params + std::fmt::Debug + 'static>() -> impl Strategy<Value = P> {
    P::specs().iter().map(value_for).collect::<Vec<_>>().prop_map(|vals| {
        let mut p = P::default();
        for (s, v) in P::specs().iter().zip(vals) {
            p.set(s.key, v);
        }
        assert!(params::check(&p).is_ok(), "{p:?}");
        p
    })
}

fn share(x: f64) -> bool {
    x.is_finite() && (0.0..=1.0).contains(&x)
}

fn cfg(cases: u32) -> ProptestConfig {
    ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
    )
}

proptest! {
    #![proptest_config(cfg(64))]

    /// The herd's trace (the reference algorithm, attempt by attempt) at any
    /// parameters: at its end it reports what the fast engine reports; at any
    /// moment its counts add up, its marks agree with its figures, and a later
    /// moment has seen no less.
    #[test]
    fn herd_trace_is_the_run(p in any_params::<herd::HerdParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        use sensei_lab::sim::herd::trace::{HerdTrace, MarkState};
        use sensei_lab::sim::playback::Playback;
        // (Up to 20,000 clients here, a mark for 1 to 20 of them; the largest run is a unit test of its own.)
        let p = herd::HerdParams { clients: p.clients.min(20_000), ..p };
        let tr = HerdTrace::record(&p);
        let end = tr.end_ms();
        prop_assert_eq!(tr.at(end).as_result(p.window_ms), herd::simulate(&p));
        let (t0, t1) = (a.min(b) * end, a.max(b) * end);
        let (m0, m1) = (tr.at(t0), tr.at(t1));
        for m in [&m0, &m1] {
            prop_assert_eq!(m.served + m.gave_up + m.waiting, p.clients);
            prop_assert_eq!(m.windows.iter().map(|w| w.1 as u64).sum::<u64>(), m.attempts);
            prop_assert_eq!(m.windows.iter().map(|w| w.1).max().unwrap_or(0), m.peak);
            prop_assert!(m.served as u64 + m.gave_up as u64 <= m.attempts);
            let marks = tr.marks(m.t_ms);
            prop_assert!(marks.marks.len() as u32 <= sensei_lab::sim::herd::trace::MAX_MARKS);
            // Each pile packed, whatever the stride: places 0, 1, 2…
            for fate in [MarkState::Served, MarkState::GaveUp] {
                let mut turns: Vec<u32> = marks.marks.iter().filter(|k| k.state == fate).map(|k| k.turn).collect();
                turns.sort_unstable();
                prop_assert!(turns.iter().enumerate().all(|(i, t)| *t == i as u32));
            }
            if marks.stride == 1 {
                let count = |s: MarkState| marks.marks.iter().filter(|k| k.state == s).count() as u32;
                prop_assert_eq!(count(MarkState::Served), m.served);
                prop_assert_eq!(count(MarkState::GaveUp), m.gave_up);
                prop_assert_eq!(marks.marks.iter().map(|k| k.tries as u64).sum::<u64>(), m.attempts);
            }
        }
        prop_assert!(m0.attempts <= m1.attempts && m0.served <= m1.served && m0.gave_up <= m1.gave_up && m0.peak <= m1.peak);
        // Steps go forward and back through the run and stay within it.
        let next = tr.next_stop(t0);
        prop_assert!(next > t0 || t0 >= end);
        prop_assert!(next <= end && tr.prev_stop(t0) <= t0.max(0.0));
    }

    /// «¿Reintentarías?» at any setting: a retry always fits in the time left,
    /// never spends a budget that is gone, never repeats what cannot be repeated
    /// blindly, and C01's interactive path retries only a refused connection.
    #[test]
    fn failure_decisions(p in any_params::<failures::FailureParams>()) {
        use failures::{classify, decide, Advice, Caller, Failure};
        use sensei_lab::sim::failures::Repeat;
        let s = p.situation();
        let d = decide(&s);
        let row = classify(p.failure);
        prop_assert!(!d.why.is_empty());
        prop_assert_eq!(d.retry, d.why.starts_with("Sí"), "{}", d.why);
        if d.retry {
            let wait = d.after_ms.unwrap_or(0);
            prop_assert!(wait < s.left_ms, "{:?}: {:?}", p, d);
            prop_assert!(p.budget_left.is_on());
            prop_assert!(row.advice != Advice::No);
            prop_assert!(!(row.advice == Advice::Careful && p.idempotency == Repeat::Unsafe));
            prop_assert!(p.caller == Caller::Batch || p.failure == Failure::ConnectionRefused, "{:?}", p);
        } else {
            prop_assert!(d.after_ms.is_none());
        }
        // A time left unset is the caller's own.
        if p.left_ms.is_none() {
            prop_assert_eq!(s.left_ms, if p.caller == Caller::Batch { 3_600_000 } else { 300 });
        }
    }

    #[test]
    fn inflight(p in any_params::<inflight::InflightParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let f = inflight::formula(&p);
        prop_assert!(share(f.rejected_share), "{f:?}");
        prop_assert!(f.pod_inflight <= f.pod_demand + 1e-9);
        prop_assert!(f.served_per_s <= f.pod_rate + 1e-9);
        if let Some(c) = p.max_inflight { prop_assert!(f.pod_inflight <= c as f64 + 1e-9); }
        prop_assert!((f.rejected_share - (1.0 - f.served_per_s / f.pod_rate)).abs() < 1e-9);
        let s = inflight::simulate(&p);
        prop_assert_eq!(s.served + s.rejected, s.arrivals);
        // Played in time (#33): at its end, every arrival served or refused;
        // a later moment has seen no less; the pod never holds more than its cap.
        {
            use sensei_lab::sim::playback::Playback;
            let span = s.span();
            let end = span.end_ms();
            prop_assert_eq!(end, (s.played_s * 1000.0).ceil());
            let whole = s.at(end);
            prop_assert_eq!((whole.served, whole.rejected), (s.served, s.rejected));
            prop_assert_eq!(whole.points, s.curve.len());
            let (m0, m1) = (s.at((a.min(b) * end).round()), s.at((a.max(b) * end).round()));
            prop_assert!(m0.served <= m1.served && m0.rejected <= m1.rejected && m0.points <= m1.points);
            if let Some(c) = p.max_inflight { prop_assert!(m1.inflight <= c as u64); }
            let next = span.next_stop(m0.t_ms);
            prop_assert!((next > m0.t_ms || m0.t_ms >= end) && next <= end && next.fract() == 0.0);
        }
        prop_assert!(s.measured_rejected <= s.measured_arrivals && s.measured_arrivals <= s.arrivals);
        prop_assert!(s.arrivals <= inflight::MAX_ARRIVALS);
        match s.rejected_share {
            Some(r) => prop_assert!((r - s.measured_rejected as f64 / s.measured_arrivals as f64).abs() < 1e-12),
            None => prop_assert!(s.measured_arrivals == 0 || s.played_s <= s.warmup_s),
        }
        if let Some(m) = s.mean_inflight { prop_assert!(m >= 0.0 && m <= s.max_inflight as f64 + 1e-9); }
        if let Some(c) = p.max_inflight { prop_assert!(s.max_inflight <= c as u64); }
        prop_assert!(s.played_s > 0.0 && s.played_s <= s.asked_s);
        prop_assert_eq!(s.truncated, s.played_s < s.asked_s);
        // The joint constraint the command line refuses is the one the run is cut by.
        prop_assert_eq!(s.truncated, <inflight::InflightParams as Scenario>::beyond_budget(&p).is_some());
        prop_assert_eq!(s.truncated || s.mean_inflight.is_none(), !s.notes().is_empty());
        // Random arrivals' note only where Erlang's loss passes the lesson's arithmetic.
        for n in inflight::formula_notes(&p, &f, &s) {
            let cap = p.max_inflight.expect("a cap");
            prop_assert!(p.arrivals == inflight::Arrivals::Poisson);
            prop_assert!(inflight::erlang_b(f.pod_demand, cap) > f.rejected_share + 0.005, "{}", n);
        }
        // The verdict's premise.
        let (good, text) = inflight::verdict(&p, &f);
        if text.contains("no caben en un pod") {
            prop_assert!(f.photos_mb > f.pod_memory_mb);
            prop_assert_eq!(text.starts_with("Sin tope"), p.max_inflight.is_none());
        } else if text.contains("nadie la espera") {
            prop_assert!(f.answers_after_caller_left);
        } else if text.contains("El tope hace su trabajo") {
            prop_assert!(good && f.rejected_share > 0.0 && !f.answers_after_caller_left);
        } else {
            prop_assert!(good && f.rejected_share == 0.0);
        }
    }

    #[test]
    fn chain(p in any_params::<chain::ChainParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = chain::run(&p);
        // Played in time (#33): at its end, the caller has its outcome and the
        // zombie work is the whole request's; before the caller's outcome it
        // waits; zombie work only grows, and only without cancellation.
        {
            use sensei_lab::sim::playback::Playback;
            let span = r.span(&p);
            let end = span.end_ms();
            prop_assert_eq!(end, r.end_ms(&p) as f64);
            let whole = r.at(&p, end);
            prop_assert!(whole.caller != "espera");
            prop_assert_eq!(whole.zombie_ms, chain::said(&p, &r).zombie_ms);
            let (m0, m1) = (r.at(&p, (a.min(b) * end).round()), r.at(&p, (a.max(b) * end).round()));
            prop_assert!(m0.zombie_ms <= m1.zombie_ms);
            for m in [&m0, &m1] {
                prop_assert_eq!(m.caller == "espera", m.t_ms < r.caller_done_ms);
                prop_assert_eq!(m.deadline_left_ms, p.deadline_ms as i64 - m.t_ms as i64);
                if p.cancel.is_on() { prop_assert!(!m.for_nobody && m.zombie_ms == 0); }
                if m.for_nobody { prop_assert!(r.abandoned_ms.is_some_and(|a| m.t_ms >= a)); }
            }
            let next = span.next_stop(m0.t_ms as f64);
            prop_assert!((next > m0.t_ms as f64 || m0.t_ms as f64 >= end) && next <= end && next.fract() == 0.0);
        }
        prop_assert!(r.caller_done_ms <= p.caller_ms as u64);
        prop_assert_eq!(r.left_ms, p.deadline_ms as i64 - p.prep_ms as i64);
        if !r.called {
            prop_assert!(p.deadline.is_on() && r.left_ms <= 0);
            prop_assert_eq!((r.queue_rejects_ms, r.triton_done_ms), (None, None));
            prop_assert_eq!(r.zombie_compute_ms(), 0);
        } else if p.deadline.is_on() {
            prop_assert_eq!(r.call_timeout_ms as i64, (p.triton_cap_ms as i64).min(r.left_ms));
            prop_assert!(r.call_timeout_ms > 0);
        }
        for (a, b) in [r.zombie_queue, r.zombie_compute].into_iter().flatten() {
            prop_assert!(a < b);
            prop_assert!(!p.cancel.is_on());
        }
        // «Un salto espera más que el de arriba» only when one does.
        let waits_longer = (r.called && p.prep_ms as u64 + r.call_timeout_ms as u64 > (p.deadline_ms.min(p.caller_ms)) as u64)
            || p.deadline_ms >= p.caller_ms
            || p.queue_cap_ms >= p.triton_cap_ms;
        prop_assert_eq!(r.misconfigured, waits_longer);
        let text = chain::call_timeout_text(&p, &r);
        prop_assert!(!text.contains("min(") || r.left_ms > 0, "{}", text);
        prop_assert!(!text.contains('-'), "{}", text);
        // What the page and the command line say (`chain::said`) agrees with the run.
        let said = chain::said(&p, &r);
        prop_assert_eq!(said.rows.len(), 5);
        prop_assert_eq!(&said.rows[1].2, &text);
        let queue = r.zombie_queue.map_or(0, |(a, b)| b - a);
        prop_assert_eq!(said.zombie_ms, queue + r.zombie_compute_ms());
        prop_assert_eq!(said.rows[4].2 == "ninguno", said.zombie_ms == 0);
        prop_assert_eq!(said.warning.is_some(), r.misconfigured);
        prop_assert_eq!(said.tone == chain::Tone::Ok, r.caller_gets == chain::CallerGets::Answer);
        let at = format!("(a los {} ms)", sensei_lab::fmt::es_int(r.caller_done_ms as i64));
        prop_assert!(said.rows[3].2.ends_with(&at), "{}", said.rows[3].2);
        prop_assert_eq!(said.rows[0].2.starts_with("nada"), r.left_ms <= 0);
    }

    #[test]
    fn clocks(p in any_params::<clocks::ClocksParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = clocks::run(&p);
        // Played in time (#33): at its end, the pieces the call received and
        // no clock running; before it, each clock set counts down from its
        // value (the read clock from the last piece), never below 0, and
        // none has fired early; a later moment has no fewer pieces.
        {
            use sensei_lab::sim::playback::Playback;
            let span = r.span(&p);
            let end = span.end_ms();
            prop_assert_eq!(end, r.horizon_ms(&p).ceil());
            let whole = r.at(&p, end);
            if let Some(n) = r.chunks_received { prop_assert_eq!(whole.pieces, n); }
            prop_assert_eq!(whole.over, r.outcome.at_ms().is_some());
            if whole.over { prop_assert!(whole.connect_left_ms.is_none() && whole.read_left_ms.is_none() && whole.total_left_ms.is_none()); }
            let (m0, m1) = (r.at(&p, (a.min(b) * end).round()), r.at(&p, (a.max(b) * end).round()));
            prop_assert!(m0.pieces <= m1.pieces && (m0.connected <= m1.connected) && (m0.over <= m1.over));
            for m in [&m0, &m1] {
                if let Some(l) = m.total_left_ms { prop_assert_eq!(l + m.t_ms, p.total_timeout_ms.unwrap() as u64); }
                if let Some(l) = m.read_left_ms { prop_assert!(m.connected && l <= p.read_timeout_ms.unwrap() as u64); }
                if let Some(l) = m.connect_left_ms { prop_assert!(!m.connected && l + m.t_ms == p.connect_timeout_ms.unwrap() as u64); }
                if !m.over {
                    // Running, a clock set has time left (it fires at the end, not before).
                    for left in [m.connect_left_ms, m.read_left_ms, m.total_left_ms].into_iter().flatten() { prop_assert!(left > 0, "{:?}", m); }
                }
            }
            let next = span.next_stop(m0.t_ms as f64);
            prop_assert!((next > m0.t_ms as f64 || m0.t_ms as f64 >= end) && next <= end && next.fract() == 0.0);
        }
        if let Some(n) = r.chunks_received {
            if let Some(c) = p.chunks { prop_assert!(n <= c as u64); }
            prop_assert!(r.chunks_ms.len() as u64 <= n);
        } else {
            prop_assert_eq!(&r.outcome, &clocks::Outcome::NeverEnds);
        }
        prop_assert!(r.chunks_ms.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn shedding(p in any_params::<shedding::SheddingParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = shedding::simulate(&p);
        prop_assert_eq!(r.unbounded.arrivals, r.shedding.arrivals);
        for s in [&r.unbounded, &r.shedding] {
            prop_assert!(share(s.goodput_share));
            prop_assert!(s.interactive_goodput_share.is_none_or(share) && s.batch_goodput_share.is_none_or(share));
            // A kind with no requests has no share.
            if p.batch_pct == 0 { prop_assert_eq!(s.batch_goodput_share, None); }
            if p.batch_pct == 100 { prop_assert_eq!(s.interactive_goodput_share, None); }
            let good = (s.goodput_share * s.arrivals as f64).round() as u64;
            prop_assert_eq!(good + s.late + s.rejected + s.unfinished, s.arrivals);
            prop_assert!(s.final_latency_ms >= 0.0);
            prop_assert_eq!(s.seconds.iter().map(|x| (x.goodput + x.late) as u64).sum::<u64>(), good + s.late);
        }
        prop_assert_eq!(r.unbounded.rejected, 0);
        prop_assert!(r.played_s > 0.0 && r.played_s <= r.asked_s as f64);
        prop_assert_eq!(r.truncated, r.played_s < r.asked_s as f64);
        prop_assert_eq!(r.truncated, <shedding::SheddingParams as Scenario>::beyond_budget(&p).is_some());
        // The verdict (page and command line): arrivals against capacity.
        let v = shedding::verdict(&p, &r);
        let opening = format!("Llegan {} por segundo y caben ", sensei_lab::fmt::es_int(p.rps as i64));
        prop_assert!(v.starts_with(&opening), "{}", v);
        prop_assert_eq!(v.ends_with("no hace falta soltar nada."), p.rps as f64 <= r.capacity_rps, "{}", v);
        prop_assert_eq!(r.truncated || r.same_rules, !r.notes().is_empty());
        prop_assert!(r.unbounded.arrivals <= shedding::MAX_ARRIVALS);
        // Played in time (#33): at its end, each server's answers and 503s
        // are the run's; a later moment has seen no less; stops are whole seconds.
        use sensei_lab::sim::playback::Playback;
        let span = r.span();
        let end = span.end_ms();
        prop_assert_eq!(end, r.played_s.ceil() * 1000.0);
        let whole = r.at(end);
        for (so_far, s) in [(&whole.unbounded, &r.unbounded), (&whole.shedding, &r.shedding)] {
            let good = (s.goodput_share * s.arrivals as f64).round() as u64;
            prop_assert_eq!((so_far.goodput, so_far.late, so_far.rejected), (good, s.late, s.rejected));
        }
        let (m0, m1) = (r.at((a.min(b) * end).round()), r.at((a.max(b) * end).round()));
        for (x, y) in [(&m0.unbounded, &m1.unbounded), (&m0.shedding, &m1.shedding)] {
            prop_assert!(x.goodput <= y.goodput && x.late <= y.late && x.rejected <= y.rejected);
        }
        prop_assert_eq!(m0.unbounded.rejected, 0);
        prop_assert!(m0.seconds as f64 * 1000.0 <= m0.t_ms);
    }

    #[test]
    fn hedging(p in any_params::<hedging::HedgingParams>()) {
        let r = hedging::simulate(&p);
        let f = hedging::formula(&p);
        for q in std::iter::once(&r.without).chain(r.with.as_ref()) {
            prop_assert!(q.p50 <= q.p95 && q.p95 <= q.p99 && q.p99 <= q.p999, "{q:?}");
            prop_assert!(q.p50 >= 0.0);
        }
        prop_assert!(share(r.slow_without) && share(r.slow_with) && share(r.extra_load));
        prop_assert!(share(f.still_slow) && share(f.extra_load));
        if r.with.is_none() { prop_assert_eq!(r.extra_load, 0.0); }
        let notes = hedging::notes(&p, &f, &r);
        let gpu = p.utilization_pct as f64 * (1.0 + r.extra_load);
        prop_assert_eq!(notes.iter().any(|n| n.contains("más de lo que tiene")), p.hedge_pct.is_some() && gpu > 100.0);
        // «Slow» is a read that waited a pause: never more than the pauses.
        prop_assert!(r.slow_with <= r.slow_without + 1e-12);
        prop_assert!((r.slow_without - p.pause_pct as f64 / 100.0).abs() < 0.05 + 4.0 / (p.reads as f64).sqrt(), "{} vs {}", r.slow_without, p.pause_pct);
        // Where the formula's «still slow» is far from what was measured, a note says so.
        if p.hedge_pct.is_some() && (r.slow_with - f.still_slow).abs() > 0.05 {
            prop_assert!(notes.iter().any(|n| n.contains("la cifra que vale")), "{p:?} {notes:?}");
        }
    }

    #[test]
    fn backoff_layers_budget(b in any_params::<retries::BackoffParams>(), l in any_params::<retries::LayersParams>(),
                             g in any_params::<retries::BudgetParams>()) {
        let t = retries::backoff(&b);
        for w in &t.rows {
            prop_assert!(0.0 <= w.min_ms && w.min_ms <= w.mean_ms && w.mean_ms <= w.max_ms, "{w:?}");
            if let Some(c) = b.cap_ms { prop_assert!(w.max_ms <= c as f64); }
        }
        prop_assert!((t.total_max_ms - t.rows.iter().map(|w| w.max_ms).sum::<f64>()).abs() < 1e-6);
        prop_assert!((t.total_mean_ms - t.rows.iter().map(|w| w.mean_ms).sum::<f64>()).abs() < 1e-6);
        let r = retries::layers(&l);
        prop_assert!(r.reaching.windows(2).all(|w| w[0] <= w[1]));
        for (x, ps) in r.reaching.iter().zip(&r.per_second) {
            prop_assert!((x * l.rps as f64 - ps).abs() < 1e-6 * ps.max(1.0));
        }
        let u = retries::budget(&g);
        prop_assert!((u.allowed_per_s - g.rps as f64 * g.budget_pct as f64 / 100.0).abs() < 1e-9);
        prop_assert!(u.wanted_per_s >= 0.0);
        for (fail, without, with, bucket) in &u.curve {
            prop_assert!(share(*fail) && *with <= *without + 1e-12 && *bucket >= 0.0);
            prop_assert!(with.is_sign_positive() && without.is_sign_positive());
        }
        // At the chosen share itself: f + f² + … (attempts − 1 terms), capped by the budget;
        // on the curve's grid, the curve's point.
        let f = g.failing_pct as f64 / 100.0;
        let without: f64 = (1..g.attempts).map(|k| f.powi(k as i32)).sum();
        prop_assert!((u.here.1 - without).abs() < 1e-12 && u.here.2 == u.here.1.min(g.budget_pct as f64 / 100.0));
        prop_assert!(u.here.3 >= 0.0 && u.here.3 <= (g.attempts - 1) as f64);
        if g.failing_pct % 2 == 0 {
            let c = u.curve[g.failing_pct as usize / 2];
            prop_assert_eq!((c.0, c.1, c.2), (u.here.0, u.here.1, u.here.2));
        }
        let opening = format!("Con {} % de fallas", g.failing_pct);
        prop_assert!(retries::extra_sentence(&u).starts_with(&opening));
        let sentence = retries::budget_sentence(&g, &u);
        prop_assert!(sentence.contains(&sensei_lab::fmt::es_dec(u.allowed_per_s, 2)), "{}", sentence);
    }

    #[test]
    fn store(p in any_params::<idempotency::StoreParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = idempotency::run(&p);
        // Played a line at a time (#33): at its end every line and operation;
        // after k lines, the store is the k-th line's and the operations
        // performed by then; each step one more line.
        {
            use sensei_lab::sim::playback::Playback;
            prop_assert!(r.rows.len() <= idempotency::MAX_LINES);
            let span = r.span();
            let end = span.end_ms();
            prop_assert_eq!(end, r.rows.len() as f64 * 1000.0);
            let whole = r.at(end);
            prop_assert_eq!((whole.rows, whole.performed), (r.rows.len(), r.performed.len()));
            let (m0, m1) = (r.at((a.min(b) * end).round()), r.at((a.max(b) * end).round()));
            prop_assert!(m0.rows <= m1.rows && m0.performed <= m1.performed && m0.t_ms <= m1.t_ms);
            for m in [&m0, &m1] {
                if m.rows > 0 { prop_assert_eq!(&m.store, &r.rows[m.rows - 1].store); }
            }
            let t = m0.rows as f64 * 1000.0;
            if t < end { prop_assert_eq!(r.at(span.next_stop(t)).rows, m0.rows + 1); }
        }
        prop_assert!(!r.truncated);
        prop_assert_eq!(r.rows.last().map_or(0, |row| row.performed), r.performed.len());
        prop_assert!(r.rows.windows(2).all(|w| w[0].t_ms <= w[1].t_ms && w[0].performed <= w[1].performed));
        let (tone, text) = r.verdict();
        let keys: Vec<_> = r.performed.iter().map(|(k, _)| k.clone()).collect();
        match keys.len() {
            0 => prop_assert_eq!(tone, "warn"),
            1 => prop_assert_eq!(tone, "ok"),
            _ => {
                prop_assert_eq!(tone, "bad");
                let repeated = keys.iter().enumerate().any(|(i, k)| k.is_some() && keys[..i].contains(k));
                prop_assert_eq!(text.contains("venció"), repeated);
                if text.contains("sin llave") { prop_assert!(keys.iter().any(|k| k.is_none())); }
            }
        }
    }

    #[test]
    fn breaker(p in any_params::<breaker::BreakerParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = breaker::simulate(&p);
        // Every request is played: nothing is cut.
        let requests: u64 = r.seconds.iter().map(|s| (s.calls + s.fallbacks) as u64).sum();
        prop_assert_eq!(requests, p.rps as u64 * (p.window_s + p.duration_s) as u64);
        prop_assert_eq!(r.seconds.len() as u32, p.window_s + p.duration_s);
        prop_assert!(r.seconds.iter().all(|s| s.timeouts <= s.calls));
        let mut state = breaker::State::Closed;
        for (t, next) in &r.transitions {
            prop_assert!(state.may_become(*next), "{state:?} → {next:?}");
            prop_assert!(*t >= -(p.window_s as f64) && *t < p.duration_s as f64 + p.timeout_ms as f64 / 1000.0);
            state = *next;
        }
        // (From the first fall: at 12:00:00, or earlier where one is injected before it.)
        let first_fall = p.inject.0.first().map_or(0.0, |i| -(p.window_s as f64) + i.at_ms as f64 / 1000.0).min(p.fall_ms as f64 / 1000.0);
        prop_assert!(r.waited_before_open as f64 <= p.rps as f64 * (p.duration_s as f64 - first_fall.floor()).max(0.0) + 1.0);
        prop_assert!(r.fallbacks_first_open <= p.rps as u64 * p.open_s as u64 + 1);
        // Played in time (#33): a moment shows the seconds finished by then.
        // At its end, every request; at a whole second s, exactly rps × s of
        // them, each a call or a fallback; a later moment has seen no less,
        // and its state is the last change before it.
        use sensei_lab::sim::playback::Playback;
        let span = r.span();
        let end = span.end_ms();
        prop_assert_eq!(end, (p.window_s + p.duration_s) as f64 * 1000.0);
        prop_assert_eq!(r.at(end).requests, requests);
        let (t0, t1) = ((a.min(b) * end).round(), (a.max(b) * end).round());
        let (m0, m1) = (r.at(t0), r.at(t1));
        for m in [&m0, &m1] {
            prop_assert_eq!(m.requests, p.rps as u64 * (m.t_ms / 1000.0).floor() as u64);
            prop_assert!(m.timeouts <= m.calls);
            prop_assert_eq!(m.calls + m.fallbacks, m.requests);
            let last = r.transitions.iter().rfind(|x| x.0 <= m.clock_s).map_or(breaker::State::Closed, |x| x.1);
            prop_assert_eq!(m.state, last);
        }
        prop_assert!(m0.calls <= m1.calls && m0.fallbacks <= m1.fallbacks && m0.timeouts <= m1.timeouts);
        let next = span.next_stop(t0);
        prop_assert!((next > t0 || t0 >= end) && next <= end && next.fract() == 0.0);
        prop_assert!(span.prev_stop(t0) < t0.max(1e-9) || t0 == 0.0);
    }
}

proptest! {
    // A storm can be long to play at the top of its ranges: fewer cases.
    #![proptest_config(cfg(24))]

    #[test]
    fn storm(p in any_params::<storm::StormParams>(), a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let r = storm::simulate(&p);
        let o = storm::assess(&p, &r);
        prop_assert!(r.attempts <= storm::MAX_ATTEMPTS);
        prop_assert!(r.succeeded <= r.attempts);
        prop_assert_eq!(r.truncated, r.cut_at_s.is_some());
        prop_assert_eq!(r.truncated, matches!(o, storm::Outcome::Cut { .. }));
        prop_assert_eq!(r.truncated, !r.notes().is_empty());
        if let Some(cut) = r.cut_at_s {
            prop_assert!(r.buckets.len() as f64 * r.bucket_s <= cut + 1e-9);
            prop_assert_eq!(r.recovered_at_s, None);
            prop_assert!(!r.recovered());
        } else {
            prop_assert_eq!(r.buckets.len(), storm::BUCKETS);
        }
        for b in &r.buckets {
            for x in [b.fresh, b.offered, b.retries, b.goodput, b.zombie, b.fallbacks, b.failed] {
                prop_assert!(x.is_finite() && x >= 0.0);
            }
            prop_assert!(b.retries <= b.offered);
        }
        if r.requests > 0 { prop_assert!((r.amplification - r.attempts as f64 / r.requests as f64).abs() < 1e-9); }
        // The verdict's premise: «se recupera» only for a recovered run played
        // to the end; «metaestable» only when the same load without the trigger recovers.
        let v = storm::verdict(&r, o);
        if v.starts_with("se recupera") { prop_assert!(r.recovered()); }
        if v.contains("metaestable") {
            let (q, _) = params::clamp(&p);
            let calm = storm::simulate(&q.calm());
            prop_assert!(calm.recovered_at_s.is_some());
        }
        // Played in time (#33): at its end the buckets count what the run
        // reports (a cut run's, up to its last whole bucket: no more); a
        // later moment has seen no less; stops are whole ms within the run.
        use sensei_lab::sim::playback::Playback;
        let span = r.span();
        let end = span.end_ms();
        let whole = r.at(end);
        prop_assert_eq!(whole.buckets, r.buckets.len());
        if r.truncated {
            prop_assert!(whole.requests <= r.requests && whole.attempts <= r.attempts && whole.succeeded <= r.succeeded);
        } else {
            prop_assert_eq!(end, p.duration_s as f64 * 1000.0);
            prop_assert_eq!((whole.requests, whole.attempts, whole.succeeded), (r.requests, r.attempts, r.succeeded));
        }
        let (t0, t1) = ((a.min(b) * end).round(), (a.max(b) * end).round());
        let (m0, m1) = (r.at(t0), r.at(t1));
        for m in [&m0, &m1] {
            prop_assert!(m.retries <= m.attempts && m.succeeded <= m.attempts);
            prop_assert!(m.buckets as f64 * r.bucket_s * 1000.0 <= m.t_ms + 1e-6);
        }
        prop_assert!(m0.requests <= m1.requests && m0.attempts <= m1.attempts && m0.succeeded <= m1.succeeded && m0.zombie <= m1.zombie);
        let next = span.next_stop(t0);
        prop_assert!((next > t0 || t0 >= end) && next <= end && next.fract() == 0.0);
    }
}

proptest! {
    // A storm can be long to play at the top of its ranges: fewer cases.
    #![proptest_config(cfg(24))]

    /// A fork keeps its past (#42): a storm with one more fault injected at
    /// moment t (an outage or a spike, lasting any accepted while) is the
    /// storm without it up to t: every bucket finished by then, the figures
    /// at t, and a cut before t.
    #[test]
    fn storm_injection_keeps_the_past(p in any_params::<storm::StormParams>(), u in 0.0f64..1.0, spike: bool, f in 0.0f64..1.0) {
        let (p, _) = params::clamp(&p);
        let t = (u * p.duration_s as f64 * 1000.0).round() as u32;
        let kind = if spike { storm::Trigger::Spike } else { storm::Trigger::Outage };
        let added = params::Injection { kind, at_ms: t, for_ms: (f * 120_000.0).round() as u32 };
        let forked = storm::StormParams { inject: p.inject.with(added), ..p.clone() };
        prop_assert!(params::check(&forked).is_ok());
        let (a, b) = (storm::simulate(&p), storm::simulate(&forked));
        let step = a.bucket_s * 1000.0;
        let done = (0..storm::BUCKETS).take_while(|i| (i + 1) as f64 * step <= t as f64).count();
        let upto = done.min(a.buckets.len()).min(b.buckets.len());
        prop_assert_eq!(&a.buckets[..upto], &b.buckets[..upto]);
        if a.cut_at_s.is_some_and(|c| c * 1000.0 < t as f64) {
            prop_assert_eq!(a.cut_at_s, b.cut_at_s);
            prop_assert_eq!(a.buckets.len(), b.buckets.len());
        } else {
            prop_assert!(b.buckets.len() >= upto.min(a.buckets.len()));
        }
        prop_assert_eq!(a.at(t as f64), b.at(t as f64));
    }

    /// The same for the breaker: Triton made to fall at moment t leaves the
    /// seconds finished by then, the changes of state before it and the
    /// figures at t as they were.
    #[test]
    fn breaker_injection_keeps_the_past(p in any_params::<breaker::BreakerParams>(), u in 0.0f64..1.0) {
        let (p, _) = params::clamp(&p);
        let end = (p.window_s + p.duration_s) as f64 * 1000.0;
        let t = (u * end).round() as u32;
        let added = params::Injection { kind: breaker::Fault::Fall, at_ms: t, for_ms: 0 };
        let forked = breaker::BreakerParams { inject: p.inject.with(added), ..p.clone() };
        prop_assert!(params::check(&forked).is_ok());
        let (a, b) = (breaker::simulate(&p), breaker::simulate(&forked));
        let done = (t / 1000) as usize;
        prop_assert_eq!(&a.seconds[..done], &b.seconds[..done]);
        let clock = a.start_s() + t as f64 / 1000.0;
        let before = |r: &breaker::BreakerRun| r.transitions.iter().filter(|x| x.0 < clock).cloned().collect::<Vec<_>>();
        prop_assert_eq!(before(&a), before(&b));
        prop_assert_eq!(a.at(t as f64), b.at(t as f64));
    }
}

proptest! {
    // The tipping point's search plays a dozen storms: a handful of cases.
    #![proptest_config(cfg(6))]

    #[test]
    fn tipping_point(p in any_params::<storm::StormParams>()) {
        // (The search leaves the injected faults out.)
        let (q, _) = params::clamp(&storm::StormParams { inject: Default::default(), ..p });
        match storm::tipping_point(&q) {
            storm::Tipping::At { ms } => {
                // At the point it no longer recovers; just below, it does.
                let at = storm::simulate(&storm::StormParams { trigger_ms: ms, ..q.clone() });
                prop_assert!(!at.recovered());
                if ms >= 100 {
                    let below = storm::simulate(&storm::StormParams { trigger_ms: ms - 100, ..q.clone() });
                    // Back to health (maybe late), or draining with no retries feeding it.
                    let o = storm::assess(&q, &below);
                    prop_assert!(below.recovered_at_s.is_some() || matches!(o, storm::Outcome::Draining), "{:?}", o);
                }
            }
            storm::Tipping::Overloaded => {
                let calm = storm::simulate(&storm::StormParams { trigger_ms: 0, ..q.clone() });
                prop_assert!(!calm.recovered());
            }
            storm::Tipping::Unknown { cut: true, trigger_ms } => {
                let cut = storm::simulate(&storm::StormParams { trigger_ms, ..q.clone() });
                prop_assert!(cut.truncated);
            }
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(cfg(64))]

    /// What the degradation says: counted by reason with the metric, «sin
    /// contar» without it (and the dashboard's share of 200s instead), the
    /// same rows on the page and the command line.
    #[test]
    fn degradation(p in any_params::<degradation::DegradationParams>()) {
        let r = degradation::run(&p);
        let rows = degradation::reason_rows(&p, &r);
        prop_assert_eq!(rows.len(), 3);
        for ((label, value), n) in rows.iter().zip(r.totals) {
            prop_assert!(label.starts_with("plan B por "));
            if p.metric.is_on() {
                prop_assert_eq!(value, &sensei_lab::fmt::es_int(n.round() as i64));
            } else {
                prop_assert_eq!(value.as_str(), "sin contar");
            }
        }
        prop_assert!((0.0..=1.0).contains(&r.share_ok_status));
        prop_assert!(degradation::dashboard(&r).ends_with(" %"));
    }
}

proptest! {
    #![proptest_config(cfg(48))]

    /// The work budget's edge, wherever it falls: the longest duration that fits
    /// (rate × duration within the arrivals, counted in integers) plays whole and
    /// is taken by the command line; one second more is cut and refused.
    #[test]
    fn inflight_budget_edge(target in 1u64..=119, pods in 1u32..=50, jiggle in 0u64..3, random in any::<bool>()) {
        // A rate whose edge falls within the accepted durations (1–120 s).
        let budget: u64 = if random { 180_000 } else { 200_000 };
        let rps = (budget * pods as u64 / target + jiggle).clamp(1, 100_000) as u32;
        let p = inflight::InflightParams {
            rps,
            pods,
            arrivals: if random { inflight::Arrivals::Poisson } else { inflight::Arrivals::Regular },
            ..inflight::InflightParams::default()
        };
        let most = inflight::longest_fit_s(&p);
        prop_assert!(most * rps as u64 <= budget * pods as u64 && (most + 1) * rps as u64 > budget * pods as u64);
        let mut checked = 0;
        for (d, fits) in [(most, true), (most + 1, false)] {
            if (1..=120).contains(&d) {
                let q = inflight::InflightParams { duration_s: d as u32, ..p.clone() };
                let r = inflight::simulate(&q);
                prop_assert_eq!(r.truncated, !fits, "{:?}", q);
                prop_assert_eq!(<inflight::InflightParams as Scenario>::beyond_budget(&q).is_none(), fits);
                checked += 1;
            }
        }
        prop_assert!(checked >= 1, "rps {} pods {}: edge at {} s", rps, pods, most);
    }
}
