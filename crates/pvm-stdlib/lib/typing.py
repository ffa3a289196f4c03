"""typing for the PVM: the names actor code annotates with.

Annotations are documentation in the PVM (nothing is checked at run time), so these
objects only need to exist, subscript, compare and print like CPython's.
"""

TYPE_CHECKING = False


class _Alias:
    __slots__ = ('_name', '__origin__', '__args__')

    def __init__(self, name, origin, args):
        self._name = name
        self.__origin__ = origin
        self.__args__ = args

    def __repr__(self):
        return f'typing.{self._name}[' + ', '.join(_type_repr(a) for a in self.__args__) + ']'

    def __eq__(self, other):
        return isinstance(other, _Alias) and (self._name, self.__args__) == (other._name, other.__args__)

    def __hash__(self):
        return hash((self._name, self.__args__))

    def __getitem__(self, params):
        return _Alias(self._name, self.__origin__, params if isinstance(params, tuple) else (params,))

    def __call__(self, *args, **kwargs):
        if self.__origin__ is None:
            raise TypeError(f'Type {self._name} cannot be instantiated')
        return self.__origin__(*args, **kwargs)


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == 'builtins':
            return obj.__qualname__
        return f'{obj.__module__}.{obj.__qualname__}'
    if obj is ...:
        return '...'
    if obj is None or obj is type(None):
        return 'None'
    return repr(obj)


class _Special:
    __slots__ = ('_name', '_origin')

    def __init__(self, name, origin=None):
        self._name = name
        self._origin = origin

    def __repr__(self):
        return f'typing.{self._name}'

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if self._name == 'Optional':
            if len(params) != 1:
                raise TypeError(f'typing.Optional requires a single type. Got {params!r}.')
            return Union[params[0], None]
        if self._name == 'Union':
            flat = []
            for p in params:
                p = type(None) if p is None else p
                args = p.__args__ if isinstance(p, _Alias) and p._name in ('Union', 'Optional') else (p,)
                for a in args:
                    if a not in flat:
                        flat.append(a)
            if len(flat) == 1:
                return flat[0]
            if len(flat) == 2 and type(None) in flat:
                other = flat[0] if flat[1] is type(None) else flat[1]
                return _Alias('Optional', None, (other,))
            return _Alias('Union', None, tuple(flat))
        return _Alias(self._name, self._origin, params)

    def __call__(self, *args, **kwargs):
        if self._origin is None:
            raise TypeError(f'Cannot instantiate typing.{self._name}')
        raise TypeError(f'Type {self._name} cannot be instantiated; use {self._origin.__name__}() instead')

    def __instancecheck__(self, obj):
        raise TypeError(f'typing.{self._name} cannot be used with isinstance()')


Any = _Special('Any')
Union = _Special('Union')
Optional = _Special('Optional')
ClassVar = _Special('ClassVar')
Final = _Special('Final')
Literal = _Special('Literal')
Annotated = _Special('Annotated')
NoReturn = _Special('NoReturn')
Never = _Special('Never')
Self = _Special('Self')
List = _Special('List', list)
Dict = _Special('Dict', dict)
Set = _Special('Set', set)
FrozenSet = _Special('FrozenSet', frozenset)
Tuple = _Special('Tuple', tuple)
Type = _Special('Type', type)
Callable = _Special('Callable')
Iterable = _Special('Iterable')
Iterator = _Special('Iterator')
Generator = _Special('Generator')
Sequence = _Special('Sequence')
MutableSequence = _Special('MutableSequence')
Mapping = _Special('Mapping')
MutableMapping = _Special('MutableMapping')
AbstractSet = _Special('AbstractSet')
Hashable = _Special('Hashable')
Sized = _Special('Sized')
DefaultDict = _Special('DefaultDict')
OrderedDict = _Special('OrderedDict')
Counter = _Special('Counter')
Deque = _Special('Deque')


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        prefix = '+' if self.__covariant__ else '-' if self.__contravariant__ else '~'
        return prefix + self.__name__


class Generic:
    def __class_getitem__(cls, params):
        return cls


class Protocol(Generic):
    pass


class _NamedTupleMeta(type):
    def __new__(mcls, typename, bases, ns, **kwargs):
        if ns.get('_root', False):
            return super().__new__(mcls, typename, bases, ns)
        from collections import namedtuple
        types = ns.get('__annotations__', {})
        fields = list(types)
        defaults = []
        for name in fields:
            if name in ns:
                defaults.append(ns[name])
            elif defaults:
                raise TypeError(f"Non-default namedtuple field {name} cannot follow default field"
                                f"{'s' if len(defaults) > 1 else ''} {', '.join(fields[len(fields) - len(defaults) - 1:fields.index(name)])}")
        nt = namedtuple(typename, fields, defaults=defaults, module=ns.get('__module__'))
        nt.__annotations__ = dict(types)
        for key, value in ns.items():
            if key in ('__module__', '__qualname__', '__annotations__', '_root') or key in fields:
                continue
            if key.startswith('_') and key in ('_make', '_asdict', '_replace', '_fields', '_field_defaults'):
                raise AttributeError('Cannot overwrite NamedTuple attribute ' + key)
            setattr(nt, key, value)
        return nt


class NamedTuple(metaclass=_NamedTupleMeta):
    """Typed version of collections.namedtuple: `class P(NamedTuple): x: int`."""
    _root = True


class _TypedDictMeta(type):
    def __new__(mcls, name, bases, ns, total=True):
        annotations = {}
        for base in bases:
            annotations.update(base.__dict__.get('__annotations__', {}))
        own = ns.get('__annotations__', {})
        annotations.update(own)
        required = set()
        optional = set()
        for base in bases:
            required.update(base.__dict__.get('__required_keys__', ()))
            optional.update(base.__dict__.get('__optional_keys__', ()))
        (required if total else optional).update(own)
        ns = dict(ns)
        ns.pop('_root', None)
        cls = super().__new__(mcls, name, (dict,), ns)
        cls.__annotations__ = annotations
        cls.__required_keys__ = frozenset(required)
        cls.__optional_keys__ = frozenset(optional)
        cls.__total__ = total
        return cls

    def __call__(cls, *args, **kwargs):
        return dict(*args, **kwargs)

    def __subclasscheck__(cls, other):
        raise TypeError('TypedDict does not support instance and class checks')

    __instancecheck__ = __subclasscheck__


class TypedDict(metaclass=_TypedDictMeta):
    """A dict with a fixed set of typed keys; instances are plain dicts."""
    _root = True


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(arg):
    return arg


def get_origin(tp):
    return getattr(tp, '__origin__', None)


def get_args(tp):
    return getattr(tp, '__args__', ())


def NewType(name, tp):
    def new_type(x):
        return x
    new_type.__name__ = name
    new_type.__supertype__ = tp
    return new_type
