# del of names, items, slices and attributes.
x = 1
del x
try:
    print(x)
except NameError as e:
    print("NameError", e)
lst = list(range(6))
del lst[0], lst[-1]
print(lst)
del lst[::2]
print(lst)
d = {"a": 1, "b": 2}
del d["a"]
print(d)
class O: pass
o = O()
o.attr = 5
del o.attr
print(hasattr(o, "attr"))
try:
    del o.attr
except AttributeError as e:
    print("AttributeError", e)
a, b = 1, 2
del a, b
print("a" in dir() if False else "deleted both")
def f():
    y = 1
    del y
    try:
        return y
    except UnboundLocalError as e:
        return "UnboundLocalError " + str(e)
print(f())
