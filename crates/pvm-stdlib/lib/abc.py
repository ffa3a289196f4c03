"""abc for the PVM: abstract base classes.

`ABCMeta` refuses to instantiate a class that still has abstract methods, with CPython's
message. Virtual subclass registration (`register`) is supported for isinstance/issubclass.
"""


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def abstractproperty(fget=None, fset=None, fdel=None, doc=None):
    # Deprecated in CPython (use @property over @abstractmethod). In the PVM property
    # cannot be subclassed, so this returns a property whose accessors are marked abstract.
    for f in (fget, fset, fdel):
        if f is not None:
            f.__isabstractmethod__ = True
    return property(fget, fset, fdel, doc)


def _is_abstract(value):
    if getattr(value, '__isabstractmethod__', False):
        return True
    if isinstance(value, property):
        return any(getattr(f, '__isabstractmethod__', False) for f in (value.fget, value.fset, value.fdel) if f is not None)
    return False


class ABCMeta(type):
    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        abstracts = {name for name, value in namespace.items() if _is_abstract(value)}
        for base in bases:
            for name in getattr(base, '__abstractmethods__', ()):
                value = getattr(cls, name, None)
                if _is_abstract(value):
                    abstracts.add(name)
        cls.__abstractmethods__ = frozenset(abstracts)
        cls._abc_registry = []
        return cls

    def __call__(cls, *args, **kwargs):
        abstract = getattr(cls, '__abstractmethods__', ())
        if abstract:
            names = sorted(abstract)
            plural = 's' if len(names) > 1 else ''
            listed = ', '.join(names)
            raise TypeError(
                f"Can't instantiate abstract class {cls.__name__} with abstract method{plural} {listed}"
            )
        return super().__call__(*args, **kwargs)

    def register(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError('Can only register classes')
        cls._abc_registry.append(subclass)
        return subclass

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass):
        if type.__subclasscheck__(cls, subclass):
            return True
        for registered in cls._abc_registry:
            if issubclass(subclass, registered):
                return True
        return False


class ABC(metaclass=ABCMeta):
    __slots__ = ()


def get_cache_token():
    return 0
