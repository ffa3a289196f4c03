# Graph adjacency lists with dict + setdefault; BFS over them.
edges = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e"), ("f", "g")]
g = {}
for u, v in edges:
    g.setdefault(u, []).append(v)
    g.setdefault(v, []).append(u)
print(g)
def bfs(start):
    dist = {start: 0}
    q = [start]
    while q:
        u = q.pop(0)
        for w in g[u]:
            if w not in dist:
                dist[w] = dist[u] + 1
                q.append(w)
    return dist
print(bfs("a"), bfs("f"))
comp, seen = [], set()
for node in g:
    if node not in seen:
        part = sorted(bfs(node))
        seen.update(part)
        comp.append(part)
print(comp)
