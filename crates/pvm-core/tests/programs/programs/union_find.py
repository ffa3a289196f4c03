# Union-find with path compression and union by rank; Kruskal's MST.
class DSU:
    def __init__(self, n):
        self.p = list(range(n))
        self.r = [0] * n
    def find(self, x):
        while self.p[x] != x:
            self.p[x] = self.p[self.p[x]]
            x = self.p[x]
        return x
    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a == b:
            return False
        if self.r[a] < self.r[b]:
            a, b = b, a
        self.p[b] = a
        if self.r[a] == self.r[b]:
            self.r[a] += 1
        return True
edges = [(4, 0, 1), (8, 0, 7), (11, 1, 7), (8, 1, 2), (7, 7, 8), (1, 7, 6), (2, 2, 8), (6, 8, 6), (4, 2, 5), (7, 2, 3), (2, 6, 5), (14, 3, 5), (9, 3, 4), (10, 5, 4)]
d = DSU(9)
mst = []
for w, u, v in sorted(edges):
    if d.union(u, v):
        mst.append((u, v, w))
print(mst, sum(w for _, _, w in mst))
d2 = DSU(10)
for a, b in [(0, 1), (2, 3), (1, 3), (5, 6), (7, 8), (8, 9), (9, 7)]:
    print(a, b, d2.union(a, b))
groups = {}
for i in range(10):
    groups.setdefault(d2.find(i), []).append(i)
print(sorted(groups.values()))
