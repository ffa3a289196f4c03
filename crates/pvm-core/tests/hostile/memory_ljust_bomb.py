# expect: MemoryError
# cycles: 1000000000
# Padding methods asked for a gigantic width.
s = "pad".ljust(500_000_000, "*")
print(len(s))
