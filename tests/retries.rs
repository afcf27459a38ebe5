//! The figures of «Duplicar la espera», «Cada capa multiplica» and «El
//! presupuesto de reintentos», and exercises 2 and 4, computed by the core.
//! Expected values are the lesson's text and worked solutions.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::sim::params::Toggle;
use sensei_lab::sim::policy::backoff::Jitter;
use sensei_lab::sim::retries::{self, backoff, budget, layers, BackoffParams, BudgetParams, LayersParams};

#[test]
fn doubling_the_wait() {
    // «Con una base de 100 ms … 200 ms antes del primero, 400 antes del segundo, 800 antes del tercero.»
    let t = backoff(&BackoffParams {
        base_ms: 100,
        cap_ms: None,
        retries: 3,
        jitter: Jitter::None,
        seed: 7,
    });
    assert_eq!(
        t.rows.iter().map(|r| r.max_ms).collect::<Vec<_>>(),
        [200.0, 400.0, 800.0]
    );
    // «en vez de esperar exactamente 100 × 2ⁿ ms, cada cliente espera un tiempo al azar entre 0 y 100 × 2ⁿ ms …
    //  En promedio se espera la mitad»
    let full = backoff(&BackoffParams {
        base_ms: 100,
        cap_ms: None,
        retries: 3,
        jitter: Jitter::Full,
        seed: 7,
    });
    assert_eq!(
        full.rows
            .iter()
            .map(|r| (r.min_ms, r.max_ms, r.mean_ms))
            .collect::<Vec<_>>(),
        [(0.0, 200.0, 100.0), (0.0, 400.0, 200.0), (0.0, 800.0, 400.0)]
    );
}

#[test]
fn exercise_2() {
    let t = backoff(&BackoffParams::default());
    // «100, 200, 400, 800 y 1,000 ms (el quinto daría 1,600, pero el tope lo recorta)»
    assert_eq!(
        t.rows.iter().map(|r| r.max_ms).collect::<Vec<_>>(),
        [100.0, 200.0, 400.0, 800.0, 1000.0]
    );
    assert_eq!(t.rows[4].uncapped_ms, 1600.0);
    // «Máximo total: … = 2,500 ms.» «Con full jitter … en promedio, la mitad. 1,250 ms.»
    assert_eq!((t.total_max_ms, t.total_mean_ms), (2500.0, 1250.0));
}

#[test]
fn each_layer_multiplies() {
    // «cada llamada se vuelve hasta 4 intentos (1 + 3 reintentos)»: 1 → 4 → 16 → 64 (4³ = 64)
    assert_eq!(layers(&LayersParams::default()).reaching, [1.0, 4.0, 16.0, 64.0]);
    // Exercise 4 (a): «1 + 2 = 3 intentos: 3² = 9, y 500 × 9 = 4,500 por segundo.»
    let a = layers(&LayersParams {
        layers: 2,
        retries: 2,
        ..LayersParams::default()
    });
    assert_eq!(
        (*a.reaching.last().unwrap(), *a.per_second.last().unwrap()),
        (9.0, 4500.0)
    );
    // (b): «2⁴ = 16, y 500 × 16 = 8,000 por segundo.»
    let b = layers(&LayersParams {
        layers: 4,
        retries: 1,
        ..LayersParams::default()
    });
    assert_eq!(
        (*b.reaching.last().unwrap(), *b.per_second.last().unwrap()),
        (16.0, 8000.0)
    );
    // «reintentos en una sola capa … y que esa capa pase hacia arriba un error de «no reintentes»»
    let one = layers(&LayersParams {
        one_layer: Toggle::On,
        ..LayersParams::default()
    });
    assert_eq!(*one.reaching.last().unwrap(), 4.0);
}

