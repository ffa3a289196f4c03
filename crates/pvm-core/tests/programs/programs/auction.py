# An English auction actor with bids, refunds and a deadline measured in block heights.
class Auction:
    def __init__(self, seller, reserve, end_height, min_increment):
        self.seller, self.reserve, self.end, self.inc = seller, reserve, end_height, min_increment
        self.high_bidder, self.high_bid = None, 0
        self.refunds = {}
        self.closed = False
        self.log = []
    def bid(self, height, who, amount):
        if self.closed or height >= self.end:
            return self._reject(who, "auction over")
        if who == self.seller:
            return self._reject(who, "seller cannot bid")
        need = max(self.reserve, self.high_bid + self.inc if self.high_bidder else self.reserve)
        if amount < need:
            return self._reject(who, f"bid {amount} below {need}")
        if self.high_bidder:
            self.refunds[self.high_bidder] = self.refunds.get(self.high_bidder, 0) + self.high_bid
        self.high_bidder, self.high_bid = who, amount
        self.log.append((height, who, amount))
        return True
    def _reject(self, who, why):
        self.log.append(("reject", who, why))
        return False
    def settle(self, height):
        if height < self.end:
            raise RuntimeError(f"too early: {height} < {self.end}")
        self.closed = True
        return (self.high_bidder, self.high_bid) if self.high_bidder else ("no sale", 0)
a = Auction("sam", reserve=100, end_height=20, min_increment=10)
for h, who, amt in [(1, "ann", 90), (2, "ann", 100), (3, "bob", 105), (4, "bob", 110), (5, "sam", 500), (8, "cat", 200), (9, "ann", 250), (19, "bob", 255), (19, "bob", 260), (20, "cat", 999)]:
    print(h, who, amt, a.bid(h, who, amt))
try:
    a.settle(15)
except RuntimeError as e:
    print("RuntimeError", e)
print(a.settle(20), a.refunds)
for entry in a.log:
    print(entry)
