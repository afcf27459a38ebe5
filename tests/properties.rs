//! Invariants of the herd simulation and its policies, for any parameters.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use sensei_lab::sim::herd::{simulate, HerdParams};
use sensei_lab::sim::params::{self, Params};
use sensei_lab::sim::policy::backoff::{Backoff, Jitter};
use sensei_lab::sim::policy::rng::PyRandom;

fn jitter() -> impl Strategy<Value = Jitter> {
    prop_oneof![
        Just(Jitter::None),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated)
    ]
}

prop_compose! {
    fn herd_params()(clients in 1u32..3000, capacity in 1u32..200, window_ms in 1u32..200, base_ms in 1u32..2000,
                     cap_ms in proptest::option::of(1u32..20_000), retries in 1u32..=10, jitter in jitter(), seed in any::<u32>())
                     -> HerdParams {
        HerdParams { clients, capacity, window_ms, base_ms, cap_ms, retries, jitter, seed, t_ms: None }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_client_is_served_or_gives_up(p in herd_params()) {
        let r = simulate(&p);
        prop_assert_eq!(r.served + r.gave_up, p.clients);
        prop_assert_eq!(r.attempts, r.windows.iter().map(|(_, c)| *c as u64).sum::<u64>());
        prop_assert!(r.peak as u64 <= r.attempts);
        prop_assert!(r.attempts >= p.clients as u64);
        prop_assert!(r.attempts <= p.clients as u64 * p.retries as u64);
        // Each window serves at most its capacity.
        prop_assert!(r.served as u64 <= r.windows.iter().map(|(_, c)| (*c).min(p.capacity) as u64).sum::<u64>());
        // Windows come in time order, each once.
        prop_assert!(r.windows.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn same_seed_same_result(p in herd_params()) {
        prop_assert_eq!(simulate(&p), simulate(&p));
    }

    #[test]
    fn every_jittered_wait_is_within_its_bounds(base in 1f64..10_000.0, cap in proptest::option::of(1f64..600_000.0),
                                                 jitter in jitter(), seed in any::<u32>()) {
        let b = Backoff { base_ms: base, cap_ms: cap, jitter };
        let mut rng = PyRandom::new(seed);
        let mut prev = base;
        for n in 1..=10 {
            let (lo, hi) = b.bounds(n, prev);
            let w = b.wait(n, prev, &mut rng);
            prop_assert!(w.is_finite() && w >= 0.0);
            prop_assert!(lo <= w && w <= hi, "{:?} n={}: {} <= {} <= {}", jitter, n, lo, w, hi);
            if let Some(c) = cap { prop_assert!(w <= c); }
            prev = w;
        }
    }

    #[test]
    fn any_query_gives_parameters_within_bounds(query in "[a-z=&%0-9.,-]{0,80}", clients in any::<i64>(), seed in any::<i64>()) {
        for q in [query.clone(), format!("clients={clients}&seed={seed}&jitter=x&cap-ms=&window-ms=NaN")] {
            let (p, _notes) = params::from_query::<HerdParams>(&q);
            prop_assert!(params::check(&p).is_ok(), "{:?} from {:?}", p, q);
        }
    }

    #[test]
    fn query_round_trip(p in herd_params()) {
        let (back, notes) = params::from_query::<HerdParams>(&params::to_query(&p));
        prop_assert!(notes.is_empty());
        prop_assert_eq!(back, p);
    }

    #[test]
    fn clamping_is_idempotent_and_notes_what_changed(clients in any::<u32>(), window in any::<u32>(), retries in any::<u32>()) {
        let p = HerdParams { clients, window_ms: window, retries, ..HerdParams::default() };
        let (c, notes) = params::clamp(&p);
        prop_assert!(params::check(&c).is_ok());
        let changed = HerdParams::specs().iter().filter(|s| p.get(s.key) != c.get(s.key)).count();
        prop_assert_eq!(notes.len(), changed);
        let (again, more) = params::clamp(&c);
        prop_assert_eq!(again, c);
        prop_assert!(more.is_empty());
    }
}

#[test]
fn out_of_range_values_are_clamped_with_a_note_in_spanish() {
    let (p, notes) = params::from_query::<HerdParams>("?clients=5000000&retries=0&jitter=mucho&window-ms=abc");
    assert_eq!(p.clients, 100_000);
    assert_eq!(p.retries, 1);
    assert_eq!(p.jitter, Jitter::Full);
    assert_eq!(p.window_ms, 10);
    let text: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
    assert!(
        text.contains(&"Clientes: 5,000,000 está fuera del rango permitido (1 a 100,000); se usa 100,000."),
        "{text:?}"
    );
    assert!(
        text.contains(&"Reintentos por cliente: 0 está fuera del rango permitido (1 a 10); se usa 1."),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("Jitter: no se entiende «mucho»")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("Ventana: no se entiende «abc»")),
        "{text:?}"
    );
}

#[test]
fn the_largest_run_is_bounded() {
    // The worst case the bounds allow: 100,000 clients, one served per window, 10 retries each.
    let p = HerdParams {
        clients: 100_000,
        capacity: 1,
        window_ms: 1000,
        retries: 10,
        jitter: Jitter::None,
        ..HerdParams::default()
    };
    let r = simulate(&p);
    assert!(r.attempts <= 1_000_000);
    assert_eq!(r.served + r.gave_up, 100_000);
}

/// A URL query of up to 8 `key=value` pairs: the keys given, and values
/// in range, out of range, unreadable, or of another kind.
fn query_of(key: impl Strategy<Value = &'static str>) -> impl Strategy<Value = String> {
    let value = prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-1e300".to_string()),
        Just("1e12".to_string()),
        Just("none".to_string()),
        Just("".to_string()),
        Just("on".to_string()),
        Just("off".to_string()),
        Just("bottom".to_string()),
        Just("expired".to_string()),
        Just("wait".to_string()),
        Just("login".to_string()),
        Just("closed".to_string()),
        Just("%ZZ".to_string()),
    ];
    proptest::collection::vec((key, value), 0..8).prop_map(|kv| {
        kv.into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    })
}

mod timeouts_and_capacity {
    use proptest::prelude::*;
    use sensei_lab::sim::chain::{self, ChainParams};
    use sensei_lab::sim::clocks::{self, ClocksParams};
    use sensei_lab::sim::inflight::{self, InflightParams, MAX_ARRIVALS};
    use sensei_lab::sim::params;

    fn query() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("rps"),
            Just("pods"),
            Just("timeout-ms"),
            Just("other-ms"),
            Just("max-inflight"),
            Just("duration-s"),
            Just("arrivals"),
            Just("connect-ms"),
            Just("gap-ms"),
            Just("chunks"),
            Just("read-timeout-ms"),
            Just("total-timeout-ms"),
            Just("prep-ms"),
            Just("queue-ms"),
            Just("compute-ms"),
            Just("deadline"),
            Just("cancel"),
        ];
        super::query_of(key)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn any_query_runs_bounded_and_within_bounds(q in query()) {
            let (c, _) = params::from_query::<ClocksParams>(&q);
            prop_assert!(params::check(&c).is_ok());
            let r = clocks::run(&c);
            prop_assert!(r.chunks_ms.len() <= clocks::MAX_MARKS);

            let (i, _) = params::from_query::<InflightParams>(&q);
            prop_assert!(params::check(&i).is_ok());
            let f = inflight::formula(&i);
            prop_assert!(f.rejected_share >= 0.0 && f.rejected_share < 1.0);
            let s = inflight::simulate(&i);
            prop_assert!(s.arrivals <= MAX_ARRIVALS);
            prop_assert_eq!(s.served + s.rejected, s.arrivals);
            prop_assert!(s.curve.len() <= inflight::SAMPLES + 2);

            let (h, _) = params::from_query::<sensei_lab::sim::hedging::HedgingParams>(&q);
            prop_assert!(params::check(&h).is_ok());
            let hr = sensei_lab::sim::hedging::simulate(&h);
            prop_assert!(hr.extra_load >= 0.0 && hr.extra_load <= 1.0);
            prop_assert!(hr.without.p50 <= hr.without.p99);

            let (sh, _) = params::from_query::<sensei_lab::sim::shedding::SheddingParams>(&q);
            prop_assert!(params::check(&sh).is_ok());
            let sr = sensei_lab::sim::shedding::simulate(&sh);
            prop_assert!(sr.shedding.arrivals <= sensei_lab::sim::shedding::MAX_ARRIVALS);
            prop_assert!(sr.shedding.rejected + sr.shedding.late <= sr.shedding.arrivals);

            let (ch, _) = params::from_query::<ChainParams>(&q);
            prop_assert!(params::check(&ch).is_ok());
            let r = chain::run(&ch);
            prop_assert!(r.call_timeout_ms <= ch.triton_cap_ms);
            if ch.deadline.is_on() {
                prop_assert!(r.call_timeout_ms as i64 <= r.left_ms.max(0));
            }
        }
    }
}

