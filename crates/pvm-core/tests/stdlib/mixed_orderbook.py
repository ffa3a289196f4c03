# A realistic mix: an order book with dataclasses, enum, decimal, collections, json, re, hashlib.
import hashlib
import json
import re
from collections import defaultdict, deque, Counter, OrderedDict
from dataclasses import dataclass, field, asdict
from decimal import Decimal, ROUND_HALF_EVEN
from enum import Enum, auto
from functools import total_ordering, reduce
from itertools import groupby, accumulate


class Side(Enum):
    BUY = auto()
    SELL = auto()


@total_ordering
@dataclass
class Order:
    oid: int
    side: Side
    price: Decimal
    qty: int
    owner: str
    tags: list = field(default_factory=list)

    def __lt__(self, other):
        if self.side is Side.BUY:
            return (-self.price, self.oid) < (-other.price, other.oid)
        return (self.price, self.oid) < (other.price, other.oid)


ORDER_RE = re.compile(r"(?P<side>buy|sell)\s+(?P<qty>\d+)\s*@\s*(?P<price>\d+(?:\.\d+)?)\s+by\s+(?P<owner>\w+)", re.I)
commands = [
    "BUY 10 @ 101.25 by alice", "sell 4 @ 101.50 by bob", "buy 3 @ 101.50 by carol",
    "sell 12 @ 100.75 by dave", "buy 5 @ 99.99 by erin", "garbage line", "SELL 1 @ 102 by bob",
]
books = {Side.BUY: [], Side.SELL: []}
fills = deque()
for oid, line in enumerate(commands, 1):
    m = ORDER_RE.fullmatch(line.strip())
    if not m:
        print("rejected:", line)
        continue
    side = Side[m["side"].upper()]
    o = Order(oid, side, Decimal(m["price"]), int(m["qty"]), m["owner"])
    other = books[Side.SELL if side is Side.BUY else Side.BUY]
    other.sort()
    while o.qty and other:
        best = other[0]
        crosses = best.price <= o.price if side is Side.BUY else best.price >= o.price
        if not crosses:
            break
        q = min(o.qty, best.qty)
        fills.append((best.owner, o.owner, q, best.price))
        o.qty -= q
        best.qty -= q
        if best.qty == 0:
            other.pop(0)
    if o.qty:
        books[side].append(o)

print(list(fills))
volume = Counter()
notional = defaultdict(Decimal)
for maker, taker, q, px in fills:
    volume[maker] += q
    volume[taker] += q
    notional[taker] += (px * q).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
print(volume.most_common(), dict(notional))
print(list(accumulate(q for _, _, q, _ in fills)), reduce(lambda a, f: a + f[2] * f[3], fills, Decimal(0)))
for side, orders in books.items():
    print(side.name, [(o.oid, str(o.price), o.qty) for o in sorted(orders)])
by_owner = OrderedDict()
for owner, group in groupby(sorted(o.owner for os in books.values() for o in os)):
    by_owner[owner] = len(list(group))
print(by_owner)
state = {"buys": [asdict(o) | {"side": o.side.name, "price": str(o.price)} for o in sorted(books[Side.BUY])],
         "sells": [asdict(o) | {"side": o.side.name, "price": str(o.price)} for o in sorted(books[Side.SELL])]}
canon = json.dumps(state, sort_keys=True, separators=(",", ":"))
print(canon)
print(hashlib.sha256(canon.encode()).hexdigest())
print(hashlib.blake2b(canon.encode(), digest_size=20).hexdigest())
