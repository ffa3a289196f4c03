# A deterministic timer scheduler (FIFO per height) like the chain's timer queue.
class Timers:
    def __init__(self):
        self.queue = {}
        self.next_id = 1
        self.cancelled = set()
    def set_timer(self, height, callback, payload):
        tid = self.next_id
        self.next_id += 1
        self.queue.setdefault(height, []).append((tid, callback, payload))
        return tid
    def cancel(self, tid):
        self.cancelled.add(tid)
    def fire(self, height):
        fired = []
        for tid, cb, payload in self.queue.pop(height, []):
            if tid in self.cancelled:
                fired.append((tid, "cancelled"))
                continue
            fired.append((tid, cb(self, height, payload)))
        return fired
def ping(t, h, p):
    if p["n"] > 0:
        t.set_timer(h + p["every"], ping, {"n": p["n"] - 1, "every": p["every"]})
    return f"ping n={p['n']}"
def once(t, h, p):
    return f"once {p}"
t = Timers()
t.set_timer(3, ping, {"n": 3, "every": 2})
a = t.set_timer(5, once, "A")
b = t.set_timer(5, once, "B")
t.set_timer(5, once, "C")
t.cancel(b)
for h in range(12):
    r = t.fire(h)
    if r:
        print(h, r)
print("pending", sorted(t.queue), t.next_id)