mod failures {
    use proptest::prelude::*;
    use sensei_lab::sim::failures::{decide, parse_retry_after, Failure, Situation};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn retry_after_never_panics(v in "\\PC{0,40}", now in any::<i32>()) {
            let _ = parse_retry_after(&v, now as i64);
        }

        #[test]
        fn a_decision_for_any_code_and_header(code in 100u16..600, v in "[0-9A-Za-z, :]{0,32}", left in 0u64..10_000_000) {
            let d = decide(&Situation { failure: Failure::Status(code), retry_after: Some(&v), left_ms: left, ..Situation::batch() });
            prop_assert!(!d.why.is_empty());
            if (400..500).contains(&code) && code != 429 {
                prop_assert!(!d.retry);
            }
            if d.retry {
                prop_assert!(d.after_ms.unwrap() < left);
            }
        }
    }
}

mod breaker {
    use proptest::prelude::*;
    use sensei_lab::sim::breaker::{simulate, Breaker, BreakerConfig, BreakerParams, State};
    use sensei_lab::sim::policy::time::Secs;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn only_legal_transitions(outcomes in proptest::collection::vec((0.0f64..2.0, any::<bool>(), any::<bool>()), 0..400),
                                  min_calls in 1usize..30, probes in 1usize..6) {
            let mut b = Breaker::new(BreakerConfig { min_calls, probes, open: Secs(3.0), window: Secs(5.0), threshold_pct: 50.0 });
            let (mut t, mut last) = (0.0, State::Closed);
            for (dt, call, ok) in outcomes {
                t += dt;
                // Look at the state after every step, so that no move goes unseen.
                let before = b.state(Secs(t));
                prop_assert!(before == last || last.may_become(before), "{:?} -> {:?}", last, before);
                if call && b.allow(Secs(t)) {
                    b.record(Secs(t + 0.1), ok);
                }
                let now = b.state(Secs(t + 0.1));
                prop_assert!(now == before || before.may_become(now), "{:?} -> {:?}", before, now);
                last = now;
            }
        }

