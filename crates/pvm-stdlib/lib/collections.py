"""collections for the PVM: namedtuple, deque, Counter, OrderedDict, defaultdict, ChainMap.

CPython 3.11 semantics and reprs. Everything is plain Python over the PVM's built-in
types, so it is metered like any other actor code.
"""

_tuple_new = tuple.__new__


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = str(typename)
    if rename:
        seen = set()
        for index, name in enumerate(field_names):
            if (not name.isidentifier() or _iskeyword(name) or name.startswith('_') or name in seen):
                field_names[index] = f'_{index}'
            seen.add(name)
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError(f'Type names and field names must be valid identifiers: {name!r}')
        if _iskeyword(name):
            raise ValueError(f'Type names and field names cannot be a keyword: {name!r}')
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError(f'Field names cannot start with an underscore: {name!r}')
        if name in seen:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        seen.add(name)
    field_names = tuple(field_names)
    num_fields = len(field_names)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > num_fields:
            raise TypeError('Got more default values than field names')
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))

    def __new__(cls, *args, **kwargs):
        if len(args) > num_fields:
            raise TypeError(f'{typename}.__new__() takes {num_fields + 1} positional arguments but {len(args) + 1} were given')
        for name in kwargs:
            if name not in field_names:
                raise TypeError(f"{typename}.__new__() got an unexpected keyword argument '{name}'")
            if field_names.index(name) < len(args):
                raise TypeError(f"{typename}.__new__() got multiple values for argument '{name}'")
        values = list(args)
        for name in field_names[len(args):]:
            if name in kwargs:
                values.append(kwargs[name])
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing = [n for n in field_names[len(values):] if n not in kwargs and n not in field_defaults]
                raise TypeError(f"{typename}.__new__() missing {len(missing)} required positional argument"
                                f"{'s' if len(missing) > 1 else ''}: " + _quoted_list(missing))
        return _tuple_new(cls, values)

    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != num_fields:
            raise TypeError(f'Expected {num_fields} arguments, got {len(result)}')
        return result

    def _replace(self, /, **kwds):
        result = self._make([kwds.pop(name) if name in kwds else getattr(self, name) for name in field_names])
        if kwds:
            raise ValueError(f'Got unexpected field names: {list(kwds)!r}')
        return result

    def __repr__(self):
        return self.__class__.__name__ + '(' + ', '.join(
            f'{name}={value!r}' for name, value in zip(field_names, self)) + ')'

    def _asdict(self):
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {
        '__doc__': f'{typename}({", ".join(field_names)})',
        '__slots__': (),
        '_fields': field_names,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': classmethod(_make),
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': field_names,
    }
    for index, name in enumerate(field_names):
        namespace[name] = property(_itemgetter(index), doc=f'Alias for field number {index}')
    result = type(typename, (tuple,), namespace)
    result.__module__ = '__main__' if module is None else module
    return result


def _itemgetter(index):
    def get(self):
        return self[index]
    return get


def _quoted_list(names):
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ', '.join(quoted[:-1]) + ' and ' + quoted[-1]


_KEYWORDS = frozenset((
    'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
    'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
    'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
))


def _iskeyword(name):
    return name in _KEYWORDS


