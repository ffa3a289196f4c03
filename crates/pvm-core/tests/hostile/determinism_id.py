# expect: DeterminismError
# id() exposes addresses.
class Obj:
    pass
o = Obj()
print(id(o) % 1000)
