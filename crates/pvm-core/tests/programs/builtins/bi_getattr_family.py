# getattr/setattr/hasattr/delattr.
class O:
    cls_attr = "c"
    def method(self):
        return "m"
o = O()
setattr(o, "x", 1)
print(getattr(o, "x"), getattr(o, "cls_attr"), getattr(o, "missing", "default"), getattr(o, "method")(), hasattr(o, "x"), hasattr(o, "y"))
delattr(o, "x")
print(hasattr(o, "x"))
try:
    getattr(o, "missing")
except AttributeError as e:
    print("AttributeError", e)
try:
    delattr(o, "missing")
except AttributeError as e:
    print("AttributeError", e)
try:
    getattr(o, 5)
except TypeError as e:
    print("TypeError", e)
for name in ["a", "b", "c"]:
    setattr(o, name, name.upper())
print([getattr(o, n) for n in "abc"], vars(o))
print(getattr("str", "upper")(), getattr([], "append") is not None, hasattr(5, "real"), getattr(5, "imag"))
