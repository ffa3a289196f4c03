# A staking pool whose reward accounting has a rounding bug; an invariant check catches it
# and the program ends with the uncaught AssertionError.
class Pool:
    def __init__(self):
        self.stakes = {}
        self.rewards = {}
        self.total = 0
        self.paid = 0
    def stake(self, who, amount):
        self.stakes[who] = self.stakes.get(who, 0) + amount
        self.total += amount
    def distribute(self, amount):
        for who, s in self.stakes.items():
            share = amount * s // self.total + 1   # bug: the +1 over-pays every staker
            self.rewards[who] = self.rewards.get(who, 0) + share
        self.paid += amount
    def check(self):
        owed = sum(self.rewards.values())
        print("owed", owed, "funded", self.paid)
        assert owed <= self.paid, f"insolvent: owes {owed}, funded {self.paid}"
p = Pool()
for who, amt in [("a", 300), ("b", 500), ("c", 200)]:
    p.stake(who, amt)
p.distribute(1000)
print(p.rewards)
p.check()
