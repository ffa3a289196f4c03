# The first iterable is evaluated eagerly in the enclosing scope.
log = []
def src(name, n):
    log.append(name)
    return range(n)
g = ((a, b) for a in src("outer", 2) for b in src("inner", 2))
print(log)
print(list(g))
print(log)
lst = [1, 2, 3]
g2 = (x for x in lst)
lst = [9]
print(list(g2))
