# Re-implementing enumerate/zip/map with generators.
def my_enumerate(it, start=0):
    n = start
    for x in it:
        yield n, x
        n += 1
def my_zip(*its):
    iters = [iter(i) for i in its]
    while True:
        row = []
        for it in iters:
            try:
                row.append(next(it))
            except StopIteration:
                return
        yield tuple(row)
def my_map(f, it):
    for x in it:
        yield f(x)
print(list(my_enumerate("abc", 1)), list(my_zip([1, 2, 3], "ab")), list(my_map(str.upper, ["x", "y"])))
print(list(my_enumerate(my_zip(range(3), range(3, 6)))))
