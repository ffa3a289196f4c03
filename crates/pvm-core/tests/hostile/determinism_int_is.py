# expect: DeterminismError
# Small-int caching is an implementation detail.
x = 250 + 6
print(x is 256)
