//! What the lesson's text prints, copied from the lesson (never from the
//! core's output): the expected values several test files share.

/// The herd program's two lines (lesson, «Esta simulación lo muestra»).
pub const HERD_LINES: [&str; 2] = [
    "sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos",
    "con jitter: 1000 atendidos, 0 se rinden, pico de 61 en 10 ms, 1061 intentos",
];

/// The idempotency-key program's two lines (lesson, «La llave de idempotencia»).
pub const IDEMPOTENCY_LINES: [&str; 2] = [
    "sin llave: publicación #2 · guardadas: ['Tenis naranjas', 'Tenis naranjas']",
    "con llave: publicación #1 · guardadas: ['Tenis naranjas']",
];
