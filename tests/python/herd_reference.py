"""The lesson's herd program (lessons/timeouts-reintentos-idempotencia/manada.py),
generalised to the lab's parameters, as the reference the Rust core must match.

For jitter "none" and "full", no cap, a 10 ms window and seed 7 it is the
lesson's `simular` line for line. The additions:
  - `ventana_ms` and `semilla` replace the fixed 10 and 7;
  - `tope_ms` caps each wait: min(tope, base * 2**n);
  - equal jitter:        v/2 + uniform(0, v/2)
  - decorrelated jitter: min(tope, uniform(base, 3 * previous wait)), previous starting at base
    (Marc Brooker, "Exponential Backoff And Jitter", 2015).

Reads a JSON list of parameter sets (the lab's keys) on stdin; prints a JSON
list of {served, gave_up, peak, attempts, windows}.
Usage: python3 tests/python/herd_reference.py < cases.json
"""
import heapq
import json
import random
import sys
from collections import Counter


def simular(jitter, clientes=1000, cupo=50, base=100, reintentos=3,
            ventana_ms=10, tope_ms=None, semilla=7):
    rng = random.Random(semilla)
    previa = [base] * clientes              # solo para decorrelated

    def techo(n):
        v = base * 2**n
        return v if tope_ms is None else min(tope_ms, v)

    def espera(n, c):
        if jitter == "none":
            return techo(n)
        if jitter == "full":
            return rng.uniform(0, techo(n))
        if jitter == "equal":
            mitad = techo(n) / 2
            return mitad + rng.uniform(0, mitad)
        if jitter == "decorrelated":
            w = rng.uniform(base, previa[c] * 3)
            if tope_ms is not None:
                w = min(tope_ms, w)
            previa[c] = w
            return w
        raise ValueError(jitter)

    fila = [(espera(1, c), c, 1) for c in range(clientes)]
    heapq.heapify(fila)
    llegan = Counter()
    atendidos = rendidos = 0
    while fila:
        t, c, n = heapq.heappop(fila)
        ventana = int(t // ventana_ms)
        llegan[ventana] += 1
        if llegan[ventana] <= cupo:
            atendidos += 1
        elif n < reintentos:
            heapq.heappush(fila, (t + espera(n + 1, c), c, n + 1))
        else:
            rendidos += 1
    return atendidos, rendidos, max(llegan.values()), sum(llegan.values()), sorted(llegan.items())


def run(case):
    a, r, pico, total, ventanas = simular(
        case.get("jitter", "full"),
        clientes=case.get("clients", 1000),
        cupo=case.get("capacity", 50),
        base=case.get("base-ms", 100),
        reintentos=case.get("retries", 3),
        ventana_ms=case.get("window-ms", 10),
        tope_ms=case.get("cap-ms"),
        semilla=case.get("seed", 7),
    )
    return {"served": a, "gave_up": r, "peak": pico, "attempts": total, "windows": ventanas}


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    json.dump([run(c) for c in cases], sys.stdout)
