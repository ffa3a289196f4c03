# A limit order book with price-time priority matching.
class Order:
    _next = 1
    def __init__(self, side, price, qty, owner):
        self.id = Order._next
        Order._next += 1
        self.side, self.price, self.qty, self.owner = side, price, qty, owner
    def __repr__(self):
        return f"#{self.id}:{self.side}{self.qty}@{self.price}({self.owner})"
class Book:
    def __init__(self):
        self.bids = []
        self.asks = []
        self.trades = []
    def _insert(self, book, o, better):
        i = 0
        while i < len(book) and not better(o.price, book[i].price):
            i += 1
        book.insert(i, o)
    def submit(self, side, price, qty, owner):
        o = Order(side, price, qty, owner)
        if side == "B":
            opp, crosses = self.asks, lambda p: p <= price
        else:
            opp, crosses = self.bids, lambda p: p >= price
        while o.qty and opp and crosses(opp[0].price):
            top = opp[0]
            q = min(o.qty, top.qty)
            self.trades.append((top.price, q, o.owner if side == "B" else top.owner, top.owner if side == "B" else o.owner))
            o.qty -= q
            top.qty -= q
            if top.qty == 0:
                opp.pop(0)
        if o.qty:
            if side == "B":
                self._insert(self.bids, o, lambda a, b: a > b)
            else:
                self._insert(self.asks, o, lambda a, b: a < b)
        return o
    def cancel(self, oid):
        for book in (self.bids, self.asks):
            for i, o in enumerate(book):
                if o.id == oid:
                    del book[i]
                    return True
        return False
    def depth(self):
        def agg(book):
            out = {}
            for o in book:
                out[o.price] = out.get(o.price, 0) + o.qty
            return list(out.items())
        return agg(self.bids), agg(self.asks)
b = Book()
for side, px, q, who in [("S", 101, 5, "s1"), ("S", 103, 10, "s2"), ("S", 101, 3, "s3"), ("B", 99, 4, "b1"), ("B", 100, 6, "b2"),
                         ("B", 102, 7, "b3"), ("S", 99, 12, "s4"), ("B", 105, 20, "b4"), ("S", 104, 2, "s5")]:
    o = b.submit(side, px, q, who)
    print("submit", side, px, q, who, "->", "rest" if o.qty else "filled", "bids", b.bids, "asks", b.asks)
print("cancel", b.cancel(2), b.cancel(999))
for t in b.trades:
    print("trade", t)
print("depth", b.depth())
vol = sum(q for _, q, _, _ in b.trades)
vwap = sum(p * q for p, q, _, _ in b.trades) / vol
print("volume", vol, "vwap", round(vwap, 6))
