# The str / dict / sort / constructor fast paths of the PVM: every shape they take and the
# cases they leave to the general code (which must give the same results and errors).

# '%' formatting: simple conversions and the shapes that fall back
vals = [0, 7, -42, 255, 65535, -4096, 123456789, 2**63 - 1, -2**63]
for fmt in ["%d", "%i", "%5d", "%-5d|", "%05d", "%-05d|", "%0d", "%x", "%X", "%o", "%08x", "%s", "%7s|", "%-7s|", "%03s"]:
    print(fmt, [fmt % v for v in vals])
print("%s=%s;%d%%" % ("key", "välue", 99), "%s" % "one", "%d" % 5, "" % ())
print("id=%d;name=item_%04d;tags=%s;price=%d.%02d" % (7, 7, "t1,t2", 1, 5))
print("%5s|%-6s|%s" % ("ab", "ünï", ""), "%%d" % (), "a%%b" % ())
for fmt, args in [
    ("%d", (True,)), ("%s", (1.5,)), ("%s", ([1],)), ("%+d", (5,)), ("% d", (5,)), ("%#x", (255,)),
    ("%.3s", ("abcdef",)), ("%*d", (4, 7)), ("%(a)s", {"a": 1}), ("%5.1f", (2.25,)), ("%c", (65,)),
    ("%r", ("x",)), ("%ld", (3,)), ("%d %d", (1, 2)), ("%s", ()), ("%d", ("x",)), ("%d %d", (1,)),
    ("%d", (1, 2)), ("abc", (1,)), ("%", (1,)), ("%5", (1,)), ("%y", (1,)), ("%12345d", (1,)),
    ("%s", 3), ("%d", 2**70), ("%x", -2**70), ("%s", (None,)),
]:
    try:
        print(repr(fmt), repr(fmt % args))
    except Exception as e:
        print(repr(fmt), type(e).__name__, e)
try:
    print("%d" % "str")
except TypeError as e:
    print("TypeError", e)
print("%s %s" % (1, "a") * 2, "%s" % [1, 2])

# str() / int() and other built-in constructors called directly
print(str(0), str(-17), str(2**63 - 1), str(-2**63), str("abc"), str(""), str(), repr(str(True)))
print(str(2**80), str(1.5), str(None), str([1, "a"]), str(b"x"), int("42"), int(" -7 "), int("ff", 16))
print(int(), int(3.9), float("2.5"), list("abc"), tuple([1, 2]), dict(a=1), bool(""), type(3).__name__)
for bad in ["", "1x", "0x10"]:
    try:
        print(int(bad))
    except ValueError as e:
        print("ValueError", e)

# str methods (fast dispatch): results, errors, and ASCII / non-ASCII receivers
s = "id=1;name=item_0001;tags=t1,t2;price=3.05"
u = "héllo wörld, héllo αβγ"
for t in [s, u, "", "aaaa", "  pad  "]:
    print(t.split(";"), t.split("l", 1), t.split(), t.rsplit("l", 1), t.split("o"))
    print(t.find("l"), t.find("llo"), t.rfind("l"), t.find("l", 3), t.find("l", -4, -1), t.count("l"))
    print(t.count("aa"), t.count(""), t.count("l", 2, 9), t.replace("l", "L"), t.replace("ll", "", 1))
    print(t.startswith("id"), t.endswith("llo"), t.startswith(("x", "h")), t.partition("="), t.rpartition("l"))
    print(t.upper(), t.lower(), t.strip(), t.strip(" pa"), t.lstrip("h"), t.index("") if t else "-")
for call in [
    lambda: s.index("zz"), lambda: s.split(""), lambda: s.replace("a"),
    lambda: s.startswith(1), lambda: s.nosuch(), lambda: s.join([1]), lambda: s.partition(""),
    lambda: s.center(4, "ab"), lambda: u.rindex("q"), lambda: s.count(),
]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
print(",".join(["a", "b"]), "".join(x for x in "xyz"), "-".join(reversed(["1", "2"])), s.__len__(), s.__contains__("id"))
print("a{}b{:>4}".format(1, "x"), s.zfill(45)[:6], s.center(46, "*")[:4], "x".ljust(3, "é") + "|")

# dict lookups: str keys, int keys with equal bools / floats, instance keys sharing a hash
d = {"a": 1, 1: "one", 2.0: "two", (1, "a"): "t"}
print(d.get("a"), d.get(1), d.get(True), d.get(1.0), d.get(2), d[2.0], d.get((1, "a")), d.get("b", 0))
class K:
    def __init__(self, text):
        self.text = text
    def __hash__(self):
        return hash(self.text)
    def __eq__(self, other):
        print("eq called")
        return other == self.text or (isinstance(other, K) and other.text == self.text)
k = {K("key"): "via instance", 5: "five"}
print(k.get(K("key")), k.get("nokey"), k.get(5), K("nokey") in k)
k[K("key")] = "replaced"
print(len(k), [type(x).__name__ for x in k], k.get(K("key")))
counts = {}
for w in "a b a c b a".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, {True: 1}.get(1), {1: 2}.get(True), {0: "z"}.get(False), {-1: 3}.get(-1.0))

# sorting: int, tuple-of-int and str keys (both directions, stable), and the general cases
xs = [(i * 7919) % 31 - 15 for i in range(40)]
print(sorted(xs), sorted(xs, reverse=True))
print(sorted(xs, key=lambda v: v % 5), sorted(xs, key=lambda v: v % 5, reverse=True))
pairs = [(x % 3, x) for x in xs] + [(1,), (1, 2, 3), ()]
print(sorted(pairs), sorted(pairs, reverse=True))
words = "pear apple fig banana apple kiwi Fig é ab a".split()
print(sorted(words), sorted(words, reverse=True), sorted(words, key=len), sorted(words, key=str.lower))
print(sorted([3, 1.5, True, 2]), sorted([(1, "b"), (1, "a"), (0, "z")]), sorted([2**70, 1, -2**70]))
l = [5, 2, 9, 2]
l.sort(reverse=True)
print(l, sorted([]), sorted([1]), sorted("cba"), sorted({3: 1, 1: 2}))
for bad in [[1, "a"], [(1, 2), (1, "a")], ["a", None]]:
    try:
        sorted(bad)
    except TypeError as e:
        print("TypeError", e)
print(sorted([[2], [1, 5]]), sorted([(1, [2]), (1, [1])]), max([(1, "a"), (1, "b")]), min("bca"))
