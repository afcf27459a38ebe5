//! What each failure says, and whether to retry.
//!
//! Why: a retry helps only when the failure is transient. Status codes that
//! start with 4 say «the problem is your request», and repeating it gives the
//! same error; those that start with 5 say «the problem is mine», and may
//! pass. A timeout says nothing for sure: the request may not have arrived,
//! may still be running, or may have been done with its answer lost — so it
//! is retried only if repeating it is harmless. And a retry must fit: in the
//! deadline, after the server's `Retry-After`, within the budget.
//!
//! ```
//! use sensei_lab::sim::failures::{decide, Caller, Failure, Situation};
//! // Exercise 1 (d): a 429 with Retry-After: 2 on Ana's path, which gives up at 300 ms.
//! let d = decide(&Situation { failure: Failure::Status(429), retry_after: Some("2"), ..Situation::interactive() });
//! assert!(!d.retry);
//! ```

use crate::sim::params::{choice_keys, choice_options, ChoiceKey, Maybe, Toggle, ON_OFF};
use serde::{Deserialize, Serialize};

/// A failed call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failure {
    ConnectionRefused,
    Timeout,
    Status(u16),
}

/// Whether to retry, in short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Advice {
    Yes,
    /// Only if repeating it is harmless (idempotent or with a key), with backoff, within the budget.
    Careful,
    No,
}

/// A row of the lesson's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub failure: &'static str,
    pub meaning: &'static str,
    pub advice: Advice,
    pub retry: &'static str,
}

/// The failures of the table after «Eso ya decide mucho:», in its order.
pub const TABLE: &[(Failure, &str, &str, Advice, &str)] = &[
    (
        Failure::ConnectionRefused,
        "Conexión rechazada",
        "No hay ningún programa escuchando: la request nunca llegó.",
        Advice::Yes,
        "Sí, mejor contra otra réplica.",
    ),
    (
        Failure::Timeout,
        "Timeout",
        "No sabes qué pasó: no llegó, sigue trabajando lento, o se hizo y se perdió la respuesta.",
        Advice::Careful,
        "Con cuidado: solo si repetirla no hace daño, con backoff y dentro del presupuesto.",
    ),
    (
        Failure::Status(400),
        "400 Bad Request",
        "La request está mal hecha.",
        Advice::No,
        "No: la segunda vez va a estar igual de mal.",
    ),
    (
        Failure::Status(401),
        "401 / 403",
        "Falta la credencial, o no alcanza el permiso.",
        Advice::No,
        "No: primero hay que arreglar la credencial.",
    ),
    (
        Failure::Status(404),
        "404 Not Found",
        "Eso no existe.",
        Advice::No,
        "No.",
    ),
    (
        Failure::Status(409),
        "409 Conflict",
        "Choca con el estado actual, como una llave que sigue en curso.",
        Advice::No,
        "No: hay que resolver el conflicto.",
    ),
    (
        Failure::Status(413),
        "413 Content Too Large",
        "La request es demasiado grande.",
        Advice::No,
        "No: lo seguirá siendo.",
    ),
    (
        Failure::Status(422),
        "422 Unprocessable Content",
        "Está bien escrita, pero los datos no sirven.",
        Advice::No,
        "No: los datos van a estar mal la segunda vez.",
    ),
    (
        Failure::Status(429),
        "429 Too Many Requests",
        "Pasaste tu límite.",
        Advice::Yes,
        "Sí, después de su Retry-After.",
    ),
    (
        Failure::Status(500),
        "500 Internal Server Error",
        "Algo falló adentro del servidor.",
        Advice::Careful,
        "Con cuidado: una vez, con backoff, si repetirla no hace daño.",
    ),
    (
        Failure::Status(502),
        "502 Bad Gateway",
        "El de en medio recibió una mala respuesta del de atrás.",
        Advice::Yes,
        "Sí, con backoff.",
    ),
    (
        Failure::Status(503),
        "503 Service Unavailable",
        "«Estoy saturado», o no estoy por un rato.",
        Advice::Yes,
        "Sí, después de su Retry-After, con backoff.",
    ),
    (
        Failure::Status(504),
        "504 Gateway Timeout",
        "Al de en medio se le acabó el tiempo esperando al de atrás.",
        Advice::Careful,
        "Con cuidado, como un timeout.",
    ),
];

