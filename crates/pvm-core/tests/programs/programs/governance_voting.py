# Stake-weighted governance voting with quorum and thresholds (integer math only).
class Proposal:
    def __init__(self, pid, title, quorum_bps, threshold_bps):
        self.pid, self.title = pid, title
        self.quorum_bps, self.threshold_bps = quorum_bps, threshold_bps
        self.votes = {}
    def vote(self, who, choice):
        if choice not in ("yes", "no", "abstain"):
            raise ValueError(f"bad choice {choice!r}")
        self.votes[who] = choice
    def tally(self, stakes):
        t = {"yes": 0, "no": 0, "abstain": 0}
        for who, c in self.votes.items():
            t[c] += stakes.get(who, 0)
        total = sum(stakes.values())
        turnout = t["yes"] + t["no"] + t["abstain"]
        quorum_ok = turnout * 10000 >= total * self.quorum_bps
        decisive = t["yes"] + t["no"]
        passed = quorum_ok and decisive > 0 and t["yes"] * 10000 > decisive * self.threshold_bps
        return t, turnout * 10000 // total, quorum_ok, passed
stakes = {"v1": 4_000_000, "v2": 2_500_000, "v3": 1_500_000, "v4": 1_000_000, "v5": 1_000_000}
p1 = Proposal(1, "raise gas target", 4000, 5000)
for who, c in [("v1", "yes"), ("v2", "no"), ("v3", "yes"), ("v2", "yes")]:
    p1.vote(who, c)
p2 = Proposal(2, "treasury grant", 6000, 6667)
for who, c in [("v4", "yes"), ("v5", "abstain"), ("v3", "no")]:
    p2.vote(who, c)
p3 = Proposal(3, "upgrade", 3000, 6667)
for who, c in [("v1", "yes"), ("v2", "no"), ("v3", "no")]:
    p3.vote(who, c)
for p in (p1, p2, p3):
    print(p.pid, p.title, p.tally(stakes))
try:
    p1.vote("v9", "maybe")
except ValueError as e:
    print("ValueError", e)
