"""dataclasses for the PVM: @dataclass, field, fields, asdict, astuple, replace.

Generated methods are closures over the field list (the PVM has no exec), with CPython
3.11's behaviour and error messages for the common options: init, repr, eq, order, frozen,
unsafe_hash, kw_only, match_args, default / default_factory.
"""

__all__ = ['dataclass', 'field', 'Field', 'FrozenInstanceError', 'InitVar', 'KW_ONLY', 'MISSING',
           'fields', 'asdict', 'astuple', 'make_dataclass', 'replace', 'is_dataclass']


class FrozenInstanceError(AttributeError):
    pass


class _MissingType:
    def __repr__(self):
        return 'MISSING'


MISSING = _MissingType()


class _KwOnlyType:
    pass


KW_ONLY = _KwOnlyType()


class InitVar:
    __slots__ = ('type',)

    def __init__(self, type):
        self.type = type

    def __class_getitem__(cls, type):
        return InitVar(type)


class Field:
    __slots__ = ('name', 'type', 'default', 'default_factory', 'repr', 'hash', 'init', 'compare',
                 'metadata', 'kw_only', '_field_type')

    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else dict(metadata)
        self.kw_only = kw_only
        self._field_type = None

    def __repr__(self):
        return (f'Field(name={self.name!r},type={self.type!r},default={self.default!r},'
                f'default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},'
                f'hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},'
                f'kw_only={self.kw_only!r},_field_type={self._field_type})')


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


_FIELDS = '__dataclass_fields__'
_PARAMS = '__dataclass_params__'


def _is_classvar(annotation):
    if isinstance(annotation, str):
        return annotation.startswith('ClassVar') or annotation.startswith('typing.ClassVar')
    return getattr(annotation, '_name', None) == 'ClassVar' or repr(annotation).startswith('typing.ClassVar')


