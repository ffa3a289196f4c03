# Sorting objects with __lt__, and multi-key sorting.
class Card:
    order = "23456789TJQKA"
    def __init__(self, s):
        self.rank, self.suit = s[0], s[1]
    def __lt__(self, other):
        return (self.order.index(self.rank), self.suit) < (self.order.index(other.rank), other.suit)
    def __repr__(self):
        return self.rank + self.suit
hand = [Card(s) for s in "KH 2C TS AD 2H 9C".split()]
print(sorted(hand))
print(max(hand), min(hand))
hand.sort(reverse=True)
print(hand)
records = [{"n": "x", "a": 3, "b": 1}, {"n": "y", "a": 1, "b": 2}, {"n": "z", "a": 3, "b": 0}]
records.sort(key=lambda r: r["b"])
records.sort(key=lambda r: r["a"], reverse=True)
print([r["n"] for r in records])
