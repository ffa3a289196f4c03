# Assignment expressions (walrus).
data = [3, 8, 1, 12, 7]
if (n := len(data)) > 3:
    print("long", n)
print([y for x in data if (y := x * 2) > 10], y)
vals = iter([5, 4, 0, 3])
total = 0
while (v := next(vals)) != 0:
    total += v
print(total, v)
print((w := 10) + w, w)
def f():
    [last := i for i in range(4)]
    return last
print(f())
stack = [1, 2, 3]
while stack and (top := stack.pop()) != 2:
    print("popped", top)
print(top, stack)
print([(a, b) for a in range(3) if (b := a * a) % 2 == 0])