def _process_fields(cls, kw_only_default):
    fields = {}
    for base in reversed(cls.__mro__[1:]):
        base_fields = base.__dict__.get(_FIELDS)
        if base_fields is not None:
            for f in base_fields.values():
                fields[f.name] = f
    annotations = cls.__dict__.get('__annotations__', {})
    kw_only = kw_only_default
    own = []
    for name, annotation in annotations.items():
        if annotation is KW_ONLY or annotation is _KwOnlyType:
            kw_only = True
            continue
        if _is_classvar(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            f = field(default=default)
        f.name = name
        f.type = annotation
        f._field_type = '_FIELD_INITVAR' if isinstance(annotation, InitVar) else '_FIELD'
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if f.default_factory is MISSING and isinstance(f.default, (list, dict, set)):
            raise ValueError(f'mutable default {type(f.default)} for field {name} is not allowed: use default_factory')
        if isinstance(default, Field):
            if f.default is MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        own.append(f)
        fields[name] = f
    return fields


def _init_fields(fields):
    return [f for f in fields.values() if f.init]


def _make_init(cls, fields, frozen):
    params = _init_fields(fields)
    positional = [f for f in params if not f.kw_only]
    keyword = [f for f in params if f.kw_only]
    seen_default = False
    for f in positional:
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if has_default:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument '{f.name}' follows default argument")
    qualname = cls.__qualname__
    post_init = getattr(cls, '__post_init__', None)
    initvars = [f.name for f in params if f._field_type == '_FIELD_INITVAR']

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            most = len(positional) + 1
            least = most - sum(1 for f in positional if f.default is not MISSING or f.default_factory is not MISSING)
            takes = f'{most} positional argument{"s" if most != 1 else ""}' if least == most else \
                f'from {least} to {most} positional arguments'
            given = len(args) + 1
            raise TypeError(f'{qualname}.__init__() takes {takes} but {given} {"was" if given == 1 else "were"} given')
        values = {}
        for f, value in zip(positional, args):
            values[f.name] = value
        for name, value in kwargs.items():
            f = fields.get(name)
            if f is None or not f.init:
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument '{name}'")
            if name in values:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument '{name}'")
            values[name] = value
        missing_pos = [f.name for f in positional if f.name not in values
                       and f.default is MISSING and f.default_factory is MISSING]
        if missing_pos:
            plural = 's' if len(missing_pos) > 1 else ''
            raise TypeError(f'{qualname}.__init__() missing {len(missing_pos)} required positional argument'
                            f'{plural}: ' + _quoted(missing_pos))
        missing_kw = [f.name for f in keyword if f.name not in values
                      and f.default is MISSING and f.default_factory is MISSING]
        if missing_kw:
            plural = 's' if len(missing_kw) > 1 else ''
            raise TypeError(f'{qualname}.__init__() missing {len(missing_kw)} required keyword-only argument'
                            f'{plural}: ' + _quoted(missing_kw))
        for f in fields.values():
            if f._field_type == '_FIELD_INITVAR':
                continue
            if f.name in values:
                value = values[f.name]
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            elif f.default is not MISSING:
                value = f.default
            else:
                continue
            if frozen:
                object.__setattr__(self, f.name, value)
            else:
                setattr(self, f.name, value)
        if post_init is not None:
            post_init(self, *[values.get(name, fields[name].default) for name in initvars])
    __init__.__qualname__ = f'{qualname}.__init__'
    return __init__


def _quoted(names):
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ', '.join(quoted[:-1]) + ' and ' + quoted[-1]


def _tuple_of(self, fields):
    return tuple(getattr(self, f.name) for f in fields)


def _add_order(cls, compare_fields):
    def make(op_name, op):
        def method(self, other):
            if other.__class__ is self.__class__:
                return op(_tuple_of(self, compare_fields), _tuple_of(other, compare_fields))
            return NotImplemented
        method.__name__ = op_name
        return method
    for name, op in (('__lt__', lambda a, b: a < b), ('__le__', lambda a, b: a <= b),
                     ('__gt__', lambda a, b: a > b), ('__ge__', lambda a, b: a >= b)):
        if name in cls.__dict__:
            raise TypeError(f'Cannot overwrite attribute {name} in class {cls.__name__}. '
                            'Consider using functools.total_ordering')
        setattr(cls, name, make(name, op))


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only):
    fields = _process_fields(cls, kw_only)
    setattr(cls, _FIELDS, fields)
    setattr(cls, _PARAMS, (init, repr, eq, order, unsafe_hash, frozen))
    data_fields = [f for f in fields.values() if f._field_type == '_FIELD']
    if order and not eq:
        raise ValueError('eq must be true if order is true')
    if init and '__init__' not in cls.__dict__:
        cls.__init__ = _make_init(cls, fields, frozen)
    if repr and '__repr__' not in cls.__dict__:
        repr_fields = [f for f in data_fields if f.repr]
        guard = set()

        def __repr__(self):
            key = _Identity(self)
            if key in guard:
                return '...'
            guard.add(key)
            try:
                inner = ', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in repr_fields)
            finally:
                guard.discard(key)
            return f'{self.__class__.__qualname__}({inner})'
        cls.__repr__ = __repr__
    compare_fields = [f for f in data_fields if f.compare]
    if eq and '__eq__' not in cls.__dict__:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _tuple_of(self, compare_fields) == _tuple_of(other, compare_fields)
            return NotImplemented
        cls.__eq__ = __eq__
    if order:
        _add_order(cls, compare_fields)
    if frozen:
        def __setattr__(self, name, value):
            if type(self) is cls or name in fields:
                raise FrozenInstanceError(f'cannot assign to field {name!r}')
            super(cls, self).__setattr__(name, value)

        def __delattr__(self, name):
            if type(self) is cls or name in fields:
                raise FrozenInstanceError(f'cannot delete field {name!r}')
            super(cls, self).__delattr__(name)
        for name, method in (('__setattr__', __setattr__), ('__delattr__', __delattr__)):
            if name in cls.__dict__:
                raise TypeError(f'Cannot overwrite attribute {name} in class {cls.__name__}')
            setattr(cls, name, method)
    hash_fields = [f for f in data_fields if (f.compare if f.hash is None else f.hash)]
    has_explicit_hash = '__hash__' in cls.__dict__ and cls.__dict__['__hash__'] is not None
    if unsafe_hash or (eq and frozen):
        if unsafe_hash and has_explicit_hash:
            raise TypeError(f'Cannot overwrite attribute __hash__ in class {cls.__name__}')
        if not has_explicit_hash or unsafe_hash:
            cls.__hash__ = lambda self: hash(_tuple_of(self, hash_fields))
    elif eq and not has_explicit_hash:
        cls.__hash__ = None
    if match_args and '__match_args__' not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in _init_fields(fields) if not f.kw_only)
    return cls


