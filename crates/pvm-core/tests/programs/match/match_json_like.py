# Matching nested JSON-like messages as an actor would.
def handle(msg):
    match msg:
        case {"op": "transfer", "to": str(to), "amount": int(amt)} if amt > 0:
            return f"transfer {amt} to {to}"
        case {"op": "transfer", "amount": int(amt)}:
            return f"invalid amount {amt}"
        case {"op": "batch", "items": [*items]}:
            return [handle(i) for i in items]
        case {"op": "set", "key": str(k), "value": ([*_] | {}) as v}:
            return f"set {k} to container {v}"
        case {"op": "set", "key": str(k), "value": v}:
            return f"set {k} to scalar {v!r}"
        case {"op": op}:
            return f"unknown op {op}"
        case _:
            return "malformed"
msgs = [{"op": "transfer", "to": "bob", "amount": 5}, {"op": "transfer", "to": "bob", "amount": -1},
        {"op": "batch", "items": [{"op": "set", "key": "a", "value": [1]}, {"op": "set", "key": "b", "value": 2}, {"op": "nope"}]},
        {"op": "set", "key": "c", "value": {"x": 1}}, {"nothing": True}, ["op", "transfer"]]
for m in msgs:
    print(handle(m))
