# Exhaustive small slice matrix on a list and a string.
data = list(range(6))
text = "abcdef"
for start in (None, -7, -2, 0, 3, 6):
    for stop in (None, -7, -1, 2, 6):
        for step in (None, -2, -1, 1, 3):
            a = data[start:stop:step]
            b = text[start:stop:step]
            print(start, stop, step, a, b)
