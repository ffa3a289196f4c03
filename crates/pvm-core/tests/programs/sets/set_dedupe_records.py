# Deduplicating records with tuple keys in a set while keeping order.
rows = [("alice", 1), ("bob", 2), ("alice", 1), ("carol", 3), ("bob", 2), ("bob", 3)]
seen = set()
unique = []
for r in rows:
    if r not in seen:
        seen.add(r)
        unique.append(r)
print(unique, len(seen))
names = {n for n, _ in rows}
print(sorted(names), len(names))
by_name = {}
for n, v in rows:
    by_name.setdefault(n, set()).add(v)
print({n: sorted(v) for n, v in by_name.items()})
