# Ends with an uncaught TypeError: calling next() on a non-iterator.
items = [1, 2, 3]
it = iter(items)
print(next(it), next(it))
print(next(items))
