//! The figures of «Timeouts» and «Deadlines», and exercises 5 and 6, computed
//! by the core. Expected values come from the lesson's text and its worked
//! solutions (the arithmetic is written out next to each).

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::sim::chain::{self, CallerGets, ChainParams, FirstToGiveUp};
use sensei_lab::sim::clocks::{self, ClocksParams, Outcome};
use sensei_lab::sim::inflight::{formula, lesson_table, simulate, InflightParams};
use sensei_lab::sim::params::Toggle;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_byte_every_9_s_and_a_10_s_read_timeout() {
    // «Un servidor que manda un byte cada 9 segundos nunca dispara un timeout de lectura de 10 s.»
    let never = ClocksParams {
        gap_ms: 9_000,
        chunks: None,
        read_timeout_ms: Some(10_000),
        total_timeout_ms: None,
        ..ClocksParams::default()
    };
    assert_eq!(clocks::run(&never).outcome, Outcome::NeverEnds);
    // «Timeout total: … el único que acota de verdad cuánto dura todo.»
    let bounded = ClocksParams {
        total_timeout_ms: Some(30_000),
        ..never
    };
    assert_eq!(clocks::run(&bounded).outcome, Outcome::TotalTimeout { at_ms: 30_000 });
    // «Sin timeout, la espera no tiene fin.»
    let none = ClocksParams {
        connect_timeout_ms: None,
        read_timeout_ms: None,
        total_timeout_ms: None,
        ..ClocksParams::default()
    };
    assert_eq!(
        clocks::run(&none).outcome.sentence(),
        "Ningún reloj se dispara y la espera no tiene fin."
    );
}

#[test]
fn little_and_the_16_places() {
    let f = formula(&InflightParams::default());
    // «a 500 por segundo, con Triton trabado, un timeout de 150 ms deja 75 llamadas colgadas»: 500 × 0.15
    assert!(close(f.service_inflight, 75.0));
    let five = formula(&InflightParams {
        timeout_ms: 5_000,
        ..InflightParams::default()
    });
    // «y uno de 5 s, 2,500»: 500 × 5
    assert!(close(five.service_inflight, 2_500.0));
    // «19 en vuelo contra 16 lugares»: 500 ÷ 5 = 100 por pod, × (40 + 150) ms
    assert!(close(f.pod_rate, 100.0));
    assert!(close(f.pod_demand, 19.0));
    // «≈ 16 % recibe un 503»: 1 − 16/19 = 15.8 %
    assert_eq!((f.rejected_share * 100.0).round(), 16.0);
    assert!(
        !f.answers_after_caller_left,
        "«cada request recibe su respuesta a tiempo»"
    );
    // «Sin el tope de 16, con el timeout de 5 s … 504 fotos de hasta 10 MB son hasta 5 GB, en un pod de 1 GiB.»
    let uncapped = formula(&InflightParams {
        timeout_ms: 5_000,
        max_inflight: None,
        ..InflightParams::default()
    });
    assert!(close(uncapped.pod_demand, 504.0));
    assert_eq!((uncapped.photos_mb / 1000.0).round(), 5.0);
    assert!(uncapped.photos_mb > uncapped.pod_memory_mb);
}

#[test]
fn the_rebuilt_table() {
    let t = lesson_table(&InflightParams::default());
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].timeout_ms, t[0].slots), (150, 16));
    assert!(close(t[0].demand, 19.0));
    assert_eq!((t[0].rejected_share * 100.0).round(), 16.0);
    assert_eq!((t[1].timeout_ms, t[1].slots), (5_000, 16));
    assert!(close(t[1].demand, 504.0));
    assert!(close(t[1].photos_uncapped_mb, 5_040.0));
}

#[test]
fn exercise_6_400_ms() {
    let f = formula(&InflightParams {
        timeout_ms: 400,
        ..InflightParams::default()
    });
    // «cada request dura ahora ≈ 40 + 400 = 440 ms. Little: 100 × 0.44 = 44 en vuelo»
    assert!(close(f.duration_s, 0.44));
    assert!(close(f.pod_demand, 44.0));
    // «el pod despacha 16 ÷ 0.44 ≈ 36 por segundo. Se rechazan ≈ 64 de 100: ≈ 64 %.»
    assert_eq!(f.served_per_s.round(), 36.0);
    assert_eq!((f.rejected_share * 100.0).round(), 64.0);
    // «el caller se fue a los 300: su respuesta llega cuando nadie la espera»
    assert!(f.answers_after_caller_left);
}

#[test]
fn the_simulation_agrees_with_the_formula_within_a_few_percent() {
    for timeout_ms in [150, 400] {
        let p = InflightParams {
            timeout_ms,
            duration_s: 60,
            ..InflightParams::default()
        };
        let (f, s) = (formula(&p), simulate(&p));
        assert!(
            (s.rejected_share.expect("a steady state") - f.rejected_share).abs() < 0.02,
            "{timeout_ms}: {} vs {}",
            s.rejected_share.expect("a steady state"),
            f.rejected_share
        );
        assert!((s.mean_inflight.expect("a steady state") / f.pod_inflight - 1.0).abs() < 0.03);
        assert_eq!(s.max_inflight, 16);
    }
    let p = InflightParams {
        timeout_ms: 5_000,
        max_inflight: None,
        duration_s: 60,
        ..InflightParams::default()
    };
    let (f, s) = (formula(&p), simulate(&p));
    assert!(
        (s.mean_inflight.expect("a steady state") / f.pod_demand - 1.0).abs() < 0.03,
        "{} vs {}",
        s.mean_inflight.expect("a steady state"),
        f.pod_demand
    );
    assert_eq!(s.max_inflight, 504);
}