class deque:
    """Double-ended queue with an optional maximum length."""

    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError('an integer is required')
            if maxlen < 0:
                raise ValueError('maxlen must be non-negative')
        self._maxlen = maxlen
        self._items = []
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def _trim_left(self):
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[:len(self._items) - self._maxlen]

    def _trim_right(self):
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[self._maxlen:]

    def append(self, x):
        self._items.append(x)
        self._trim_left()

    def appendleft(self, x):
        self._items.insert(0, x)
        self._trim_right()

    def extend(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop(0)

    def clear(self):
        self._items.clear()

    def copy(self):
        return deque(self._items, self._maxlen)

    def count(self, x):
        return self._items.count(x)

    def index(self, x, start=0, stop=None):
        try:
            return self._items.index(x, start, len(self._items) if stop is None else stop)
        except ValueError:
            raise ValueError(f'{x!r} is not in deque') from None

    def insert(self, i, x):
        if self._maxlen is not None and len(self._items) >= self._maxlen:
            raise IndexError('deque already at its maximum size')
        self._items.insert(i, x)

    def remove(self, value):
        try:
            self._items.remove(value)
        except ValueError:
            raise ValueError(f'{value!r} is not in deque') from None

    def reverse(self):
        self._items.reverse()

    def rotate(self, n=1):
        items = self._items
        if items:
            n %= len(items)
            if n:
                items[:] = items[-n:] + items[:-n]

    def __len__(self):
        return len(self._items)

    def __bool__(self):
        return bool(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __reversed__(self):
        return reversed(list(self._items))

    def __contains__(self, x):
        return x in self._items

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError('sequence index must be integer, not \'slice\'')
        try:
            return self._items[i]
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __setitem__(self, i, x):
        try:
            self._items[i] = x
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __delitem__(self, i):
        try:
            del self._items[i]
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __eq__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items == other._items

    def __lt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items < other._items

    def __le__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items <= other._items

    def __gt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items > other._items

    def __ge__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items >= other._items

    __hash__ = None

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError(f'can only concatenate deque (not "{type(other).__name__}") to deque')
        return deque(self._items + other._items, self._maxlen)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __mul__(self, n):
        return deque(self._items * n, self._maxlen)

    def __repr__(self):
        if self._maxlen is None:
            return f'deque({self._items!r})'
        return f'deque({self._items!r}, maxlen={self._maxlen})'


class defaultdict(dict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        super().__init__(*args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def copy(self):
        return defaultdict(self.default_factory, self)

    def __repr__(self):
        factory = self.default_factory
        shown = 'None' if factory is None else (f"<class '{factory.__name__}'>" if isinstance(factory, type) else repr(factory))
        return f'defaultdict({shown}, {dict.__repr__(self)})'


class OrderedDict(dict):
    def move_to_end(self, key, last=True):
        value = self[key]
        if last:
            dict.__delitem__(self, key)
            dict.__setitem__(self, key, value)
        else:
            rest = [(k, v) for k, v in self.items() if k != key]
            dict.clear(self)
            dict.__setitem__(self, key, value)
            for k, v in rest:
                dict.__setitem__(self, k, v)

    def popitem(self, last=True):
        if not self:
            raise KeyError('dictionary is empty')
        key = next(reversed(list(self.keys()))) if last else next(iter(self))
        value = dict.pop(self, key)
        return key, value

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return dict.__eq__(self, other) and list(self.keys()) == list(other.keys())
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def copy(self):
        return OrderedDict(self)

    def __repr__(self):
        if not self:
            return 'OrderedDict()'
        return f'OrderedDict({list(self.items())!r})'


class Counter(dict):
    def __init__(self, iterable=None, /, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        items = sorted(self.items(), key=lambda kv: kv[1], reverse=True)
        return items if n is None else items[:max(n, 0)]

    def elements(self):
        for elem, count in self.items():
            for _ in range(count):
                yield elem

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self[elem] = count + self.get(elem, 0)
            else:
                for elem in iterable:
                    self[elem] = self.get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self[elem] = self.get(elem, 0) - count
            else:
                for elem in iterable:
                    self[elem] = self.get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return Counter(self)

    def __delitem__(self, elem):
        if elem in self:
            dict.__delitem__(self, elem)

    def __repr__(self):
        if not self:
            return 'Counter()'
        return 'Counter({' + ', '.join(f'{k!r}: {v!r}' for k, v in self.most_common()) + '})'

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = other_count if count < other_count else count
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = count if count < other_count else other_count
            if newcount > 0:
                result[elem] = newcount
        return result

    def __pos__(self):
        return Counter({k: v for k, v in self.items() if v > 0})

    def __neg__(self):
        return Counter({k: 0 - v for k, v in self.items() if v < 0})


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        return self.__missing__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        seen = {}
        for mapping in reversed(self.maps):
            for key in mapping:
                seen[key] = None
        return iter(seen)

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __bool__(self):
        return any(self.maps)

    def keys(self):
        return list(self)

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]

    def __repr__(self):
        return f'{self.__class__.__name__}({", ".join(map(repr, self.maps))})'

    def new_child(self, m=None, **kwargs):
        if m is None:
            m = kwargs
        elif kwargs:
            m.update(kwargs)
        return self.__class__(m, *self.maps)

    @property
    def parents(self):
        return self.__class__(*self.maps[1:])

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        try:
            del self.maps[0][key]
        except KeyError:
            raise KeyError(f'Key not found in the first mapping: {key!r}') from None

    def pop(self, key, *args):
        try:
            return self.maps[0].pop(key, *args)
        except KeyError:
            raise KeyError(f'Key not found in the first mapping: {key!r}') from None

    def clear(self):
        self.maps[0].clear()