#[test]
fn the_budget_in_numbers() {
    // «El gateway manda 500 requests por segundo y, de pronto, el 20 % falla. Para reintentarlas todas
    //  mandaría 100 reintentos por segundo; el presupuesto permite 0.1 × 500 = 50.»
    let r = budget(&BudgetParams::default());
    assert_eq!((r.wanted_per_s, r.allowed_per_s), (100.0, 50.0));
    // «Si es grande, el presupuesto se acaba y la carga extra se queda en 10 %, en vez de multiplicarse.»
    let all_fail = r.curve.last().unwrap();
    assert_eq!(all_fail.0, 1.0);
    assert_eq!(all_fail.2, 0.1);
    assert_eq!(all_fail.1, 2.0, "without it, 3 attempts per request: 200 % extra");
    // The budget never lets retries pass its share.
    assert!(r.curve.iter().all(|c| c.2 <= 0.1 + 1e-12));
    // Under the chart, the chosen share itself: at 20 %, 0.2 + 0.2² = 24 % extra without a budget.
    assert!(
        retries::extra_sentence(&r).starts_with("Con 20 % de fallas: carga extra 24 % sin presupuesto, 10 % con él")
    );
    // Off the curve's 2 % grid: at 25 %, 0.25 + 0.0625 = 31 % (not the 24 % point's 30 %).
    let r = budget(&BudgetParams {
        failing_pct: 25,
        ..BudgetParams::default()
    });
    assert_eq!(r.here.0, 0.25);
    assert_eq!(r.here.1, 0.3125);
    assert!(
        retries::extra_sentence(&r).starts_with("Con 25 % de fallas: carga extra 31 % sin presupuesto, 10 % con él")
    );
}

#[test]
fn exercise_1_what_each_failure_says() {
    use sensei_lab::sim::failures::{decide, Failure, Situation};
    // «(a) Sí, mejor contra otra réplica»
    assert!(
        decide(&Situation {
            failure: Failure::ConnectionRefused,
            ..Situation::batch()
        })
        .retry
    );
    // «(b) No: los datos están mal»
    assert!(
        !decide(&Situation {
            failure: Failure::Status(422),
            ..Situation::batch()
        })
        .retry
    );
    // «(c) Sí, después de al menos 2 s, y dentro del presupuesto.»
    let c = decide(&Situation {
        failure: Failure::Status(429),
        retry_after: Some("2"),
        ..Situation::batch()
    });
    assert!(c.retry && c.after_ms == Some(2_000));
    let out_of_budget = decide(&Situation {
        failure: Failure::Status(429),
        retry_after: Some("2"),
        budget_left: false,
        ..Situation::batch()
    });
    assert!(!out_of_budget.retry);
    // «(d) No: 2 s no caben en 300 ms.»
    assert!(
        !decide(&Situation {
            failure: Failure::Status(429),
            retry_after: Some("2"),
            ..Situation::interactive()
        })
        .retry
    );
    // «(e) No: la request es demasiado grande»
    assert!(
        !decide(&Situation {
            failure: Failure::Status(413),
            ..Situation::batch()
        })
        .retry
    );
}

#[test]
fn exercise_7_the_breaker() {
    use sensei_lab::sim::breaker::{simulate, BreakerParams, State};
    let r = simulate(&BreakerParams::default());
    // «(a) … ≈ 5 s después, a las 12:00:05.»
    assert_eq!(r.transitions[0].1, State::Open);
    assert!((r.transitions[0].0 - 5.0).abs() < 0.2);
    // «(b) 500 × 5 = ≈ 2,500 requests, cada una con su 504 a los ≈ 150 ms.»
    assert!((r.waited_before_open as f64 / 2_500.0 - 1.0).abs() < 0.05);
    // «(c) 500 × 30 = 15,000, cada una con su plan B»
    assert_eq!(r.fallbacks_first_open, 15_000);
    // «(d) A las 12:00:35 pasa a semiabierto y deja pasar 5 llamadas de prueba. Fallan, y se abre otros 30 s.»
    assert_eq!((r.transitions[1].1, r.transitions[2].1), (State::HalfOpen, State::Open));
    assert!((r.transitions[1].0 - 35.0).abs() < 0.3);
    let probes: u32 = r.seconds.iter().filter(|s| s.t == 35).map(|s| s.calls).sum();
    assert_eq!(probes, 5);
}
