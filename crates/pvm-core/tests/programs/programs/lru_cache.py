# An LRU cache class using a doubly linked list + dict.
class Node:
    __slots__ = ("key", "val", "prev", "next")
    def __init__(self, key=None, val=None):
        self.key, self.val = key, val
        self.prev = self.next = None
class LRU:
    def __init__(self, cap):
        self.cap = cap
        self.map = {}
        self.head, self.tail = Node(), Node()
        self.head.next, self.tail.prev = self.tail, self.head
        self.hits = self.misses = 0
    def _unlink(self, n):
        n.prev.next, n.next.prev = n.next, n.prev
    def _push_front(self, n):
        n.next, n.prev = self.head.next, self.head
        self.head.next.prev = n
        self.head.next = n
    def get(self, k):
        n = self.map.get(k)
        if n is None:
            self.misses += 1
            return None
        self.hits += 1
        self._unlink(n)
        self._push_front(n)
        return n.val
    def put(self, k, v):
        n = self.map.get(k)
        if n:
            n.val = v
            self._unlink(n)
        else:
            if len(self.map) >= self.cap:
                lru = self.tail.prev
                self._unlink(lru)
                del self.map[lru.key]
                print("evict", lru.key)
            n = Node(k, v)
            self.map[k] = n
        self._push_front(n)
    def keys(self):
        out, n = [], self.head.next
        while n is not self.tail:
            out.append(n.key)
            n = n.next
        return out
c = LRU(3)
for op in ["put a 1", "put b 2", "put c 3", "get a", "put d 4", "get b", "get c", "put a 10", "put e 5", "get a", "get d"]:
    parts = op.split()
    if parts[0] == "put":
        c.put(parts[1], int(parts[2]))
    else:
        print("get", parts[1], "->", c.get(parts[1]))
    print("  order", c.keys())
print("hits", c.hits, "misses", c.misses)
def cached_fib():
    cache = LRU(200)
    def fib(n):
        if n < 2:
            return n
        v = cache.get(n)
        if v is None:
            v = fib(n - 1) + fib(n - 2)
            cache.put(n, v)
        return v
    return fib, cache
fib, cache = cached_fib()
print(fib(150), cache.hits, cache.misses)
