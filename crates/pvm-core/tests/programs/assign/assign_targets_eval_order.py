# Order of evaluation: RHS first, then targets left to right.
log = []
class L:
    def __init__(self, name):
        self.name = name
    def __setitem__(self, k, v):
        log.append(("set", self.name, k, v))
    def __getitem__(self, k):
        log.append(("get", self.name, k))
        return 0
def idx(n):
    log.append(("idx", n))
    return n
a, b = L("a"), L("b")
a[idx(1)], b[idx(2)] = idx(10), idx(20)
print(log)
log.clear()
a[idx(3)] += idx(4)
print(log)
