#!/usr/bin/env python3
"""The lesson's herd program in CPython against `sensei-lab herd`, side by side.

Runs the lesson's own `simular` (lessons/…/manada.py, without its printing loop)
and the Rust core on the same inputs (seed 7, 50 per 10 ms window, base 100 ms,
3 retries; with and without jitter; 1,000 · 10,000 · 100,000 clients), checks
that the four figures are identical, and reports the time of each (the fastest
run, both measured in-process, each side given about the same time: N rounds,
each one CPython run and then as many Rust runs as fit in the time it took) and
the ratio. Row by row and round by round, so both sides meet the machine in the
same states.

Usage: python3 scripts/herd-vs-python.py [--repeat N]   (after `cargo build --release`)
       python3 scripts/herd-vs-python.py --python-only [--clients C --jitter full|none]
                                                         (CPython's side as JSON lines)
"""
import json
import math
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "lessons" / "timeouts-reintentos-idempotencia" / "manada.py"
LAB = ROOT / "target" / "release" / "sensei-lab"


def lesson_simular():
    src = PROGRAM.read_text(encoding="utf-8")
    src = src[: src.index("for jitter in")]  # the function, not its printing loop
    scope = {}
    exec(compile(src, str(PROGRAM), "exec"), scope)
    return scope["simular"]


def best_of(n, f):
    best, out = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best * 1000.0, out


def python_only(repeat, rows):
    """The CPython side alone, as JSON lines (for benches/browser.mjs, which runs the wasm side)."""
    simular = lesson_simular()
    for clients, jitter in rows:
        py_ms, (a, r, pico, total) = best_of(repeat, lambda: simular(jitter, clientes=clients))
        print(json.dumps({"clients": clients, "jitter": jitter, "served": a, "gave_up": r,
                          "peak": pico, "attempts": total, "elapsed_ms": py_ms}))


def ms3(ms):
    """A time in ms to three significant digits (0.00981, 1.07, 1,371)."""
    digits = max(0, 2 - math.floor(math.log10(ms))) if ms > 0 else 0
    return f"{ms:,.{digits}f}"


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    repeat = int(arg("--repeat", 3))
    rows = [(c, j) for c in (1_000, 10_000, 100_000) for j in (False, True)]
    if "--clients" in sys.argv:  # one row
        rows = [(int(arg("--clients", 0)), arg("--jitter", "full") == "full")]
    if "--python-only" in sys.argv:
        return python_only(repeat, rows)
    if not LAB.exists():
        sys.exit(f"{LAB} is missing: run `cargo build --release` first")
    simular = lesson_simular()
    ok = True
    table = []
    for clients, jitter in rows:
        def lab(n):
            out = json.loads(subprocess.run(
                [str(LAB), "herd", "--clients", str(clients), "--jitter", "full" if jitter else "none",
                 "--json", "--repeat", str(n)], check=True, capture_output=True, text=True).stdout)
            # The one JSON shape: the figures under "result", the time under "timing".
            return dict(out["result"], elapsed_ms=out["timing"]["best_ms"])
        # One run's time, to size the batches: the fastest of a few (a process's
        # first runs are slower, which would give Rust fewer runs than fit).
        once = lab(20)["elapsed_ms"]
        # Rounds alternate: one CPython run, then as many Rust runs as fit in
        # the time it took (its runs are ~100× shorter: 5 to 1,000 of them), so
        # both sides meet the machine in the same states (its speed changes
        # from one second to the next here); each side reports its fastest.
        py_ms, rust = float("inf"), None
        for _ in range(repeat):
            ms, (a, r, pico, total) = best_of(1, lambda: simular(jitter, clientes=clients))
            py_ms = min(py_ms, ms)
            run = lab(max(5, min(1_000, int(ms / max(once, 1e-3)))))
            if rust is None or run["elapsed_ms"] < rust["elapsed_ms"]:
                rust = run
        same = (rust["served"], rust["gave_up"], rust["peak"], rust["attempts"]) == (a, r, pico, total)
        ok &= same
        table.append((clients, "sí" if jitter else "no", f"{a}/{r}/{pico}/{total}",
                      "idénticas" if same else "DISTINTAS", py_ms, rust["elapsed_ms"], py_ms / rust["elapsed_ms"]))
    print(f"| clients | jitter | served/gave up/peak/attempts | figures | CPython ms | Rust ms | × faster |")
    print("|---:|:---:|---|---|---:|---:|---:|")
    for c, j, fig, same, py, rs, x in table:
        print(f"| {c:,} | {j} | {fig} | {same} | {ms3(py)} | {ms3(rs)} | {x:,.0f} |")
    print(f"\nCPython {sys.version.split()[0]}; sensei-lab release build (opt-level 3, LTO).")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