class _Identity:
    __slots__ = ('obj',)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return 0

    def __eq__(self, other):
        return self.obj is other.obj


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False, weakref_slot=False):
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only)
    if cls is None:
        return wrap
    return wrap(cls)


def fields(class_or_instance):
    try:
        found = getattr(class_or_instance, _FIELDS)
    except AttributeError:
        raise TypeError('must be called with a dataclass type or instance') from None
    return tuple(f for f in found.values() if f._field_type == '_FIELD')


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, _FIELDS)


def _is_dataclass_instance(obj):
    return hasattr(type(obj), _FIELDS)


def asdict(obj, *, dict_factory=dict):
    if not _is_dataclass_instance(obj):
        raise TypeError('asdict() should be called on dataclass instances')
    return _asdict_inner(obj, dict_factory)


def _asdict_inner(obj, dict_factory):
    if _is_dataclass_instance(obj):
        return dict_factory([(f.name, _asdict_inner(getattr(obj, f.name), dict_factory)) for f in fields(obj)])
    if isinstance(obj, tuple) and hasattr(obj, '_fields'):
        return type(obj)(*[_asdict_inner(v, dict_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict_inner(v, dict_factory) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_asdict_inner(k, dict_factory), _asdict_inner(v, dict_factory)) for k, v in obj.items())
    return obj


def astuple(obj, *, tuple_factory=tuple):
    if not _is_dataclass_instance(obj):
        raise TypeError('astuple() should be called on dataclass instances')
    return _astuple_inner(obj, tuple_factory)


def _astuple_inner(obj, tuple_factory):
    if _is_dataclass_instance(obj):
        return tuple_factory([_astuple_inner(getattr(obj, f.name), tuple_factory) for f in fields(obj)])
    if isinstance(obj, tuple) and hasattr(obj, '_fields'):
        return type(obj)(*[_astuple_inner(v, tuple_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_astuple_inner(v, tuple_factory) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_astuple_inner(k, tuple_factory), _astuple_inner(v, tuple_factory)) for k, v in obj.items())
    return obj


def replace(obj, /, **changes):
    if not _is_dataclass_instance(obj):
        raise TypeError('replace() should be called on dataclass instances')
    for f in getattr(obj, _FIELDS).values():
        if not f.init:
            if f.name in changes:
                raise ValueError(f'field {f.name} is declared with init=False, it cannot be specified with replace()')
            continue
        if f.name not in changes:
            if f._field_type == '_FIELD_INITVAR' and f.default is MISSING:
                raise ValueError(f"InitVar {f.name!r} must be specified with replace()")
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, **kwargs):
    namespace = {} if namespace is None else dict(namespace)
    annotations = {}
    for item in fields:
        if isinstance(item, str):
            name, tp = item, 'typing.Any'
        elif len(item) == 2:
            name, tp = item
        else:
            name, tp, spec = item
            namespace[name] = spec
        annotations[name] = tp
    namespace['__annotations__'] = annotations
    cls = type(cls_name, bases, namespace)
    return dataclass(cls, **kwargs)
