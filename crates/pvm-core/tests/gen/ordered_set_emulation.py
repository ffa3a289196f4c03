"""An insertion-ordered stand-in for set/frozenset, used by gen_expected.py.

The PVM replaces CPython's hash-ordered sets with insertion-ordered ones (spec §3,
"Collection Ordering"). A corpus program must print the same thing under both
orders, so gen_expected.py runs every program a second time with `set`,
`frozenset`, set displays and set comprehensions rebound to the classes below and
requires identical output. Only behaviour a program can observe through iteration
order is meant to differ; everything else mirrors the builtins closely enough for
the corpus (operators, methods, repr, equality, hashing of frozensets).
"""

import builtins

_real_set = builtins.set
_real_frozenset = builtins.frozenset


_VIEWS = (type({}.keys()), type({}.items()))


def _items(it):
    if isinstance(it, _Base):
        return list(it._d)
    return list(it)


class _Base:
    __slots__ = ("_d",)
    _frozen = False

    def __init__(self, iterable=()):
        d = {}
        for x in _items(iterable):
            d[x] = None
        object.__setattr__(self, "_d", d)

    # --- read-only protocol
    def __iter__(self):
        return iter(list(self._d))

    def __len__(self):
        return len(self._d)

    def __contains__(self, x):
        return x in self._d

    def __repr__(self):
        name = type(self).__name__
        if not self._d:
            return name + "()"
        body = "{" + ", ".join(repr(x) for x in self._d) + "}"
        return body if name == "set" else f"{name}({body})"

    def _real(self):
        return _real_frozenset(self._d)

    def _new(self, keys):
        r = type(self)()
        object.__setattr__(r, "_d", dict.fromkeys(keys))
        return r

    @staticmethod
    def _check(other):
        if not isinstance(other, (_Base, _real_set, _real_frozenset) + _VIEWS):
            return False
        return True

    def __eq__(self, other):
        if isinstance(other, (_Base, _real_set, _real_frozenset) + _VIEWS):
            return _real_frozenset(self._d) == _real_frozenset(_items(other))
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __le__(self, other):
        if not self._check(other):
            return NotImplemented
        return self._real() <= _real_frozenset(_items(other))

    def __lt__(self, other):
        if not self._check(other):
            return NotImplemented
        return self._real() < _real_frozenset(_items(other))

    def __ge__(self, other):
        if not self._check(other):
            return NotImplemented
        return self._real() >= _real_frozenset(_items(other))

    def __gt__(self, other):
        if not self._check(other):
            return NotImplemented
        return self._real() > _real_frozenset(_items(other))

    def issubset(self, other):
        return self._real() <= _real_frozenset(_items(other))

    def issuperset(self, other):
        return self._real() >= _real_frozenset(_items(other))

    def isdisjoint(self, other):
        return not any(x in self._d for x in _items(other))

    def union(self, *others):
        keys = list(self._d)
        for o in others:
            keys += _items(o)
        return self._new(keys)

    def intersection(self, *others):
        keys = list(self._d)
        for o in others:
            s = _real_frozenset(_items(o))
            keys = [k for k in keys if k in s]
        return self._new(keys)

    def difference(self, *others):
        keys = list(self._d)
        for o in others:
            s = _real_frozenset(_items(o))
            keys = [k for k in keys if k not in s]
        return self._new(keys)

    def symmetric_difference(self, other):
        o = _items(other)
        so = _real_frozenset(o)
        return self._new([k for k in self._d if k not in so] + [k for k in dict.fromkeys(o) if k not in self._d])

    def copy(self):
        return self._new(list(self._d))

    def _binop(self, other, fn):
        if not isinstance(other, (_Base, _real_set, _real_frozenset) + _VIEWS):
            return NotImplemented
        return fn(other)

    def __or__(self, o):
        return self._binop(o, self.union)

    def __and__(self, o):
        return self._binop(o, self.intersection)

    def __sub__(self, o):
        return self._binop(o, self.difference)

    def __xor__(self, o):
        return self._binop(o, self.symmetric_difference)

    def __ror__(self, o):
        return self._binop(o, lambda x: self._new(_items(x)).union(self))

    def __rand__(self, o):
        return self._binop(o, lambda x: self._new(_items(x)).intersection(self))

    def __rsub__(self, o):
        return self._binop(o, lambda x: self._new(_items(x)).difference(self))

    def __rxor__(self, o):
        return self._binop(o, lambda x: self._new(_items(x)).symmetric_difference(self))


class OrderedSet(_Base):
    __slots__ = ()
    __hash__ = None

    def add(self, x):
        self._d[x] = None

    def discard(self, x):
        self._d.pop(x, None)

    def remove(self, x):
        if x not in self._d:
            raise KeyError(x)
        del self._d[x]

    def pop(self):
        if not self._d:
            raise KeyError("pop from an empty set")
        k = next(iter(self._d))
        del self._d[k]
        return k

    def clear(self):
        self._d.clear()

    def update(self, *others):
        for o in others:
            for x in _items(o):
                self._d[x] = None

    def intersection_update(self, *others):
        object.__setattr__(self, "_d", self.intersection(*others)._d)

    def difference_update(self, *others):
        object.__setattr__(self, "_d", self.difference(*others)._d)

    def symmetric_difference_update(self, other):
        object.__setattr__(self, "_d", self.symmetric_difference(other)._d)

    def __ior__(self, o):
        if not isinstance(o, (_Base, _real_set, _real_frozenset)):
            return NotImplemented
        self.update(o)
        return self

    def __iand__(self, o):
        if not isinstance(o, (_Base, _real_set, _real_frozenset)):
            return NotImplemented
        self.intersection_update(o)
        return self

    def __isub__(self, o):
        if not isinstance(o, (_Base, _real_set, _real_frozenset)):
            return NotImplemented
        self.difference_update(o)
        return self

    def __ixor__(self, o):
        if not isinstance(o, (_Base, _real_set, _real_frozenset)):
            return NotImplemented
        self.symmetric_difference_update(o)
        return self


class OrderedFrozenSet(_Base):
    __slots__ = ()

    def __hash__(self):
        return hash(_real_frozenset(self._d))

    def __setattr__(self, k, v):
        raise AttributeError(f"'frozenset' object has no attribute '{k}'")


OrderedSet.__name__ = OrderedSet.__qualname__ = "set"
OrderedFrozenSet.__name__ = OrderedFrozenSet.__qualname__ = "frozenset"


def install():
    builtins.set = OrderedSet
    builtins.frozenset = OrderedFrozenSet
