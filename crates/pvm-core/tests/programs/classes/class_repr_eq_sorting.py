# A value class with __repr__, __eq__, __lt__, __hash__ used in sets, dicts and sorting.
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))
    def __repr__(self):
        return "v" + ".".join(map(str, self.parts))
    def __eq__(self, o):
        return isinstance(o, Version) and self.parts == o.parts
    def __lt__(self, o):
        return self.parts < o.parts
    def __hash__(self):
        return hash(self.parts)
vs = [Version(s) for s in ["1.10.0", "1.2.3", "1.2.10", "0.9", "1.2.3", "2.0"]]
print(sorted(vs), max(vs), min(vs), len(set(vs)))
print(Version("1.2") == Version("1.2"), Version("1.2") != Version("1.3"), Version("1.2") in vs, Version("1.2.3") in vs)
latest = {}
for v in vs:
    latest[v.parts[0]] = max(latest.get(v.parts[0], v), v)
print(latest)
