# expect: OutOfCycles
# An expensive nested generator expression that allocates nothing: pure compute.
print(sum(i * j for i in range(10**5) for j in range(10**5)))
