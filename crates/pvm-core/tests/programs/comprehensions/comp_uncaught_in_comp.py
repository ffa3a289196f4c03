# Ends with an uncaught exception raised inside a comprehension.
data = ["1", "2", "x3", "4"]
print([int(s) for s in data[:2]])
print([int(s) for s in data])