#[test]
fn exercise_5_and_the_chain() {
    // «(a) Quedan 250 − 70 = 180 ms: min(150, 180) = 150 ms.»
    let a = chain::run(&ChainParams {
        prep_ms: 70,
        ..ChainParams::default()
    });
    assert_eq!((a.left_ms, a.call_timeout_ms), (180, 150));
    // «(b) Quedan 250 − 160 = 90 ms: min(150, 90) = 90 ms.»
    let b = chain::run(&ChainParams {
        prep_ms: 160,
        queue_ms: 500,
        cancel: Toggle::Off,
        ..ChainParams::default()
    });
    assert_eq!((b.left_ms, b.call_timeout_ms), (90, 90));
    // «el gateway se rinde a los 90 ms, antes que los 100 de la fila … es trabajo zombi»
    assert_eq!(b.first, FirstToGiveUp::Gateway);
    assert!(b.gateway_gives_up_ms < b.queue_rejects_ms.unwrap());
    assert!(b.zombie_queue.is_some());
    // «por eso conviene que el gateway cancele hacia abajo»
    let cancelled = chain::run(&ChainParams {
        prep_ms: 160,
        queue_ms: 500,
        cancel: Toggle::On,
        ..ChainParams::default()
    });
    assert_eq!((cancelled.zombie_queue, cancelled.zombie_compute), (None, None));
    // The 50 ms between the gateway's 250 and the caller's 300 let the 504 arrive in time.
    assert_eq!(b.caller_gets, CallerGets::GatewayTimeout);
    assert!(b.caller_done_ms <= 300);
}

#[test]
fn the_first_common_mistake() {
    // «un gateway que le da 5 s a Triton cuando el caller se va a los 300 ms»
    let p = ChainParams {
        triton_cap_ms: 5_000,
        deadline: Toggle::Off,
        cancel: Toggle::Off,
        queue_ms: 0,
        compute_ms: 5_000,
        ..ChainParams::default()
    };
    let r = chain::run(&p);
    assert!(r.misconfigured);
    assert_eq!(r.caller_gets, CallerGets::OwnTimeout);
    assert!(r.zombie_compute_ms() > 4_000, "the GPU computes for nobody");
}

#[test]
fn exercise_8_hedging_at_the_p95() {
    use sensei_lab::sim::hedging::{formula, simulate, HedgingParams};
    let p = HedgingParams::default();
    let r = simulate(&p);
    // «(a) El 3 % lento es más que el 1 % que deja afuera el p99: el p99 cae en una pausa, ≈ 800 ms.»
    assert_eq!(r.without.p99, 800.0);
    // «su p95 es de 50 ms»
    assert!((r.without.p95 - 50.0).abs() <= 2.5, "p95 = {}", r.without.p95);
    let w = r.with.clone().unwrap();
    // «(b) Siguen lentas 0.03 × 0.03 = 0.09 %, menos del 1 %.»
    assert!((formula(&p).still_slow - 0.0009).abs() < 1e-12);
    assert!((r.slow_with - 0.0009).abs() < 0.0003, "measured {}", r.slow_with);
    // «Una rescatada tarda a lo más 50 + 40 = ≈ 90 ms, y ese es el nuevo p99, más o menos.»
    assert!((w.p99 - 90.0).abs() <= 5.0, "p99 = {}", w.p99);
    // «Cuesta ≈ 5 % de carga: las que pasan del p95.»
    assert!((r.extra_load - 0.05).abs() < 0.002);
    assert_eq!(formula(&p).extra_load, 0.05);
    // «(c) El 5 % extra la sube a ≈ 0.9 × 1.05 ≈ 94.5 % de uso»
    assert_eq!(formula(&p).gpu_after_pct, 94.5);
}

#[test]
fn load_shedding_as_the_lesson_tells_it() {
    use sensei_lab::sim::shedding::{simulate, SheddingParams};
    let r = simulate(&SheddingParams::default());
    // «Lo peor es encolar sin límite: la fila crece, la espera crece con ella y, al final,
    //  cada request vence su deadline adentro de la fila.»
    let last = r.unbounded.seconds.last().unwrap();
    assert_eq!(last.goodput, 0);
    assert!(last.late > 0);
    assert!(
        r.unbounded
            .seconds
            .windows(2)
            .skip(2)
            .all(|w| w[1].max_queue >= w[0].max_queue),
        "the queue only grows"
    );
    // «rechazar de inmediato lo que no vas a poder atender a tiempo, con un 503»:
    // goodput stays near the capacity (100 per second) and nothing is answered late.
    let s = &r.shedding;
    let steady = &s.seconds[1..];
    let goodput = steady.iter().map(|x| x.goodput as f64).sum::<f64>() / steady.len() as f64;
    assert!(goodput > 0.9 * r.capacity_rps, "{goodput}");
    assert_eq!(s.late, 0);
    // «se suelta primero lo que no tiene a una persona esperando: los callers batch antes que la app de Ana»
    assert!(s.interactive_goodput_share.unwrap() > 0.9);
    assert!(s.batch_goodput_share.unwrap() < 0.5);
}
