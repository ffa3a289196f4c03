# expect: OutOfCycles
# iter(callable, sentinel) whose sentinel never arrives.
n = 0
for v in iter(lambda: 1, 0):
    n += v
print(n)
