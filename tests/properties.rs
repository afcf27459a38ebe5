//! Invariants of the herd simulation and its policies, for any parameters.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use sensei_lab::sim::backoff::{Backoff, Jitter};
use sensei_lab::sim::herd::{simulate, HerdParams};
use sensei_lab::sim::params::{self, Params};
use sensei_lab::sim::rng::PyRandom;

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
        HerdParams { clients, capacity, window_ms, base_ms, cap_ms, retries, jitter, seed }
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
        ];
        proptest::collection::vec((key, value), 0..8).prop_map(|kv| {
            kv.into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("&")
        })
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn only_legal_transitions(outcomes in proptest::collection::vec((0.0f64..2.0, any::<bool>(), any::<bool>()), 0..400),
                                  min_calls in 1usize..30, probes in 1usize..6) {
            let mut b = Breaker::new(BreakerConfig { min_calls, probes, open_s: 3.0, window_s: 5.0, threshold_pct: 50.0 });
            let (mut t, mut last) = (0.0, State::Closed);
            for (dt, call, ok) in outcomes {
                t += dt;
                // Look at the state after every step, so that no move goes unseen.
                let before = b.state(t);
                prop_assert!(before == last || last.may_become(before), "{:?} -> {:?}", last, before);
                if call && b.allow(t) {
                    b.record(t + 0.1, ok);
                }
                let now = b.state(t + 0.1);
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
