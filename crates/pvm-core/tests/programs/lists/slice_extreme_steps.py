# Slices whose step or bounds sit at the ends of the 64-bit range.
big = 2**63
xs = [1, 2, 3, 4, 5]
print(xs[::-big])
print(xs[::big - 1])
print(xs[::-(big - 1)])
print(xs[-big:big])
print(xs[big:-big:-1])
print(xs[-big:big:-big])
print("abcde"[::-big], "abcde"[::big - 1])
print((1, 2, 3)[::-big], b"xyz"[::-big])
print(list(range(10))[::-big], range(10)[::-big])
ys = list(range(6))
ys[::-big] = ["last"]
print(ys)
del ys[::-big]
print(ys)
try:
    xs[::0]
except ValueError as e:
    print("ValueError:", e)
