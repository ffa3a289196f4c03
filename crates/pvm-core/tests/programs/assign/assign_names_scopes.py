# Assignment creates locals; class bodies have their own namespace.
x = 1
def f():
    x = 2
    def g():
        return x
    return g()
print(f(), x)
class C:
    x = 3
    y = x + 1
    def m(self):
        return x
print(C.x, C.y, C().m())
def h():
    for i in range(3):
        pass
    return i
print(h())
def loop_shadow():
    total = 0
    for total in range(5):
        pass
    return total
print(loop_shadow())
