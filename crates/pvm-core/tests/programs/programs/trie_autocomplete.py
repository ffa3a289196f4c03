# A trie supporting insert, search, prefix listing and deletion.
class Trie:
    def __init__(self):
        self.root = {}
        self.size = 0
    def insert(self, w):
        n = self.root
        for c in w:
            n = n.setdefault(c, {})
        if "$" not in n:
            self.size += 1
        n["$"] = n.get("$", 0) + 1
    def find(self, w):
        n = self.root
        for c in w:
            if c not in n:
                return None
            n = n[c]
        return n
    def contains(self, w):
        n = self.find(w)
        return bool(n) and "$" in n
    def complete(self, prefix, limit=5):
        n = self.find(prefix)
        out = []
        def walk(node, acc):
            if len(out) >= limit:
                return
            if "$" in node:
                out.append((prefix + acc, node["$"]))
            for c in sorted(k for k in node if k != "$"):
                walk(node[c], acc + c)
        if n is not None:
            walk(n, "")
        return out
    def delete(self, w):
        path = [self.root]
        for c in w:
            if c not in path[-1]:
                return False
            path.append(path[-1][c])
        if "$" not in path[-1]:
            return False
        del path[-1]["$"]
        for i in range(len(w) - 1, -1, -1):
            if path[i + 1]:
                break
            del path[i][w[i]]
        self.size -= 1
        return True
t = Trie()
for w in "car card care careful cart cat catalog dog dot dove do car cat".split():
    t.insert(w)
print(t.size, t.contains("car"), t.contains("ca"), t.contains("dove"))
print(t.complete("car"), t.complete("ca", 3), t.complete("do"), t.complete("x"))
print(t.delete("card"), t.delete("card"), t.delete("ca"), t.complete("car"), t.size)
