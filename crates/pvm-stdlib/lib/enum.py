"""enum for the PVM: Enum, IntEnum, Flag, IntFlag, StrEnum, auto, unique.

Members are created by the `EnumMeta` metaclass when the class body ends; reprs and
errors follow CPython 3.11.
"""

__all__ = ['EnumMeta', 'EnumType', 'Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag', 'auto', 'unique']


class auto:
    """Placeholder for an automatically assigned member value."""

    _counter = 0

    def __init__(self):
        auto._counter += 1
        self._order = auto._counter
        self.value = None

    def __repr__(self):
        return 'auto()'


def _is_descriptor(obj):
    # functions, properties and class/static methods are descriptors (they have __get__ in
    # CPython; the PVM implements the binding natively, so test for them by type as well)
    return (isinstance(obj, (type(_is_private), property, classmethod, staticmethod))
            or hasattr(obj, '__get__') or hasattr(obj, '__set__') or hasattr(obj, '__delete__'))


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == '__' and name[2] != '_' and name[-3] != '_'


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == '_' and name[1] != '_' and name[-2] != '_'


def _is_private(cls_name, name):
    pattern = '_' + cls_name.lstrip('_') + '__'
    return name.startswith(pattern) and not name.endswith('__')


class EnumType(type):
    def __new__(metacls, cls, bases, classdict, **kwds):
        member_names = []
        values = {}
        for key, value in list(classdict.items()):
            if _is_dunder(key) or _is_sunder(key) or _is_private(cls, key) or _is_descriptor(value):
                continue
            if key in values:
                raise TypeError(f'{key!r} already defined as {values[key]!r}')
            member_names.append(key)
            values[key] = value
        for key in member_names:
            del classdict[key]
        enum_class = super().__new__(metacls, cls, bases, classdict, **kwds)
        enum_class._member_names_ = []
        enum_class._member_map_ = {}
        enum_class._value2member_map_ = {}
        first_enum = None
        for base in bases:
            if isinstance(base, EnumType):
                if base._member_names_:
                    raise TypeError(f'{cls}: cannot extend {base!r}')
                first_enum = base
        enum_class._is_flag_ = first_enum is not None and getattr(first_enum, '_is_flag_', False) or \
            any(getattr(b, '_is_flag_', False) for b in bases)
        last_values = []
        for index, name in enumerate(member_names):
            value = values[name]
            if isinstance(value, auto):
                value = enum_class._generate_next_value_(name, 1, index, last_values[:])
            last_values.append(value)
            enum_class._add_member_(name, value)
        return enum_class

    def _add_member_(cls, name, value):
        if value in cls._value2member_map_:
            # an alias of an existing member
            member = cls._value2member_map_[value]
        else:
            member = cls._make_member_(value)
            member._name_ = name
            cls._member_names_.append(name)
            cls._value2member_map_[value] = member
        cls._member_map_[name] = member
        type.__setattr__(cls, name, member)

    def _make_member_(cls, value):
        mixin = cls._mixin_type_()
        args = value if isinstance(value, tuple) and mixin is not object else (value,)
        if mixin is object:
            member = object.__new__(cls)
        else:
            member = mixin.__new__(cls, *args)
        member._value_ = value if mixin is object else mixin(*args)
        if hasattr(cls, '__init__') and cls.__init__ is not object.__init__ and mixin is object:
            init_args = value if isinstance(value, tuple) else (value,)
            cls.__init__(member, *init_args)
        return member

    def _mixin_type_(cls):
        for base in cls.__mro__:
            if base is object or isinstance(base, EnumType):
                continue
            return base
        return object

    def __call__(cls, value, *args, **kwds):
        if args or kwds:
            raise TypeError('functional Enum creation is not supported in the PVM')
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        missing = cls._missing_(value)
        if isinstance(missing, cls):
            return missing
        raise ValueError(f'{value!r} is not a valid {cls.__qualname__}')

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return (cls._member_map_[name] for name in cls._member_names_)

    def __reversed__(cls):
        return (cls._member_map_[name] for name in reversed(cls._member_names_))

    def __len__(cls):
        return len(cls._member_names_)

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError(
                f"unsupported operand type(s) for 'in': '{type(member).__qualname__}' and '{cls.__class__.__qualname__}'"
            )
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __repr__(cls):
        return f"<enum {cls.__name__!r}>"

    @property
    def __members__(cls):
        return dict(cls._member_map_)

    def __setattr__(cls, name, value):
        if name in cls.__dict__.get('_member_map_', {}):
            raise AttributeError(f'cannot reassign member {name!r}')
        super().__setattr__(name, value)

    def __delattr__(cls, name):
        if name in cls.__dict__.get('_member_map_', {}):
            raise AttributeError(f'{cls.__name__}: cannot delete Enum member.')
        super().__delattr__(name)


EnumMeta = EnumType


class Enum(metaclass=EnumType):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            if isinstance(last, int):
                return last + 1
        return start + count if not last_values else start

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        return f'<{type(self).__name__}.{self._name_}: {self._value_!r}>'

    def __str__(self):
        return f'{type(self).__name__}.{self._name_}'

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_


class IntEnum(int, Enum):
    __repr__ = Enum.__repr__

    def __str__(self):
        return int.__repr__(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)


class StrEnum(str, Enum):
    __repr__ = Enum.__repr__

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    def __str__(self):
        return str.__str__(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)


class Flag(Enum):
    _is_flag_ = True

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return 1
        high = max(last_values)
        return 1 << high.bit_length() if high > 0 else 1

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        all_bits = 0
        for m in cls:
            all_bits |= m._value_
        if value < 0 or value & ~all_bits:
            return None
        pseudo = object.__new__(cls) if cls._mixin_type_() is object else cls._mixin_type_().__new__(cls, value)
        pseudo._value_ = value
        names = [m._name_ for m in cls if m._value_ & value == m._value_ and m._value_ and _is_single_bit(m._value_)]
        pseudo._name_ = '|'.join(names) if names else None
        cls._value2member_map_[value] = pseudo
        return pseudo

    def __contains__(self, other):
        if not isinstance(other, type(self)):
            raise TypeError(
                f"unsupported operand type(s) for 'in': '{type(other).__qualname__}' and '{type(self).__qualname__}'"
            )
        return other._value_ & self._value_ == other._value_

    def __iter__(self):
        for m in type(self):
            if m._value_ and _is_single_bit(m._value_) and m._value_ & self._value_ == m._value_:
                yield m

    def __len__(self):
        return sum(1 for _ in self)

    def __bool__(self):
        return bool(self._value_)

    def __or__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ | other._value_)

    def __and__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ & other._value_)

    def __xor__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ ^ other._value_)

    def __invert__(self):
        all_bits = 0
        for m in type(self):
            all_bits |= m._value_
        return type(self)(all_bits & ~self._value_)

    def __repr__(self):
        return f'<{type(self).__name__}.{self._name_}: {self._value_!r}>'

    def __str__(self):
        return f'{type(self).__name__}.{self._name_}'


class IntFlag(int, Flag):
    __repr__ = Flag.__repr__

    def __str__(self):
        return int.__repr__(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)


def _is_single_bit(n):
    return n > 0 and n & (n - 1) == 0


def unique(enumeration):
    duplicates = []
    for name, member in enumeration.__members__.items():
        if name != member._name_:
            duplicates.append((name, member._name_))
    if duplicates:
        details = ', '.join(f'{alias} -> {name}' for alias, name in duplicates)
        raise ValueError(f'duplicate values found in {enumeration!r}: {details}')
    return enumeration
