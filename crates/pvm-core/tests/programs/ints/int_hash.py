# hash() of ints and tuples of ints is the same as CPython's.
for n in [0, 1, -1, -2, 2**61 - 2, 2**61 - 1, 2**61, 2**64, -(2**64), 10**30, 123456789]:
    print(n, hash(n))
print(hash((1, 2, 3)), hash(()), hash((0,)), hash((-1, -2)))
print(hash(((1, 2), (3, 4))), hash(True), hash(False))
print(hash(1.0) == hash(1), hash(2**100) == hash(float(2**100)))
