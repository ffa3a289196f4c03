import math
# Precision effects in summation order.
vals = [1e-16] * 10 + [1.0]
print(sum(vals), sum(reversed(vals)), math.fsum(vals))
vals2 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
print(sum(vals2), math.fsum(vals2), sum(sorted(vals2, reverse=True)))
acc = 0.0
for i in range(1000):
    acc += 0.001
print(acc, round(acc, 10), acc == 1.0)
print(math.fsum([1.1, 2.2, 3.3]), 1.1 + 2.2 + 3.3)
print(math.prod([1.5, 2.0, 0.25]), math.prod([0.1] * 3))