        #[test]
        fn the_simulation_is_bounded(rps in 1u32..10_000, duration in 10u32..600, recover in proptest::option::of(1u32..600)) {
            let r = simulate(&BreakerParams { rps, duration_s: duration, recover_s: recover, ..BreakerParams::default() });
            for w in r.transitions.windows(2) {
                prop_assert!(w[0].1.may_become(w[1].1));
            }
        }
    }
}

mod storms_budgets_and_keys {
    use proptest::prelude::*;
    use sensei_lab::sim::idempotency::{play, Action, Attempt, InProgress, Op};
    use sensei_lab::sim::params;
    use sensei_lab::sim::policy::budget::RetryBudget;
    use sensei_lab::sim::storm::{self, RetryIn, StormParams};
    use std::collections::HashMap;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whenever the budget lets a retry through, the retries in its window
        /// stay within its share of the requests in that window.
        #[test]
        fn the_budget_never_lets_retries_pass_its_share(
            steps in proptest::collection::vec((0.0f64..80.0, any::<bool>()), 0..600),
            pct in 0u32..=100,
        ) {
            let ratio = pct as f64 / 100.0;
            let mut b = RetryBudget::new(ratio, 1_000.0);
            let mut t = 0.0;
            for (dt, is_request) in steps {
                t += dt;
                if is_request {
                    b.request(t);
                } else if b.try_retry(t) {
                    let (req, ret) = b.counts(t);
                    prop_assert!(ret as f64 <= ratio * req as f64 + 1e-9, "{} retries for {} requests", ret, req);
                }
            }
        }

