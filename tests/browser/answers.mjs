// Each widget's task with a wrong and a right answer, as a learner types
// them: the tasks' test and the SCORM test use them. The right answers are
// worked out by hand in tests/tasks.rs (or by the lesson's own Python),
// never read off the lab.

// widget → [task, a wrong answer, a right answer] (predictions and findings).
export const ANSWERS = {
  clocks: ['clocks/reloj-de-lectura', '30 s', '10 s'],
  inflight: ['inflight/timeout-de-100', '16', '0'],
  backoff: ['backoff/base-de-100', '2,500', '3.4 s'],
  herd: ['herd/el-doble', '850', '700'],
  failure: ['failure/retry-after-batch', '0', '2 s'],
  layers: ['layers/cuatro-capas', '64', '4^4'],
  storm: ['storm/punto-de-quiebre', '3 s', '1.2 s'],
  budget: ['budget/falla-el-40', '100', '50'],
  store: ['store/llave-por-intento', '1', '2'],
  breaker: ['breaker/timeout-de-1-s', '12:00:05.08', '12:00:05.5'],
  shedding: ['shedding/fila-sin-tope', '65', '2'],
  degradation: ['degradation/incidente-del-20', '12,000', '6,000'],
  failmode: ['failmode/fallar-cerrado', '2,000', '1,980'],
};
// widget → [task, a link where the goal is not met, one where it is] (the
// hedging goal, which starts at a point of its own, is the test after).
export const GOALS = {
  chain: ['chain/trabajo-zombi', '', '?deadline=off&cancel=off&triton-cap-ms=5000&compute-ms=400'],
};

