# expect: DeterminismError
# Identity of strings depends on interning.
a = "cow" + "boy"
b = "cowboy"
print(a == b)
print(a is b)
