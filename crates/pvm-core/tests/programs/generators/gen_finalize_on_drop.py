# Dropping the last reference to a suspended generator closes it: finally/with/except
# GeneratorExit code runs right there, exceptions escaping the finalizer are ignored.
class CM:
    def __enter__(self): print("enter"); return self
    def __exit__(self, *a): print("exit", a[0].__name__ if a[0] else None); return False
def g1():
    with CM():
        yield 1
        yield 2
def g2():
    try:
        yield 1
    except GeneratorExit:
        print("caught exit")
        raise
def g3():
    try:
        yield 1
    finally:
        yield 2   # ignores GeneratorExit
def g4():
    try:
        yield 1
    finally:
        raise ValueError("boom")
def outer():
    try:
        yield from g2()
    finally:
        print("outer finally")
print(next(g1()))
print("after g1")
x = g2(); next(x); x = None
print("after g2")
y = g3(); next(y); del y
print("after g3")
z = g4(); next(z); del z
print("after g4")
o = outer(); next(o); del o
print("after outer")
def f():
    a = g2()
    next(a)
    return 5
print(f())
l = [g1() for _ in range(2)]
for q in l: next(q)
l.clear()
print("cleared")
for v in g1():
    print("v", v)
    break
print("after break")
def gen_in_finally():
    try:
        yield 1
    finally:
        h = g2(); next(h); del h
        print("inner done")
w = gen_in_finally(); next(w); del w
del q
print("end")