        /// However a script of attempts and waits goes, while keys are kept
        /// longer than the script lasts, no key's operation is done twice, and
        /// no attempt gets the answer of another body.
        #[test]
        fn the_store_never_performs_a_keys_operation_twice(
            steps in proptest::collection::vec((0u8..4, 0u8..3, 0u32..4_000, any::<bool>(), 0u32..3_000), 0..60),
            wait in any::<bool>(),
        ) {
            let mut actions = Vec::new();
            for (key, body, work, lose, advance) in steps {
                actions.push(Action::Send(Attempt {
                    op: Op::Refund,
                    key: (key > 0).then(|| format!("k{key}")),
                    body: format!("monto {body}"),
                    work_ms: work as f64,
                    lose_reply: lose,
                }));
                actions.push(Action::Advance { ms: advance as f64 });
            }
            let policy = if wait { InProgress::Wait } else { InProgress::Conflict };
            let r = play(&actions, 1e12, policy);
            let mut per_key: HashMap<&str, usize> = HashMap::new();
            for (k, _) in &r.performed {
                if let Some(k) = k {
                    *per_key.entry(k.as_str()).or_default() += 1;
                }
            }
            prop_assert!(per_key.values().all(|n| *n == 1), "{:?}", per_key);
            // The body a key was first used with is the only one it was performed with.
            for row in &r.rows {
                if let Some(reply) = &row.reply {
                    prop_assert!(reply.starts_with("200") || reply.starts_with("409") || reply.starts_with("422"));
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Any storm runs bounded; with retries in one layer under a budget,
        /// the retries stay near the budget's share of the requests.
        #[test]
        fn storms_are_bounded_and_budgets_hold(
            rps in 1u32..400, capacity in 1u32..600, layers in 1u32..=4, retries in 0u32..=5,
            bottom in any::<bool>(), budget in proptest::option::of(0u32..=100), breaker in any::<bool>(),
            trigger_ms in 0u32..20_000, timeout_ms in 10u32..3_000, seed in any::<u32>(),
        ) {
            let p = StormParams {
                rps, capacity, layers, retries, trigger_ms, timeout_ms, seed,
                retry_in: if bottom { RetryIn::Bottom } else { RetryIn::All },
                budget_pct: budget,
                breaker: if breaker { sensei_lab::sim::params::Toggle::On } else { sensei_lab::sim::params::Toggle::Off },
                duration_s: 20,
                ..StormParams::default()
            };
            prop_assert!(params::check(&p).is_ok());
            let r = storm::simulate(&p);
            prop_assert!(r.attempts <= storm::MAX_ATTEMPTS);
            prop_assert!(r.amplification <= ((retries + 1) as f64).powi(layers as i32) + 1e-9);
            for b in &r.buckets {
                for v in [b.fresh, b.offered, b.retries, b.goodput, b.zombie, b.fallbacks, b.failed] {
                    prop_assert!(v.is_finite() && v >= 0.0);
                }
                prop_assert!(b.retries <= b.offered);
            }
            if let (true, Some(pct)) = (bottom, budget) {
                let sum = |f: fn(&storm::Bucket) -> f64| r.buckets.iter().map(f).sum::<f64>() * r.bucket_s;
                // Each 1 s window holds retries within its share; two overlapping windows bound the whole run.
                prop_assert!(sum(|b| b.retries) <= 2.0 * pct as f64 / 100.0 * sum(|b| b.fresh) + 1.0);
            }
        }
    }

    fn query() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("rps"),
            Just("capacity"),
            Just("layers"),
            Just("retries"),
            Just("retry-in"),
            Just("budget-pct"),
            Just("breaker"),
            Just("trigger"),
            Just("trigger-ms"),
            Just("duration-s"),
            Just("scenario"),
            Just("in-progress"),
            Just("ttl-h"),
            Just("late-retry-h"),
            Just("work-s"),
            Just("incident"),
            Just("incident-pct"),
            Just("alert-pct"),
            Just("window-min"),
            Just("case"),
            Just("mode"),
            Just("per-min"),
            Just("bad-permille"),
        ];
        super::query_of(key)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Whatever a URL says, every scenario of these widgets gets parameters within bounds and runs.
        #[test]
        fn any_query_runs_within_bounds(q in query()) {
            let (s, _) = params::from_query::<StormParams>(&q);
            prop_assert!(params::check(&s).is_ok());
            let short = StormParams { duration_s: s.duration_s.min(30), ..s };
            prop_assert!(storm::simulate(&short).attempts <= storm::MAX_ATTEMPTS);
            let (k, _) = params::from_query::<sensei_lab::sim::idempotency::StoreParams>(&q);
            prop_assert!(params::check(&k).is_ok());
            prop_assert!(!sensei_lab::sim::idempotency::run(&k).rows.is_empty());
            let (d, _) = params::from_query::<sensei_lab::sim::degradation::DegradationParams>(&q);
            prop_assert!(params::check(&d).is_ok());
            let dr = sensei_lab::sim::degradation::run(&d);
            prop_assert!(dr.share_ok_status >= 0.0 && dr.share_ok_status <= 1.0);
            let (f, _) = params::from_query::<sensei_lab::sim::failmode::FailModeParams>(&q);
            prop_assert!(params::check(&f).is_ok());
            let fr = sensei_lab::sim::failmode::run(&f);
            prop_assert!(fr.bad_through + fr.good_blocked <= fr.items);
        }
    }
}

