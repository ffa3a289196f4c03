# Dict of dicts; nested get/set; counting via nested structures.
db = {}
tx = [("alice", "bob", 5), ("bob", "carol", 2), ("alice", "carol", 7), ("carol", "alice", 1), ("alice", "bob", 3)]
for src, dst, amt in tx:
    db.setdefault(src, {}).setdefault(dst, 0)
    db[src][dst] += amt
print(db)
totals = {name: sum(out.values()) for name, out in db.items()}
print(totals)
print(db.get("dave", {}).get("x", "none"), db["alice"].get("bob"))
config = {"a": {"b": {"c": 1}}}
def deep_get(d, path, default=None):
    for p in path.split("."):
        if not isinstance(d, dict) or p not in d:
            return default
        d = d[p]
    return d
print(deep_get(config, "a.b.c"), deep_get(config, "a.x.c", "?"), deep_get(config, "a.b"))
def deep_set(d, path, v):
    parts = path.split(".")
    for p in parts[:-1]:
        d = d.setdefault(p, {})
    d[parts[-1]] = v
deep_set(config, "a.b.d", 2)
deep_set(config, "q.r", [1])
print(config)
