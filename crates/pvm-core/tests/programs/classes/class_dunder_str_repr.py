# __str__ vs __repr__ and their use by print/format/containers.
class P:
    def __init__(self, x):
        self.x = x
    def __repr__(self):
        return f"P({self.x!r})"
    def __str__(self):
        return f"<{self.x}>"
    def __format__(self, spec):
        if spec == "hex":
            return hex(self.x)
        return format(str(self), spec)
p = P(255)
print(p, repr(p), str(p), [p], (p,), {"k": p}, f"{p}", f"{p!r}", f"{p:hex}", f"{p:>8}|", "%s %r" % (p, p))
class OnlyRepr:
    def __repr__(self):
        return "OnlyRepr()"
print(OnlyRepr(), str(OnlyRepr()), [OnlyRepr()])
class BadStr:
    def __str__(self):
        return 5
try:
    str(BadStr())
except TypeError as e:
    print("TypeError", e)
