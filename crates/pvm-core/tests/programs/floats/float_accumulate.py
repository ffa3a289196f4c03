# Numeric loops with floats: series, newton iteration, averages.
def newton_sqrt(a):
    x = a
    for _ in range(30):
        x = 0.5 * (x + a / x)
    return x
for a in [2.0, 10.0, 1e6, 0.01]:
    print(a, newton_sqrt(a))
s = 0.0
for k in range(1, 1001):
    s += 1.0 / (k * k)
print(s)
e = 0.0
f = 1.0
for k in range(20):
    e += 1.0 / f
    f *= k + 1
print(e)
data = [2.5, 3.75, 1.125, 9.0, 4.5, 6.25]
mean = sum(data) / len(data)
var = sum((d - mean) ** 2 for d in data) / len(data)
print(mean, var, var ** 0.5)
pi = 0.0
for k in range(2000):
    pi += (-1) ** k / (2 * k + 1)
print(pi * 4)
