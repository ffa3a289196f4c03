# Comprehension scope rules: loop variable does not leak; class-scope visibility.
x = "outer"
lst = [x for x in range(3)]
print(x, lst)
y = 10
print([y + i for i in range(3)])
class C:
    val = 5
    items = [i for i in range(3)]
    first = [val for _ in range(1)] if False else None
    try:
        broken = [val * i for i in range(3)]
    except NameError as e:
        err = "NameError " + str(e)
print(C.items, C.err)
class D:
    val = 5
    ok = [v * 2 for v in [val]]
print(D.ok)
fns = [lambda: i for i in range(3)]
print([f() for f in fns])
fns2 = [lambda i=i: i for i in range(3)]
print([f() for f in fns2])
def outer():
    z = 7
    return [z * k for k in range(3)]
print(outer())
