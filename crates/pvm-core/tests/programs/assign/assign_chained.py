# Chained assignment shares the same object; evaluation order left to right.
a = b = c = []
a.append(1)
print(a, b, c, a is b is c)
x = y = 5
x += 1
print(x, y)
order = []
class Rec:
    def __setitem__(self, k, v):
        order.append((k, v))
r = Rec()
r["first"] = r["second"] = "v"
print(order)
i = lst = None
lst = [0, 0, 0]
i = lst[i] = 1 if False else 2
print(i, lst)