mod answers {
    use proptest::prelude::*;
    use sensei_lab::exercise::{build, check, COUNT};

    // Reading answers (any text, every unit, format then read back) has its
    // properties beside the reader, in src/exercise/answer.rs.
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Whatever is typed in every field of any exercise and variant, checking never panics.
        #[test]
        fn checking_anything(n in 1u32..=COUNT, v in 0u32..5_000, answers in proptest::collection::vec("\\PC{0,20}", 0..10)) {
            let ex = build(n, v).unwrap();
            prop_assert_eq!(check(&ex, &answers).len(), ex.parts.len());
        }
    }
}

mod store_script {
    //! The idempotency store's page (issue 42): the learner's own steps are
    //! lines of the one script its player plays, and whatever the hands do,
    //! the table, the player's moment and the verdict are of the same line.
    use proptest::prelude::*;
    use sensei_lab::sim::idempotency::{run, Edit, InProgress, Scenario, Step, StoreParams, MAX_STEPS};
    use sensei_lab::sim::playback::{kept_in, shown, snap, Playback};

    /// What a learner's hands do on the page.
    #[derive(Clone, Debug)]
    enum Hand {
        /// A «Sigue tú» button.
        Add(Step),
        /// «deshacer».
        Undo,
        /// ▶, frames at these shares of what is left of the run (a step
        /// added at one of them, perhaps), then ❚❚ or on to the end.
        Play {
            frames: Vec<f64>,
            add_at: Option<(usize, Step)>,
            pause: bool,
        },
        /// ◁, ▷, Home, End.
        Back,
        Forward,
        Home,
        End,
        /// The time slider let go at this share of the run (a whole line: its step is 1,000).
        Scrub(f64),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            Just(Step::SameKey),
            Just(Step::NoKey),
            Just(Step::NewKey),
            Just(Step::OtherBody),
            Just(Step::Wait(5_000)),
            Just(Step::Wait(3_600_000)),
            Just(Step::Wait(86_400_000)),
            (1u64..=sensei_lab::sim::idempotency::MAX_WAIT_MS).prop_map(Step::Wait),
        ]
    }

    fn hand() -> impl Strategy<Value = Hand> {
        prop_oneof![
            4 => step().prop_map(Hand::Add),
            1 => Just(Hand::Undo),
            2 => (proptest::collection::vec(0.0f64..1.0, 0..6), proptest::option::of((0usize..6, step())), any::<bool>())
                .prop_map(|(frames, add_at, pause)| Hand::Play { frames, add_at, pause }),
            3 => Just(Hand::Back),
            2 => Just(Hand::Forward),
            1 => Just(Hand::Home),
            1 => Just(Hand::End),
            2 => (0.0f64..=1.0).prop_map(Hand::Scrub),
        ]
    }

    fn scenario() -> impl Strategy<Value = Scenario> {
        proptest::sample::select(vec![
            Scenario::NoKey,
            Scenario::WithKey,
            Scenario::KeyPerAttempt,
            Scenario::InProgress,
            Scenario::OtherAmount,
            Scenario::Expired,
        ])
    }

    /// The page as the hands leave it: its parameters (the URL's `steps` and
    /// `line`), and its player's live moment (`ui::hooks::use_moment`).
    struct Page {
        p: StoreParams,
        live: Option<f64>,
    }

    impl Page {
        fn end(&self) -> f64 {
            run(&self.p).span().end_ms()
        }

        /// Where the player stands: the moment shown, the end when none is.
        fn t(&self) -> f64 {
            let end = self.end();
            shown(self.live, self.p.line, 1000.0, end)
                .unwrap_or(end)
                .clamp(0.0, end)
        }

        /// The player keeps a moment: live at once, in the parameter after;
        /// once the parameter has changed, the live moment is let go.
        fn keep(&mut self, t: f64) {
            let whole = kept_in(snap(t, self.end()), 1000.0);
            self.live = Some(whole as f64 * 1000.0);
            let line = Some(whole as u32);
            if self.p.line != line {
                self.p.line = line;
                self.live = None;
            }
        }

        fn edit(&mut self, e: Edit) {
            let before = self.p.line;
            self.p = self.p.edited(e);
            if self.p.line != before {
                self.live = None;
            }
        }
    }

    /// The operations a verdict says were done.
    fn said_done(verdict: &str) -> Option<usize> {
        if verdict.starts_with("Todavía no se hizo ninguna") {
            return Some(0);
        }
        if verdict.starts_with("La operación se hizo una sola vez") {
            return Some(1);
        }
        verdict
            .strip_prefix("La operación se hizo ")?
            .split(' ')
            .next()?
            .parse()
            .ok()
    }

    /// What the page shows is of one line: the player's moment, the table's
    /// rows, the store beside it and the verdict; and no moment past the end.
    fn one_line(page: &Page) -> Result<usize, TestCaseError> {
        let r = run(&page.p);
        let end = r.span().end_ms();
        prop_assert_eq!(end, r.rows.len() as f64 * 1000.0);
        prop_assert!(
            page.p.line.is_none_or(|l| l as f64 * 1000.0 <= end),
            "{:?} past {}",
            page.p.line,
            end
        );
        let t = page.t();
        let m = r.at(t);
        // The player says «línea k de n»: k the lines in the table, n the script's.
        prop_assert_eq!((t / 1000.0).floor() as usize, m.rows);
        // The verdict counts the operations finished in the rows shown.
        let finished = r.rows[..m.rows]
            .iter()
            .filter(|row| row.what.starts_with("el servidor termina"))
            .count();
        prop_assert_eq!(said_done(&m.verdict.1), Some(finished), "{}", m.verdict.1);
        prop_assert_eq!(m.performed, finished);
        match m.rows.checked_sub(1).map(|i| &r.rows[i]) {
            Some(last) => {
                prop_assert_eq!(&m.store, &last.store);
                prop_assert_eq!(m.t_ms, last.t_ms);
                prop_assert_eq!(m.performed, last.performed);
            }
            None => prop_assert!(m.store.is_empty() && m.t_ms == 0.0),
        }
        Ok(m.rows)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn the_table_the_moment_and_the_verdict_are_of_one_line(
            scenario in scenario(), wait in any::<bool>(), opened_with in proptest::collection::vec(step(), 0..4),
            hands in proptest::collection::vec(hand(), 0..40),
        ) {
            let p = StoreParams {
                scenario,
                in_progress: if wait { InProgress::Wait } else { InProgress::Conflict },
                steps: sensei_lab::sim::idempotency::steps_text(&opened_with),
                ..StoreParams::default()
            };
            let mut page = Page { p, live: None };
            // The steps the learner took, kept apart from the page's.
            let mut taken = opened_with.clone();
            one_line(&page)?;
            for hand in hands {
                let lines_before = run(&page.p).rows.len();
                let shown_before = one_line(&page)?;
                match hand {
                    Hand::Add(s) => {
                        page.edit(Edit::Add(s));
                        if taken.len() < MAX_STEPS {
                            taken.push(s);
                            // A step is shown at once: the script's end, one line more at least.
                            let r = run(&page.p);
                            prop_assert!(r.rows.len() > lines_before);
                            prop_assert_eq!(one_line(&page)?, r.rows.len());
                        }
                    }
                    Hand::Undo => {
                        page.edit(Edit::Undo);
                        taken.pop();
                    }
                    Hand::Play { frames, add_at, pause } => {
                        // ▶ at the end plays from the start.
                        let mut clock = page.t();
                        if clock >= page.end() {
                            clock = 0.0;
                            page.keep(0.0);
                        }
                        let mut ended = false;
                        for (i, share) in frames.iter().enumerate() {
                            if let Some((at, s)) = add_at {
                                if at == i {
                                    page.edit(Edit::Add(s));
                                    if taken.len() < MAX_STEPS {
                                        taken.push(s);
                                    }
                                }
                            }
                            let end = page.end();
                            clock += share * (end - clock);
                            if clock >= end {
                                page.keep(end);
                                ended = true;
                                break;
                            }
                            page.live = Some(clock);
                            one_line(&page)?;
                        }
                        if !ended {
                            let end = page.end();
                            page.keep(if pause { clock } else { end });
                        }
                    }
                    Hand::Back => {
                        let span = run(&page.p).span();
                        page.keep(span.prev_stop(page.t()));
                        // One line back, on the same script.
                        prop_assert_eq!(one_line(&page)?, shown_before.saturating_sub(1));
                        prop_assert_eq!(run(&page.p).rows.len(), lines_before);
                    }
                    Hand::Forward => {
                        let span = run(&page.p).span();
                        page.keep(span.next_stop(page.t()));
                        prop_assert_eq!(one_line(&page)?, (shown_before + 1).min(lines_before));
                    }
                    Hand::Home => page.keep(0.0),
                    Hand::End => page.keep(page.end()),
                    Hand::Scrub(share) => {
                        let end = page.end();
                        let v = ((share * end / 1000.0).round() * 1000.0).min(end);
                        page.live = Some(v);
                        one_line(&page)?;
                        page.keep(v);
                        prop_assert_eq!(one_line(&page)?, (v / 1000.0) as usize);
                    }
                }
                one_line(&page)?;
                // The page's steps are the learner's, in order (a link with its URL replays them).
                prop_assert_eq!(page.p.steps().0, taken.clone());
            }
        }

        /// Steps as the parameter writes them are read back as they were.
        #[test]
        fn steps_are_read_back_as_written(steps in proptest::collection::vec(step(), 0..=MAX_STEPS)) {
            let text = sensei_lab::sim::idempotency::steps_text(&steps);
            prop_assert!(text.chars().count() <= sensei_lab::sim::idempotency::STEPS_MAX_CHARS);
            let (back, notes) = sensei_lab::sim::idempotency::steps_of(&text);
            prop_assert_eq!(back, steps);
            prop_assert!(notes.is_empty());
        }
    }
}
