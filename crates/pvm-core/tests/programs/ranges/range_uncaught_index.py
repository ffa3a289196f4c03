# Ends with an uncaught IndexError from indexing a range.
r = range(0, 50, 5)
print(len(r), r[0], r[9], r[-10])
print(r[10])
