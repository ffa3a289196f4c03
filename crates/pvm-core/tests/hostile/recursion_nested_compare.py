# expect: RecursionError
# Comparing two very deeply nested structures recurses through the container compare.
a = []
b = []
for _ in range(5000):
    a = [a]
    b = [b]
print(a == b)
