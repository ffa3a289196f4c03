# Ends with an uncaught TypeError: range with a float argument.
steps = [1, 2, 0.5]
for s in steps:
    print(s, list(range(0, 4, s)))
