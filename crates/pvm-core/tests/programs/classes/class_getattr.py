# __getattr__ (fallback), __getattribute__, __setattr__, __delattr__.
class Proxy:
    def __init__(self, target):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "log", [])
    def __getattr__(self, name):
        self.log.append(("get", name))
        return getattr(self._target, name)
    def __setattr__(self, name, value):
        self.log.append(("set", name))
        setattr(self._target, name, value)
    def __delattr__(self, name):
        self.log.append(("del", name))
        delattr(self._target, name)
class T:
    def __init__(self):
        self.x = 1
    def hi(self):
        return "hi"
t = T()
p = Proxy(t)
print(p.x, p.hi())
p.y = 5
print(t.y)
del p.y
print(hasattr(t, "y"), p.log)
try:
    p.missing
except AttributeError as e:
    print("AttributeError", e)
class Upper:
    def __getattribute__(self, name):
        v = object.__getattribute__(self, name)
        return v.upper() if isinstance(v, str) else v
u = Upper()
u.name = "quiet"
print(u.name)
class Dyn:
    def __getattr__(self, name):
        if name.startswith("get_"):
            return lambda: name[4:]
        raise AttributeError(f"no {name}")
d = Dyn()
print(d.get_color(), getattr(d, "get_size")(), hasattr(d, "other"), getattr(d, "other", "dflt"))
