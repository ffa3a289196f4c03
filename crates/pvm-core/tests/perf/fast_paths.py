# Exercises the interpreter's fast paths; output and cycle count must not depend on them.
xs = [1.5, -2.0, 3.25, 0.0, -0.0, 7]
t = (4, 5.5, "a", None)
acc = 0.0
n = 0
for i in range(len(xs)):
    acc += xs[i] * 2
    acc -= xs[-1 - i] / 4
    acc *= 1.0001
    if xs[i] < 1 or xs[i] >= 3.25 or xs[i] == 0 or xs[i] > 2**53 or xs[i] <= -2:
        n += 1
for v in t:
    if v == "a" or v != "b":
        n += 1
for a, b in [(1, 2.0), (3.0, 4)]:
    acc += a * b
    acc += (a * a + b * b) ** 0.5
s = "hello, world"
for ch in s:
    if ch == "o" or ch == "l":
        n += 1
for i in range(len(s)):
    if s[i] == s[-1 - i]:
        n += 1
ys = [0] * 8
for i in range(8):
    ys[i] = i * i
    ys[-1] += ys[i]
k = 1
while k < 100:
    k += k
nan = float("nan")
print(acc, n, ys, k, nan < 1.0, nan == nan, nan != nan, 1.0 == 1, 2**60 > 1.5, t[1] >= 5, s[4])
print(2.0 ** 0.5, 1e300 ** 0.5, 5e-324 ** 0.5, 0.25 ** 0.5, (-0.0) ** 0.5)
