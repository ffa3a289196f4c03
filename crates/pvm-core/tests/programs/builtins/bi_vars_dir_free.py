# vars(), __dict__, __class__, __name__ of builtins and user classes.
class Cfg:
    debug = False
    def __init__(self):
        self.level = 3
        self.name = "x"
c = Cfg()
print(vars(c), c.__dict__ is vars(c), c.__class__.__name__, Cfg.__name__)
c.__dict__["extra"] = 1
print(c.extra, sorted(k for k in vars(Cfg) if not k.startswith("__")))
print(len.__name__, int.__name__, str.__name__, list.append.__name__, "abc".upper.__name__)
