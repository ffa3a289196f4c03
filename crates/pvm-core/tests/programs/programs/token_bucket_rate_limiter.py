# Per-sender token-bucket rate limiting in block heights, integer arithmetic only.
class RateLimiter:
    def __init__(self, capacity, refill_per_block):
        self.capacity = capacity
        self.refill = refill_per_block
        self.buckets = {}
    def allow(self, sender, height, cost=1):
        tokens, last = self.buckets.get(sender, (self.capacity, height))
        tokens = min(self.capacity, tokens + (height - last) * self.refill)
        ok = tokens >= cost
        if ok:
            tokens -= cost
        self.buckets[sender] = (tokens, height)
        return ok
rl = RateLimiter(capacity=5, refill_per_block=2)
events = [(1, "a", 3), (1, "a", 3), (2, "a", 2), (2, "b", 5), (2, "b", 1), (3, "a", 4), (3, "b", 2), (10, "a", 5), (10, "a", 1), (11, "b", 5)]
for h, who, cost in events:
    print(h, who, cost, rl.allow(who, h, cost), rl.buckets[who])
accepted = sum(1 for h in range(100) if rl.allow("spam", h // 3, 2))
print("spam accepted", accepted, rl.buckets["spam"])
