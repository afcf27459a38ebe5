import heapq, random                         # heapq: una fila que siempre saca primero el más chico
from collections import Counter

def simular(jitter, clientes=1000, cupo=50, base=100, reintentos=3):
    rng = random.Random(7)                   # semilla fija: sale igual en cada corrida
    def espera(n):                           # reintento n = 1, 2, 3: tope de 200, 400, 800 ms
        tope = base * 2**n
        return rng.uniform(0, tope) if jitter else tope
    fila = [(espera(1), c, 1) for c in range(clientes)]   # todos fallaron en t = 0
    heapq.heapify(fila)
    llegan = Counter()                       # intentos que llegan en cada ventana de 10 ms
    atendidos = rendidos = 0
    while fila:
        t, c, n = heapq.heappop(fila)        # el siguiente intento en el tiempo
        ventana = int(t // 10)
        llegan[ventana] += 1
        if llegan[ventana] <= cupo:          # el servidor atiende 50 por ventana
            atendidos += 1
        elif n < reintentos:
            heapq.heappush(fila, (t + espera(n + 1), c, n + 1))
        else:
            rendidos += 1
    return atendidos, rendidos, max(llegan.values()), sum(llegan.values())

for jitter in (False, True):
    a, r, pico, total = simular(jitter)
    print(f"{'con' if jitter else 'sin'} jitter: {a} atendidos, {r} se rinden, "
          f"pico de {pico} en 10 ms, {total} intentos")
