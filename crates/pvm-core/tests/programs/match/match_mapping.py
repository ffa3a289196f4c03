# Mapping patterns with **rest.
def handle(event):
    match event:
        case {"type": "click", "pos": (x, y)}:
            return f"click at {x},{y}"
        case {"type": "key", "key": str(k), **mods} if mods:
            return f"key {k} with {sorted(mods)}"
        case {"type": "key", "key": k}:
            return f"key {k}"
        case {"type": t}:
            return f"unknown type {t}"
        case {}:
            return "no type"
    return "not a mapping"
events = [{"type": "click", "pos": (3, 4)}, {"type": "key", "key": "a"}, {"type": "key", "key": "b", "shift": True, "alt": False},
          {"type": "scroll"}, {"other": 1}, [1, 2], {"type": "click", "pos": (1, 2, 3)}]
for e in events:
    print(handle(e))
