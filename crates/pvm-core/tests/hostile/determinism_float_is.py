# expect: DeterminismError
print(1.0 is 1.0)
