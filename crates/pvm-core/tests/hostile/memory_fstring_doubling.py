# expect: MemoryError
# cycles: 1000000000
# Doubling via f-strings instead of +.
s = "ab"
for _ in range(64):
    s = f"{s}{s}"
print(len(s))
