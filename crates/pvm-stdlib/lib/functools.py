"""functools for the PVM: higher-order functions and operations on callables.

Written for the Cowboy PVM (deterministic, metered); behaviour follows CPython 3.11's
documented semantics. Caches are per invocation (the PVM releases everything at the end
of a call), so `cache`/`lru_cache` never carry state between transactions.
"""

WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')
WRAPPER_UPDATES = ('__dict__',)

_initial_missing = object()


def reduce(function, iterable, initial=_initial_missing):
    it = iter(iterable)
    if initial is _initial_missing:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value") from None
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


class partial:
    """New function with partial application of the given arguments and keywords."""

    __slots__ = ('func', 'args', 'keywords')

    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, /, *args, **keywords):
        keywords = {**self.keywords, **keywords}
        return self.func(*self.args, *args, **keywords)

    def __repr__(self):
        parts = [repr(self.func)]
        parts.extend(repr(x) for x in self.args)
        parts.extend(f"{k}={v!r}" for (k, v) in self.keywords.items())
        return "functools.partial(" + ", ".join(parts) + ")"


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    for attr in updated:
        getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorator(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorator


def cmp_to_key(mycmp):
    """Convert a cmp= function into a key= function."""

    class K:
        __slots__ = ('obj',)

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None

    return K


def total_ordering(cls):
    """Class decorator that fills in missing ordering methods from one of them and __eq__."""
    defined = [op for op in ('__lt__', '__le__', '__gt__', '__ge__')
               if getattr(cls, op, None) is not getattr(object, op, None)]
    if not defined:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = defined[0]
    for op in ('__lt__', '__le__', '__gt__', '__ge__'):
        if op in defined:
            root = op
            break

    def from_lt():
        def __gt__(self, other):
            r = type(self).__lt__(self, other)
            if r is NotImplemented:
                return r
            return not r and self != other

        def __le__(self, other):
            r = type(self).__lt__(self, other)
            if r is NotImplemented:
                return r
            return r or self == other

        def __ge__(self, other):
            r = type(self).__lt__(self, other)
            if r is NotImplemented:
                return r
            return not r
        return {'__gt__': __gt__, '__le__': __le__, '__ge__': __ge__}

    def from_le():
        def __ge__(self, other):
            r = type(self).__le__(self, other)
            if r is NotImplemented:
                return r
            return not r or self == other

        def __lt__(self, other):
            r = type(self).__le__(self, other)
            if r is NotImplemented:
                return r
            return r and self != other

        def __gt__(self, other):
            r = type(self).__le__(self, other)
            if r is NotImplemented:
                return r
            return not r
        return {'__ge__': __ge__, '__lt__': __lt__, '__gt__': __gt__}

    def from_gt():
        def __lt__(self, other):
            r = type(self).__gt__(self, other)
            if r is NotImplemented:
                return r
            return not r and self != other

        def __ge__(self, other):
            r = type(self).__gt__(self, other)
            if r is NotImplemented:
                return r
            return r or self == other

        def __le__(self, other):
            r = type(self).__gt__(self, other)
            if r is NotImplemented:
                return r
            return not r
        return {'__lt__': __lt__, '__ge__': __ge__, '__le__': __le__}

    def from_ge():
        def __le__(self, other):
            r = type(self).__ge__(self, other)
            if r is NotImplemented:
                return r
            return not r or self == other

        def __gt__(self, other):
            r = type(self).__ge__(self, other)
            if r is NotImplemented:
                return r
            return r and self != other

        def __lt__(self, other):
            r = type(self).__ge__(self, other)
            if r is NotImplemented:
                return r
            return not r
        return {'__le__': __le__, '__gt__': __gt__, '__lt__': __lt__}

    makers = {'__lt__': from_lt, '__le__': from_le, '__gt__': from_gt, '__ge__': from_ge}
    for name, method in makers[root]().items():
        if name not in defined:
            setattr(cls, name, method)
    return cls


class _HashedArgs:
    """The key of one call in a cache: positional args, then sorted keyword items."""

    __slots__ = ('key', 'hashvalue')

    def __init__(self, args, kwds):
        key = args
        if kwds:
            key = key + (_kwd_mark,) + tuple(kwds.items())
        self.key = key
        self.hashvalue = hash(key)

    def __hash__(self):
        return self.hashvalue

    def __eq__(self, other):
        return self.key == other.key


_kwd_mark = ('<functools kwd mark>',)


class _CacheInfo(tuple):
    def __new__(cls, hits, misses, maxsize, currsize):
        return tuple.__new__(cls, (hits, misses, maxsize, currsize))

    hits = property(lambda self: self[0])
    misses = property(lambda self: self[1])
    maxsize = property(lambda self: self[2])
    currsize = property(lambda self: self[3])

    def __repr__(self):
        return f"CacheInfo(hits={self[0]}, misses={self[1]}, maxsize={self[2]}, currsize={self[3]})"


class _LruWrapper:
    def __init__(self, func, maxsize, typed):
        self.__wrapped__ = func
        self._func = func
        self._maxsize = maxsize
        self._typed = typed
        self._cache = {}
        self._hits = 0
        self._misses = 0
        for attr in WRAPPER_ASSIGNMENTS:
            try:
                setattr(self, attr, getattr(func, attr))
            except AttributeError:
                pass

    def _key(self, args, kwds):
        if self._typed:
            args = args + tuple(type(a) for a in args)
            if kwds:
                kwds = dict(kwds)
                kwds[_kwd_mark] = tuple(type(v) for v in kwds.values())
        return _HashedArgs(args, kwds)

    def __call__(self, *args, **kwds):
        if self._maxsize == 0:
            self._misses += 1
            return self._func(*args, **kwds)
        key = self._key(args, kwds)
        cache = self._cache
        if key in cache:
            self._hits += 1
            value = cache.pop(key)
            cache[key] = value          # most recently used goes last
            return value
        self._misses += 1
        value = self._func(*args, **kwds)
        cache[key] = value
        if self._maxsize is not None and len(cache) > self._maxsize:
            del cache[next(iter(cache))]   # least recently used is first
        return value

    def cache_info(self):
        return _CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache))

    def cache_clear(self):
        self._cache.clear()
        self._hits = 0
        self._misses = 0

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return partial(self, instance)


def lru_cache(maxsize=128, typed=False):
    """Least-recently-used cache decorator (per invocation in the PVM)."""
    if isinstance(maxsize, int):
        if maxsize < 0:
            maxsize = 0
    elif callable(maxsize) and isinstance(typed, bool):
        func, maxsize = maxsize, 128
        return _LruWrapper(func, maxsize, typed)
    elif maxsize is not None:
        raise TypeError('Expected first argument to be an integer, a callable, or None')

    def decorating_function(func):
        return _LruWrapper(func, maxsize, typed)
    return decorating_function


def cache(user_function, /):
    """Unbounded cache: lru_cache(maxsize=None)."""
    return _LruWrapper(user_function, None, False)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = getattr(func, '__doc__', None)

    def __set_name__(self, owner, name):
        if self.attrname is None:
            self.attrname = name
        elif name != self.attrname:
            raise TypeError(
                "Cannot assign the same cached_property to two different names "
                f"({self.attrname!r} and {name!r})."
            )

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        if self.attrname is None:
            raise TypeError("Cannot use cached_property instance without calling __set_name__ on it.")
        cache = instance.__dict__
        if self.attrname in cache:
            return cache[self.attrname]
        val = self.func(instance)
        cache[self.attrname] = val
        return val
