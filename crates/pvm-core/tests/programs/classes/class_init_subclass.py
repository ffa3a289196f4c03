# __init_subclass__ registration and class-level hooks.
class Plugin:
    registry = {}
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        Plugin.registry[name or cls.__name__.lower()] = cls
class Csv(Plugin, name="csv"):
    pass
class Json(Plugin):
    pass
print(sorted(Plugin.registry), Plugin.registry["csv"].__name__)
class Base:
    def __init_subclass__(cls):
        cls.tag = cls.__name__ * 2
class Kid(Base):
    pass
print(Kid.tag)
