"""itertools for the PVM: iterator building blocks (CPython 3.11 semantics)."""


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


def repeat(object, times=None):
    if times is None:
        while True:
            yield object
    else:
        for _ in range(times):
            yield object


def accumulate(iterable, func=None, *, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for element in it:
        total = total + element if func is None else func(total, element)
        yield total


class chain:
    def __init__(self, *iterables):
        self._iterables = iterables

    def __iter__(self):
        for it in self._iterables:
            yield from it

    @classmethod
    def from_iterable(cls, iterables):
        return _chain_from_iterable(iterables)


def _chain_from_iterable(iterables):
    for it in iterables:
        yield from it


def compress(data, selectors):
    return (d for d, s in zip(data, selectors) if s)


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    for x in it:
        yield x


def filterfalse(predicate, iterable):
    if predicate is None:
        predicate = bool
    for x in iterable:
        if not predicate(x):
            yield x


def takewhile(predicate, iterable):
    for x in iterable:
        if predicate(x):
            yield x
        else:
            break


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def islice(iterable, *args):
    s = slice(*args)
    start, stop, step = s.start or 0, s.stop, 1 if s.step is None else s.step
    for name, v in (("Indices", start), ("Stop argument", stop)):
        if v is not None and (not isinstance(v, int) or v < 0):
            raise ValueError(f"{name} for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if not isinstance(step, int) or step <= 0:
        raise ValueError("Step for islice() must be a positive integer or None.")
    it = iter(iterable)
    i = 0
    nexti = start
    for element in it:
        if stop is not None and i >= stop:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b


def zip_longest(*iterables, fillvalue=None):
    iterators = [iter(it) for it in iterables]
    active = len(iterators)
    if not active:
        return
    while True:
        values = []
        for i, it in enumerate(iterators):
            try:
                value = next(it)
            except StopIteration:
                active -= 1
                if not active:
                    return
                iterators[i] = repeat(fillvalue)
                value = fillvalue
            values.append(value)
        yield tuple(values)


class _GroupState:
    __slots__ = ('it', 'done', 'key', 'value', 'tgtkey', 'has')

    def __init__(self, it):
        self.it = it
        self.done = False
        self.has = False


def groupby(iterable, key=None):
    keyfunc = (lambda x: x) if key is None else key
    state = _GroupState(iter(iterable))

    def advance():
        try:
            state.value = next(state.it)
        except StopIteration:
            state.done = True
            state.has = False
            return
        state.key = keyfunc(state.value)
        state.has = True

    def grouper(tgtkey):
        while state.has and state.key == tgtkey:
            yield state.value
            advance()

    advance()
    last_key = None
    started = False
    while state.has:
        if started and state.key == last_key:
            # the caller did not consume the previous group: skip the rest of it
            advance()
            continue
        last_key = state.key
        started = True
        yield state.key, grouper(last_key)


def tee(iterable, n=2):
    if n < 0:
        raise ValueError("n must be >= 0")
    it = iter(iterable)
    buffers = [[] for _ in range(n)]

    def gen(mine):
        while True:
            if not mine:
                try:
                    value = next(it)
                except StopIteration:
                    return
                for b in buffers:
                    b.append(value)
            yield mine.pop(0)
    return tuple(gen(b) for b in buffers)


def product(*iterables, repeat=1):
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    pools = [tuple(pool) for pool in iterables] * repeat
    for pool in pools:
        if not pool:
            return
    # an odometer over the pools, last pool turning fastest
    idx = [0] * len(pools)
    while True:
        yield tuple(pool[i] for pool, i in zip(pools, idx))
        k = len(pools) - 1
        while k >= 0:
            idx[k] += 1
            if idx[k] < len(pools[k]):
                break
            idx[k] = 0
            k -= 1
        if k < 0:
            return


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    if r is None:
        r = n
    elif r < 0:
        raise ValueError("r must be non-negative")
    if r > n:
        return
    used = [False] * n
    chosen = []

    def pick(depth):
        if depth == r:
            yield tuple(pool[i] for i in chosen)
            return
        for i in range(n):
            if not used[i]:
                used[i] = True
                chosen.append(i)
                yield from pick(depth + 1)
                chosen.pop()
                used[i] = False
    yield from pick(0)


def combinations(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    pool = tuple(iterable)
    n = len(pool)
    chosen = []

    def pick(start, depth):
        if depth == r:
            yield tuple(pool[i] for i in chosen)
            return
        for i in range(start, n - (r - depth) + 1):
            chosen.append(i)
            yield from pick(i + 1, depth + 1)
            chosen.pop()
    if r <= n:
        yield from pick(0, 0)


def combinations_with_replacement(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    pool = tuple(iterable)
    n = len(pool)
    chosen = []

    def pick(start, depth):
        if depth == r:
            yield tuple(pool[i] for i in chosen)
            return
        for i in range(start, n):
            chosen.append(i)
            yield from pick(i, depth + 1)
            chosen.pop()
    if n or not r:
        yield from pick(0, 0)
