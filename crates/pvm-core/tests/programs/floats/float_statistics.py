import math
# Small statistics helpers written with floats.
data = [12.5, 7.25, 3.0, 8.75, 10.0, 4.5, 9.125, 6.0]
n = len(data)
mean = sum(data) / n
print("mean", mean)
s = sorted(data)
median = (s[n // 2 - 1] + s[n // 2]) / 2
print("median", median)
var = sum((x - mean) ** 2 for x in data) / (n - 1)
print("var", var)
print("stdev", f"{math.sqrt(var):.10f}")
print("min/max", min(data), max(data), "range", max(data) - min(data))
z = [round((x - mean) / math.sqrt(var), 6) for x in data]
print("z", z)
xs = [1.0, 2.0, 3.0, 4.0, 5.0]
ys = [2.1, 3.9, 6.2, 7.8, 10.1]
mx, my = sum(xs) / 5, sum(ys) / 5
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print("slope", slope, "intercept", my - slope * mx)
print("pct", ["%.1f%%" % (100 * x / sum(data)) for x in data])
