# Dijkstra shortest paths with a hand-written heap, plus path reconstruction.
def heappush(h, item):
    h.append(item)
    i = len(h) - 1
    while i and h[(i - 1) // 2] > h[i]:
        h[(i - 1) // 2], h[i] = h[i], h[(i - 1) // 2]
        i = (i - 1) // 2
def heappop(h):
    last = h.pop()
    if not h:
        return last
    top, h[0] = h[0], last
    i = 0
    while True:
        c = 2 * i + 1
        if c >= len(h):
            break
        if c + 1 < len(h) and h[c + 1] < h[c]:
            c += 1
        if h[c] < h[i]:
            h[c], h[i] = h[i], h[c]
            i = c
        else:
            break
    return top
edges = [("A", "B", 7), ("A", "C", 9), ("A", "F", 14), ("B", "C", 10), ("B", "D", 15), ("C", "D", 11), ("C", "F", 2), ("D", "E", 6), ("E", "F", 9), ("G", "H", 1)]
g = {}
for u, v, w in edges:
    g.setdefault(u, []).append((v, w))
    g.setdefault(v, []).append((u, w))
def dijkstra(src):
    dist = {src: 0}
    prev = {}
    h = [(0, src)]
    while h:
        d, u = heappop(h)
        if d > dist[u]:
            continue
        for v, w in g[u]:
            nd = d + w
            if v not in dist or nd < dist[v]:
                dist[v] = nd
                prev[v] = u
                heappush(h, (nd, v))
    return dist, prev
dist, prev = dijkstra("A")
for node in sorted(g):
    if node in dist:
        path, n = [], node
        while n != "A":
            path.append(n)
            n = prev[n]
        path.append("A")
        print(node, dist[node], "->".join(reversed(path)))
    else:
        print(node, "unreachable")