/// The row for a failure (403 shares 401's; other codes by their class).
pub fn classify(f: Failure) -> Row {
    let key = match f {
        Failure::Status(403) => Failure::Status(401),
        other => other,
    };
    if let Some((_, failure, meaning, advice, retry)) = TABLE.iter().find(|r| r.0 == key) {
        return Row {
            failure,
            meaning,
            advice: *advice,
            retry,
        };
    }
    match f {
        Failure::Status(c) if (400..500).contains(&c) => Row {
            failure: "otro 4xx",
            meaning: "El problema es tu request.",
            advice: Advice::No,
            retry: "No.",
        },
        _ => Row {
            failure: "otro 5xx",
            meaning: "El problema es del servidor.",
            advice: Advice::Careful,
            retry: "Con cuidado: con backoff, si repetirla no hace daño.",
        },
    }
}

/// Reads a `Retry-After` value as RFC 9110 defines it: delta-seconds, or an
/// HTTP-date (IMF-fixdate, e.g. `Wed, 02 Dec 2026 12:00:02 GMT`), counted
/// from `now` (seconds since 1970). A date in the past means «now». Anything
/// else is malformed, and a malformed header is ignored: `None`, never a crash.
pub fn parse_retry_after(value: &str, now_unix_s: i64) -> Option<u64> {
    let v = value.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        return Some(v.parse::<u64>().unwrap_or(u64::MAX));
    }
    let at = parse_imf_fixdate(v)?;
    Some((at - now_unix_s).max(0) as u64)
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` → seconds since 1970.
pub fn parse_imf_fixdate(s: &str) -> Option<i64> {
    let parts: Vec<&str> = s.split(' ').collect();
    if parts.len() != 6 || parts[5] != "GMT" || !parts[0].ends_with(',') {
        return None;
    }
    const DAYS: [&str; 7] = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    if !DAYS.contains(&parts[0]) || parts[1].len() != 2 || parts[3].len() != 4 {
        return None;
    }
    let day: u32 = parts[1].parse().ok()?;
    let month = MONTHS.iter().position(|m| *m == parts[2])? as u32 + 1;
    let year: i64 = parts[3].parse().ok()?;
    let hms: Vec<&str> = parts[4].split(':').collect();
    if hms.len() != 3 || hms.iter().any(|x| x.len() != 2) {
        return None;
    }
    let (h, m, sec): (i64, i64, i64) = (hms[0].parse().ok()?, hms[1].parse().ok()?, hms[2].parse().ok()?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if day == 0 || day > month_days[month as usize - 1] || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    Some(days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + sec)
}

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Who is calling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Caller {
    /// A person waits: the caller gives up when its deadline passes.
    Interactive,
    /// A program with no one waiting (it still has a budget).
    Batch,
}

/// Whether repeating the operation is harmless.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Repeat {
    Idempotent,
    WithKey,
    Unsafe,
}

/// Everything the decision looks at.
#[derive(Clone, Debug, PartialEq)]
pub struct Situation<'a> {
    pub failure: Failure,
    pub caller: Caller,
    /// Time left before the caller's deadline, in ms (batch callers: large).
    pub left_ms: u64,
    pub retry_after: Option<&'a str>,
    /// The moment of the answer, for an HTTP-date Retry-After (seconds since 1970).
    pub now_unix_s: i64,
    pub repeat: Repeat,
    pub budget_left: bool,
}

impl Situation<'static> {
    /// Ana's path: interactive, 300 ms, an idempotent call, budget left.
    pub fn interactive() -> Self {
        Situation {
            failure: Failure::Timeout,
            caller: Caller::Interactive,
            left_ms: 300,
            retry_after: None,
            now_unix_s: 1_796_212_800, // Wed, 02 Dec 2026 12:00:00 GMT
            repeat: Repeat::Idempotent,
            budget_left: true,
        }
    }
    /// A batch job: no one waiting, an hour to go.
    pub fn batch() -> Self {
        Situation {
            caller: Caller::Batch,
            left_ms: 3_600_000,
            ..Situation::interactive()
        }
    }
}

/// Retry or not, after how long, and why, in one Spanish sentence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub retry: bool,
    pub after_ms: Option<u64>,
    pub why: String,
}

pub fn decide(s: &Situation) -> Decision {
    let row = classify(s.failure);
    let no = |why: String| Decision {
        retry: false,
        after_ms: None,
        why,
    };
    if row.advice == Advice::No {
        return no(format!(
            "No: {}; repetirla da el mismo error.",
            crate::text::lower(row.meaning).trim_end_matches('.')
        ));
    }
    if row.advice == Advice::Careful && s.repeat == Repeat::Unsafe {
        return no("No: pudo haberse hecho y solo perderse la respuesta; repetirla sin llave de idempotencia la haría dos veces.".into());
    }
    if !s.budget_left {
        return no("No: ya se gastó el presupuesto de reintentos; falla de una vez.".into());
    }
    if s.left_ms == 0 {
        return no("No: ya no queda tiempo antes del deadline; ríndete y usa el plan B.".into());
    }
    let header = s.retry_after.map(|v| (v, parse_retry_after(v, s.now_unix_s)));
    let wait_ms = match header {
        Some((_, Some(secs))) => secs.saturating_mul(1000),
        _ => 0,
    };
    if wait_ms >= s.left_ms {
        return no(format!(
            "No: esperar {} s no cabe en los {} ms que quedan; ríndete y usa el plan B.",
            crate::fmt::es_dec(wait_ms as f64 / 1000.0, 3),
            crate::fmt::es_int(s.left_ms as i64)
        ));
    }
    // C01's rule: on the interactive path nobody retries (a second attempt
    // would have less time than the first, which was not enough, against a
    // dependency that is probably still saturated, while the plan B is cheap
    // and good). Only a refused connection, which never reached anyone, goes
    // to another replica at once.
    if s.caller == Caller::Interactive && s.failure != Failure::ConnectionRefused {
        return no(if s.failure == Failure::Timeout {
            "No: en el camino interactivo nadie reintenta. Un segundo intento tendría menos tiempo que el primero, que no alcanzó, contra una pieza que seguramente sigue saturada; el plan B es barato y bueno."
                .into()
        } else {
            "No: en el camino interactivo nadie reintenta. La pieza de atrás seguramente sigue en apuros y el reintento le sumaría carga; el plan B es barato y bueno."
                .into()
        });
    }
    let ignored = matches!(header, Some((_, None)));
    let why = match (s.failure, header) {
        (Failure::ConnectionRefused, _) => {
            "Sí, mejor contra otra réplica: no había nadie escuchando y la request nunca llegó.".to_string()
        }
        (_, Some((_, Some(0)))) => "Sí, ya: su Retry-After no pide esperar, y dentro del presupuesto.".to_string(),
        (_, Some((_, Some(secs)))) => format!(
            "Sí, después de al menos {} s, como pide su Retry-After, y dentro del presupuesto.",
            crate::fmt::es_int(secs as i64)
        ),
        _ if ignored => {
            "Sí, con backoff y jitter: el Retry-After no se entiende y, como dice el estándar, se ignora.".to_string()
        }
        _ if row.advice == Advice::Careful => {
            "Sí, con cuidado: repetirla no hace daño; con backoff y jitter, y dentro del presupuesto.".to_string()
        }
        _ => "Sí, con backoff y jitter, dentro del presupuesto.".to_string(),
    };
    Decision {
        retry: true,
        after_ms: Some(wait_ms),
        why,
    }
}

/// The failures the widget offers (the table's, with 401 and 403 apart):
/// `(failure, key, Spanish name)`, the key as in the URL and on the command line.
const FAILURES: [(Failure, &str, &str); 14] = [
    (Failure::ConnectionRefused, "refused", "Conexión rechazada"),
    (Failure::Timeout, "timeout", "Timeout"),
    (Failure::Status(400), "400", "400 Bad Request"),
    (Failure::Status(401), "401", "401 Unauthorized"),
    (Failure::Status(403), "403", "403 Forbidden"),
    (Failure::Status(404), "404", "404 Not Found"),
    (Failure::Status(409), "409", "409 Conflict"),
    (Failure::Status(413), "413", "413 Payload Too Large"),
    (Failure::Status(422), "422", "422 Unprocessable Entity"),
    (Failure::Status(429), "429", "429 Too Many Requests"),
    (Failure::Status(500), "500", "500 Internal Server Error"),
    (Failure::Status(502), "502", "502 Bad Gateway"),
    (Failure::Status(503), "503", "503 Service Unavailable"),
    (Failure::Status(504), "504", "504 Gateway Timeout"),
];
pub const FAILURE_OPTIONS: &[(&str, &str)] = &choice_options(&FAILURES);
impl ChoiceKey for Failure {
    const KEYS: &'static [(Self, &'static str)] = &choice_keys(&FAILURES);
}

const CALLERS: [(Caller, &str, &str); 2] = [
    (Caller::Interactive, "interactive", "interactivo (una persona espera)"),
    (Caller::Batch, "batch", "batch (nadie espera)"),
];
pub const CALLER_OPTIONS: &[(&str, &str)] = &choice_options(&CALLERS);
impl ChoiceKey for Caller {
    const KEYS: &'static [(Self, &'static str)] = &choice_keys(&CALLERS);
}

const REPEATS: [(Repeat, &str, &str); 3] = [
    (Repeat::Idempotent, "idempotent", "sí, es idempotente"),
    (Repeat::WithKey, "key", "sí, lleva llave de idempotencia"),
    (Repeat::Unsafe, "unsafe", "no (publicar, cobrar…)"),
];
pub const REPEAT_OPTIONS: &[(&str, &str)] = &choice_options(&REPEATS);
impl ChoiceKey for Repeat {
    const KEYS: &'static [(Self, &'static str)] = &choice_keys(&REPEATS);
}

/// The longest Retry-After the widget and the command line take (an
/// IMF-fixdate is 29 characters).
pub const RETRY_AFTER_MAX_CHARS: usize = 64;

crate::params! {
    /// «¿Reintentarías?»: a failure, who calls, the time left, a Retry-After
    /// as typed, whether repeating is harmless and the budget. The defaults
    /// are C01's interactive path (Ana's) and a timeout.
    pub struct FailureParams {
        /// The failure: refused, timeout or an HTTP status
        failure: Failure = Failure::Timeout => choice("La falla", FAILURE_OPTIONS),
        /// Who calls: interactive (a person waits) or batch (no one waits)
        caller: Caller = Caller::Interactive => choice("Quién llama", CALLER_OPTIONS),
        /// Time left before the caller's deadline in ms; none = the caller's own (interactive 300, batch 3600000)
        left_ms: Maybe = None => optional("Tiempo que queda antes del deadline", "ms", "el de quien llama", "otro", 0, 86_400_000),
        /// The Retry-After header as the server sent it: seconds, or an HTTP date; empty = none
        retry_after: String = String::new() => text("Retry-After", RETRY_AFTER_MAX_CHARS),
        /// Whether repeating the call is harmless: idempotent, with an idempotency key, or unsafe
        idempotency: Repeat = Repeat::Idempotent => choice("¿Se puede repetir sin daño?", REPEAT_OPTIONS),
        /// Whether the retry budget has room left
        budget_left: Toggle = Toggle::On => choice("Queda presupuesto de reintentos", ON_OFF),
    }
}

impl FailureParams {
    /// The time left the decision uses: the one given, or the caller's own.
    pub fn left_ms(&self) -> u64 {
        self.left_ms.map_or(
            match self.caller {
                Caller::Interactive => Situation::interactive().left_ms,
                Caller::Batch => Situation::batch().left_ms,
            },
            u64::from,
        )
    }

    /// The situation these parameters describe (a Retry-After of only
    /// spaces is none), at the moment the lesson's dates are read from.
    pub fn situation(&self) -> Situation<'_> {
        Situation {
            failure: self.failure,
            caller: self.caller,
            left_ms: self.left_ms(),
            retry_after: (!self.retry_after.trim().is_empty()).then_some(self.retry_after.as_str()),
            now_unix_s: Situation::interactive().now_unix_s,
            repeat: self.idempotency,
            budget_left: self.budget_left.is_on(),
        }
    }
}

/// What the command line says of it (`sensei-lab failure --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for FailureParams {
    const ABOUT: &'static str =
        "Would you retry? The decision for one failure and caller, then what each failure says on each of C01's paths (the lesson's table and rules).";
    const BUDGET: &'static str = "none needed (a table).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::{json, Value};
        let paths = [("ana", Situation::interactive()), ("batch", Situation::batch())];
        let situation = p.situation();
        let mine = decide(&situation);
        // Every failure of the table, decided on both paths.
        let decided = ctx.time(|| {
            TABLE
                .iter()
                .map(|&(failure, ..)| {
                    let row = classify(failure);
                    let ds = paths
                        .iter()
                        .map(|(_, s)| decide(&Situation { failure, ..s.clone() }))
                        .collect::<Vec<_>>();
                    (row, ds)
                })
                .collect::<Vec<_>>()
        });
        let mut rows = Vec::new();
        let name = FAILURES.iter().find(|(f, ..)| *f == p.failure).map_or("", |(.., n)| n);
        let caller = match p.caller {
            Caller::Interactive => "interactivo",
            Caller::Batch => "batch",
        };
        let header = situation
            .retry_after
            .map_or(String::new(), |h| format!(", Retry-After: «{h}»"));
        let mut lines = vec![
            format!(
                "tu caso ({name}, {caller}, quedan {} ms{header}): {}",
                crate::fmt::es_int(situation.left_ms.min(i64::MAX as u64) as i64),
                mine.why
            ),
            "lo que dice cada falla:".to_string(),
        ];
        for (&(_, name, ..), (row, ds)) in TABLE.iter().zip(&decided) {
            lines.push(format!("{name}: {}", row.retry));
            for (d, label) in ds.iter().zip(["  camino de Ana", "  trabajo batch"]) {
                lines.push(format!("{label}: {}", d.why));
            }
            let decisions: Vec<Value> = ds
                .iter()
                .zip(&paths)
                .map(|(d, (path, _))| json!({ "path": path, "retry": d.retry, "after_ms": d.after_ms, "why": d.why }))
                .collect();
            rows.push(
                json!({ "failure": name, "meaning": row.meaning, "advice": row.advice, "retry": row.retry,
                "decisions": decisions }),
            );
        }
        Run::plain(
            json!({ "decision": { "retry": mine.retry, "after_ms": mine.after_ms, "why": mine.why,
                "left_ms": situation.left_ms }, "rows": rows }),
            lines,
        )
    }
}

