# Unpacking into targets of every kind.
a, (b, c), [d, *e] = 1, (2, 3), [4, 5, 6]
print(a, b, c, d, e)
lst = [0, 0, 0]
lst[0], lst[1:] = "x", ["y", "z", "w"]
print(lst)
class O: pass
o = O()
o.p, o.q = 1, 2
print(o.p, o.q)
d = {}
d["a"], d["b"] = range(2)
print(d)
for (k, v), n in zip({"x": 1, "y": 2}.items(), [10, 20]):
    print(k, v, n)
head, *_, tail = range(10)
print(head, tail, _)
(*init,) = "abc"
print(init)
a, b = b, a = 1, 2
print(a, b)
x, y = y, x = "p", "q"
print(x, y)
