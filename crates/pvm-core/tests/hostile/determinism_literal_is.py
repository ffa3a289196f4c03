# expect: DeterminismError
print("a" is "a")
