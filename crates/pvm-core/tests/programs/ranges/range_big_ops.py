# range() with bounds beyond 64 bits: every operation, lazily (nothing materialised).
B = 2**70
S = 3 * 2**10
r = range(-B, B, S)
print(r, r.start, r.stop, r.step)
print(r[0], r[1], r[-1], r[-2], r[B // S])
print(len(r), bool(r), bool(range(B, B)), bool(range(B, -B)))
print(-B in r, -B + 1 in r, -B + S in r, B in r, B - 1 in r, 0 in r, 5 in r, True in range(B))
print(r.index(-B + S * 1000), r.count(-B), r.count(-B + 1), r.count(2**80), r.count(True))
for bad in (-B - S, B + 2, r[-1] + S):
    try:
        r.index(bad)
    except ValueError as e:
        print("ValueError", e)

# len() of a range longer than 2**63 - 1 raises, like CPython's ssize_t conversion
huge = range(2**100)
for f in (len, lambda x: x.__len__()):
    try:
        f(huge)
    except OverflowError as e:
        print("OverflowError", e)
try:
    len(range(-2**63, 2**63 - 1))
except OverflowError as e:
    print("OverflowError", e)
print(len(range(2**63 - 1)), len(range(-2**63, -1)), range(-2**63, 0)[-1], range(-2**63, 0)[0])

# indexing errors
for k in (2**100, -2**100 - 1, 2**200):
    try:
        huge[k]
    except IndexError as e:
        print("IndexError", e)
for k in (1.5, "a", None):
    try:
        huge[k]
    except TypeError as e:
        print("TypeError", e)

# slicing returns ranges, possibly big, possibly small again
print(huge[5:8], list(huge[5:8]), huge[-3:], list(huge[-3:]))
print(huge[::2**99], list(huge[::2**99]), huge[::-1][:3], list(huge[::-1][:3]))
print(huge[2**99:][2**98:2**98 + 2], range(10)[::2**70], range(0, 10, 4)[::2**62])
print(range(10)[2**70:], range(10)[-2**70:], range(10)[:-2**70], r[::-2**68])
print(huge[1:-1:2**98], huge[B:B], len(huge[B:B + 10]))
try:
    huge[::0]
except ValueError as e:
    print("ValueError", e)
try:
    huge[1.5:]
except TypeError as e:
    print("TypeError", e)

# iteration and reversed, forwards and backwards across the i64 boundary
edge = range(2**63 - 3, 2**63 + 3)
print(list(edge), list(reversed(edge)))
print(list(range(-2**63 + 2, -2**63 - 4, -2)), list(reversed(range(-2**63 + 2, -2**63 - 4, -2))))
print(list(range(B, B + 10, 4)), list(reversed(range(B, B + 10, 4))), list(reversed(range(B, B))))
print(list(range(-2**63, 2**63, 2**62)), list(reversed(range(-2**63, 2**63, 2**62))))
print(sum(range(10**30, 10**30 + 5)), max(range(-B, -B + 5)), min(range(B, B - 9, -3)))
print([x for x in range(B - 2, B + 2)], list(zip(range(B), "abc")), list(enumerate(range(B, B + 2))))
it = iter(huge)
print(next(it), next(it), next(it))
rv = reversed(huge)
print(next(rv) == 2**100 - 1, next(rv) == 2**100 - 2)
n = 0
for i in range(2**64, 2**65, 2**62):
    n += i
print(n)

# equality and hashing agree across representations
print(range(0, B, B) == range(0, 1), range(B, 0) == range(0), range(B, 0) == range(5, 5))
print(range(0, B, 2) == range(0, B + 1, 2), range(0, B, 2) == range(0, B, 3), huge == range(2**100))
print(hash(range(0, B, B)) == hash(range(0, 1)), hash(range(B, 0)) == hash(range(0)))
print(hash(range(0, 10, 2)) == hash((5, 0, 2)), hash(huge) == hash((2**100, 0, 1)))
print(hash(range(-B, B, S)) == hash((len(r), -B, S)), hash(r) == hash(range(-B, B + 1, S)))
d = {range(0, 1): "one", huge: "huge"}
print(d[range(0, B, B)], d[range(0, 2**100)], range(0, 5, 2) in {range(0, 6, 2)})
print(huge != range(2**100 + 1), huge != range(2**100))

# constructors from __index__ and bools; bad arguments
class Big:
    def __index__(self):
        return 2**80
print(range(Big()), range(True, Big(), Big())[0:2], len(range(0, Big(), 2**60)))
for args in ((1.5,), (B, 3.0), (B, 1, 0), ("x", B)):
    try:
        range(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
print(range(-10**30, 10**30, 10**29), range(10**30, -10**30, -7 * 10**28))
print(list(range(-10**30, 10**30, 5 * 10**29)), list(range(10**30, -10**30, -7 * 10**29)))

# non-int items: element-by-element search (as in CPython)
print(1.0 in range(5), 2.5 in range(5), range(5).count(1.0), range(5).index(3.0))
print(1.0 in range(0, B), range(B, B + 3).index(float(B + 1)), range(B, B + 3).count(float(B)))
try:
    range(5).index("a")
except ValueError as e:
    print("ValueError", e)
print(str(huge), repr(range(B, 0, -B)), f"{range(B, B + 1)}")
for call in (lambda: huge.count(), lambda: range(5).index(1, 2), lambda: range(5).count(value=1)):
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
