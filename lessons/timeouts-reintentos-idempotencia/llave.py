import uuid

publicaciones = []        # lo que el servidor guardó
ya_hechas = {}            # llave de idempotencia → la respuesta que ya se dio

def publicar(titulo, llave=None):
    if llave in ya_hechas:                 # esta operación ya se hizo
        return ya_hechas[llave]            # devuelve lo mismo, sin publicar otra vez
    publicaciones.append(titulo)
    respuesta = f"publicación #{len(publicaciones)}"
    if llave:
        ya_hechas[llave] = respuesta
    return respuesta

def cliente(titulo, con_llave):
    llave = str(uuid.uuid4()) if con_llave else None   # una por operación, no por intento
    publicar(titulo, llave)                # se publica, pero la respuesta se pierde en la red
    return publicar(titulo, llave)         # el reintento lleva la misma llave

print("sin llave:", cliente("Tenis naranjas", False), "· guardadas:", publicaciones)
publicaciones.clear()
print("con llave:", cliente("Tenis naranjas", True), "· guardadas:", publicaciones)