impl crate::sim::figures::TaskFigures for FailureParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("retry", "si reintenta", YesNo),
        crate::fig!("after-ms", "la espera antes de reintentar", Ms),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let d = decide(&self.situation());
        match key {
            "retry" => crate::sim::figures::yes(d.retry),
            "after-ms" => d.after_ms.filter(|_| d.retry).map(|v| v as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_are_the_tables_failures() {
        // Every failure of the table offered (401/403 apart), each named by its code.
        for (f, ..) in TABLE {
            assert!(Failure::KEYS.iter().any(|(g, _)| g == f), "{f:?}");
        }
        for (f, key, name) in FAILURES {
            if let Failure::Status(c) = f {
                assert!(key == c.to_string() && name.starts_with(key), "{name}");
            }
        }
        assert_eq!(FAILURE_OPTIONS.len(), Failure::KEYS.len());
    }

    #[test]
    fn the_form_state_from_a_link() {
        use crate::sim::params::{from_query, to_query};
        // The lesson's case: Ana's path, a timeout.
        let (p, notes) = from_query::<FailureParams>("");
        assert!(notes.is_empty());
        assert_eq!(p.situation(), Situation::interactive());
        // A batch caller without a time left has the batch job's hour.
        let (p, _) = from_query::<FailureParams>("failure=429&caller=batch&retry-after=2");
        assert_eq!(p.situation().left_ms, 3_600_000);
        let d = decide(&p.situation());
        assert!(d.retry && d.after_ms == Some(2000), "{d:?}");
        // A date with its spaces and commas goes there and back.
        let mut p = FailureParams {
            retry_after: "Wed, 02 Dec 2026 12:00:05 GMT".into(),
            caller: Caller::Batch,
            left_ms: Some(10_000),
            failure: Failure::Status(503),
            ..FailureParams::default()
        };
        let q = to_query(&p);
        assert_eq!(from_query::<FailureParams>(&q).0, p, "{q}");
        assert!(decide(&p.situation()).why.contains("al menos 5 s"));
        // Too long a header is cut, with a note; an unknown failure says so.
        p.retry_after = "9".repeat(100);
        let (cut, notes) = from_query::<FailureParams>(&to_query(&p));
        assert_eq!(cut.retry_after.len(), RETRY_AFTER_MAX_CHARS);
        assert_eq!(notes.len(), 1, "{notes:?}");
        let (_, notes) = from_query::<FailureParams>("failure=418");
        assert!(notes[0].message.contains("no se entiende «418»"), "{notes:?}");
    }

    #[test]
    fn exercise_1() {
        let a = decide(&Situation {
            failure: Failure::ConnectionRefused,
            ..Situation::interactive()
        });
        assert!(a.retry && a.why.contains("otra réplica"));
        let b = decide(&Situation {
            failure: Failure::Status(422),
            ..Situation::batch()
        });
        assert!(!b.retry);
        let c = decide(&Situation {
            failure: Failure::Status(429),
            retry_after: Some("2"),
            ..Situation::batch()
        });
        assert!(c.retry);
        assert_eq!(c.after_ms, Some(2000));
        let d = decide(&Situation {
            failure: Failure::Status(429),
            retry_after: Some("2"),
            ..Situation::interactive()
        });
        assert!(!d.retry && d.why.contains("no cabe"));
        let e = decide(&Situation {
            failure: Failure::Status(413),
            ..Situation::batch()
        });
        assert!(!e.retry);
    }

    #[test]
    fn the_interactive_path_never_retries() {
        // Issue 22: the widget opens on Ana's path and a timeout; C01's rule is «nadie reintenta».
        let d = decide(&Situation::interactive());
        assert!(!d.retry, "{}", d.why);
        assert!(d.why.contains("nadie reintenta"));
        for code in [500, 502, 503, 504, 429] {
            assert!(
                !decide(&Situation {
                    failure: Failure::Status(code),
                    ..Situation::interactive()
                })
                .retry,
                "{code}"
            );
        }
        // Nothing left: no «0 s no cabe en los 0 ms».
        let z = decide(&Situation {
            left_ms: 0,
            ..Situation::batch()
        });
        assert!(!z.retry && !z.why.contains("0 s"), "{}", z.why);
        // Retry-After: 0 (or a date already past) asks for no wait.
        let now = decide(&Situation {
            failure: Failure::Status(503),
            retry_after: Some("0"),
            ..Situation::batch()
        });
        assert!(now.retry && !now.why.contains("0 s"), "{}", now.why);
    }

    #[test]
    fn retry_after_as_rfc_9110_says() {
        let now = parse_imf_fixdate("Wed, 02 Dec 2026 12:00:00 GMT").unwrap();
        assert_eq!(now, 1_796_212_800);
        assert_eq!(parse_retry_after("2", now), Some(2));
        assert_eq!(parse_retry_after("Wed, 02 Dec 2026 12:00:05 GMT", now), Some(5));
        assert_eq!(parse_retry_after("Wed, 02 Dec 2026 11:00:00 GMT", now), Some(0));
        assert_eq!(parse_imf_fixdate("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777));
        for bad in [
            "",
            "-1",
            "2.5",
            "soon",
            "Wed, 32 Dec 2026 12:00:00 GMT",
            "Wed, 02 Dec 2026 25:00:00 GMT",
            "99999999999999999999999x",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
        // Malformed is ignored, not a crash: the retry goes on with its own backoff.
        let d = decide(&Situation {
            failure: Failure::Status(503),
            retry_after: Some("pronto"),
            ..Situation::batch()
        });
        assert!(d.retry && d.why.contains("se ignora"));
    }

    #[test]
    fn the_table_follows_the_lesson() {
        // «conexión rechazada, 503 y 429 sí; los demás 4xx, no»
        assert_eq!(classify(Failure::ConnectionRefused).advice, Advice::Yes);
        assert_eq!(classify(Failure::Status(503)).advice, Advice::Yes);
        assert_eq!(classify(Failure::Status(429)).advice, Advice::Yes);
        for c in [400, 401, 403, 404, 409, 413, 422, 418] {
            assert_eq!(classify(Failure::Status(c)).advice, Advice::No, "{c}");
        }
        assert_eq!(classify(Failure::Timeout).advice, Advice::Careful);
        assert_eq!(TABLE.len(), 13);
    }
}
