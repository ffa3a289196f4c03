# Container comparisons with NaN: items are compared identity-first, as CPython's
# PyObject_RichCompareBool does, so the same NaN object matches itself. (Only one NaN
# object is used: the PVM cannot tell two separately made NaNs apart, see docs/pvm.md.)
import math

nan = float("nan")
a = [nan]
print(nan == nan, nan != nan, a == a, a == [nan], a == list(a), a != [nan])
t = (1, nan)
print(t == t, t == (1, nan), t != (1, nan), t < (1, 2), t > (1, 2), t <= (1, nan), t >= (1, nan))
print((nan, 1) < (nan, 2), (nan, 2) > (nan, 1), (1, nan) < (1, 2))
print([nan, 1] < [nan, 2], [1.0, nan] == [1.0, nan], [[nan]] == [[nan]], ((nan,),) == ((nan,),))
print(nan in a, nan in [1.0, nan], nan in (nan,), nan not in a)
print(a.count(nan), [nan, nan, 1.0].count(nan), (nan, nan).count(nan), a.index(nan), (0, nan).index(nan))
b = [1.0, nan, 2.0]
b.remove(nan)
print(b)
try:
    [1.0].index(nan)
except ValueError as e:
    print("ValueError:", e)

# dicts and sets keyed by NaN: the same object is found again
d = {nan: "x", 1.0: "y"}
print(nan in d, d[nan], d.get(nan))
d[nan] = "z"
print(len(d), d)
s = {nan, nan, 1.0}
print(len(s), nan in s)
print({"k": nan} == {"k": nan}, {nan: 1} == {nan: 1}, {1: [nan]} == {1: [nan]})
e = dict.fromkeys([nan, nan, math.inf])
print(len(e))
print(max([(1, nan), (1, 2.0)]), min([(nan, 1), (nan, 0)]))
