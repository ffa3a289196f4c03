# Sets in graph algorithms: reachability, topological sort, cycle detection.
deps = {"app": {"lib", "util"}, "lib": {"core"}, "util": {"core", "fmt"}, "core": set(), "fmt": set(), "test": {"app"}}
def reachable(node):
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(sorted(deps[n]))
    return seen
print(sorted(reachable("app")), sorted(reachable("core")), len(reachable("test")))
def topo():
    indeg = {n: 0 for n in deps}
    for n in deps:
        for d in deps[n]:
            indeg[n] += 1
    ready = sorted(n for n in deps if indeg[n] == 0)
    order = []
    rev = {n: set() for n in deps}
    for n, ds in deps.items():
        for d in ds:
            rev[d].add(n)
    while ready:
        n = ready.pop(0)
        order.append(n)
        for m in sorted(rev[n]):
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
        ready.sort()
    return order
print(topo())
