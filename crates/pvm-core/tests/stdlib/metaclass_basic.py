# Custom metaclasses in user code (the machinery abc and enum rely on).
class Registry(type):
    classes = []

    def __new__(mcls, name, bases, ns, **kw):
        ns["tag"] = name.lower()
        cls = super().__new__(mcls, name, bases, ns)
        mcls.classes.append(name)
        return cls

    def __init__(cls, name, bases, ns, **kw):
        cls.initialised = kw.get("flavour", "plain")

    def describe(cls):
        return f"{cls.__name__}<{cls.tag}>"

    @property
    def size(cls):
        return len(cls.__name__)

    def __len__(cls):
        return 3

    def __iter__(cls):
        return iter(range(3))

    def __getitem__(cls, k):
        return k * 2

    def __contains__(cls, x):
        return x == "in"

    def __repr__(cls):
        return f"<registered {cls.__name__}>"


class Base(metaclass=Registry):
    pass


class Child(Base, flavour="spicy"):
    def hello(self):
        return "hi from " + self.tag


print(Registry.classes, type(Base) is Registry, type(Child).__name__, isinstance(Child, Registry))
print(Child.tag, Child.initialised, Base.initialised, Child.describe(), Child.size)
print(len(Child), list(Child), Child[21], "in" in Child, "out" in Child, repr(Child), Child)
print(Child().hello(), isinstance(Child(), Base), issubclass(Child, Base))


class Counted(type):
    def __call__(cls, *args, **kwargs):
        cls.made = getattr(cls, "made", 0) + 1
        return super().__call__(*args, **kwargs)


class Widget(metaclass=Counted):
    def __init__(self, n):
        self.n = n


w = Widget(5)
Widget(6)
print(w.n, Widget.made, type(w).__name__)


class Frozen(type):
    def __setattr__(cls, name, value):
        if name.startswith("locked"):
            raise AttributeError(f"{name} is locked")
        super().__setattr__(name, value)


class Conf(metaclass=Frozen):
    locked_a = 1


Conf.other = 2
try:
    Conf.locked_a = 3
except AttributeError as e:
    print("AttributeError:", e)
print(Conf.other, Conf.locked_a)


class Plain(type):
    pass


class UsesPlain(metaclass=Plain):
    x = 1


print(type(UsesPlain).__name__, UsesPlain.x, UsesPlain().x)


class Sub(Registry):
    pass


class Mixed(Base, metaclass=Sub):
    pass


print(type(Mixed).__name__, Mixed.describe())
try:
    class Conflict(Base, UsesPlain):
        pass
except TypeError as e:
    print("TypeError:", e)


class WithInitSubclass:
    seen = []

    def __init_subclass__(cls, /, key=None, **kw):
        super().__init_subclass__(**kw)
        WithInitSubclass.seen.append((cls.__name__, key))


class A(WithInitSubclass, key="a"):
    pass


class B(A):
    pass


print(WithInitSubclass.seen)


class Desc:
    def __set_name__(self, owner, name):
        self.name = owner.__name__ + "." + name

    def __get__(self, obj, objtype=None):
        return self.name


class HasDesc:
    attr = Desc()


print(HasDesc.attr, HasDesc().attr)
