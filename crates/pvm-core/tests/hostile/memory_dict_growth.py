# expect: MemoryError
# cycles: 1000000000
# A dict that grows without bound.
d = {}
k = 0
while True:
    d[k] = "value-" + str(k)
    k += 1
