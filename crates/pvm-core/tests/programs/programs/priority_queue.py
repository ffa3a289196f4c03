# A binary heap priority queue written in Python, and a task scheduler on top.
class Heap:
    def __init__(self):
        self.a = []
    def push(self, item):
        a = self.a
        a.append(item)
        i = len(a) - 1
        while i > 0:
            p = (i - 1) // 2
            if a[i] < a[p]:
                a[i], a[p] = a[p], a[i]
                i = p
            else:
                break
    def pop(self):
        a = self.a
        top = a[0]
        last = a.pop()
        if a:
            a[0] = last
            i = 0
            n = len(a)
            while True:
                l, r, m = 2 * i + 1, 2 * i + 2, i
                if l < n and a[l] < a[m]:
                    m = l
                if r < n and a[r] < a[m]:
                    m = r
                if m == i:
                    break
                a[i], a[m] = a[m], a[i]
                i = m
        return top
    def __len__(self):
        return len(self.a)
h = Heap()
vals = [(i * 37) % 101 for i in range(40)]
for v in vals:
    h.push(v)
out = [h.pop() for _ in range(len(h))]
print(out == sorted(vals), out[:10])
class Scheduler:
    def __init__(self):
        self.h = Heap()
        self.seq = 0
    def add(self, prio, name):
        self.seq += 1
        self.h.push((prio, self.seq, name))
    def run(self):
        while len(self.h):
            prio, seq, name = self.h.pop()
            print(f"run {name} (prio {prio}, seq {seq})")
s = Scheduler()
for p, n in [(3, "low"), (1, "urgent"), (2, "mid"), (1, "urgent2"), (3, "low2"), (0, "critical")]:
    s.add(p, n)
s.run()
