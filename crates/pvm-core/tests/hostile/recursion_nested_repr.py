# expect: RecursionError
# repr() of very deeply nested lists (built iteratively, so building is fine).
x = []
for _ in range(5000):
    x = [x]
print(len(repr(x)))
