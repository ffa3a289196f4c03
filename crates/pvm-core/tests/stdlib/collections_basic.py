from collections import defaultdict, OrderedDict, Counter, deque, namedtuple, ChainMap

d = defaultdict(list)
for k, v in [("a", 1), ("b", 2), ("a", 3)]:
    d[k].append(v)
print(d, dict(d), d["zz"], len(d))
dd = defaultdict(int)
dd["x"] += 5
print(dd, dd.default_factory)
od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
od.move_to_end("b")
print(od, list(od), od.popitem(), od.popitem(last=False), od)
od2 = OrderedDict(a=1, b=2)
print(od2 == OrderedDict(b=2, a=1), dict(od2) == {"b": 2, "a": 1})
c = Counter("abracadabra")
print(c, c.most_common(2), c["z"], sorted(c.elements())[:5])
c.update({"a": 1, "z": 2})
c.subtract("aa")
print(c["a"], c["z"], c.total())
print(Counter(a=3, b=1) + Counter(a=1, b=2), Counter(a=3, b=1) - Counter(a=1, b=2))
print(Counter(a=3, b=1) & Counter(a=1, b=2), Counter(a=3, b=1) | Counter(a=1, b=2))
q = deque([1, 2, 3], maxlen=4)
q.append(4)
q.append(5)
q.appendleft(0)
print(q, q.maxlen, len(q), q[0], q[-1])
q.rotate(1)
print(q, q.pop(), q.popleft(), q)
q.extend([7, 8])
q.extendleft([9])
print(q, list(reversed(q)), 8 in q, q.count(8), q.index(7))
e = deque()
try:
    e.pop()
except IndexError as ex:
    print("IndexError:", ex)
Point = namedtuple("Point", "x y")
p = Point(1, y=2)
print(p, p.x + p.y, p._asdict(), p._replace(x=9), Point._fields, Point._make([3, 4]))
x, y = p
print(x, y, p == (1, 2), p[1], isinstance(p, tuple))
P3 = namedtuple("P3", ["a", "b", "c"], defaults=[0, 1])
print(P3(5), P3._field_defaults)
try:
    namedtuple("Bad", "a a")
except ValueError as ex:
    print("ValueError:", ex)
try:
    Point(1)
except TypeError as ex:
    print("TypeError:", ex)
cm = ChainMap({"a": 1}, {"a": 2, "b": 3})
print(cm["a"], cm["b"], len(cm), sorted(cm), cm.new_child({"c": 4})["c"])
