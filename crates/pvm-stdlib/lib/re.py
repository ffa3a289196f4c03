"""re for the PVM: regular expressions with CPython 3.11's syntax and semantics.

Matching is done by the PVM's deterministic engine (crate `pvm-re`), reached through the
native helper module `_native` that the PVM injects before this body runs; its cost is
proportional to the work the engine does. This file provides the Python-level API:
`compile`, `search`, `match`, `fullmatch`, `findall`, `finditer`, `sub`, `subn`, `split`,
`escape`, `purge`, the flags, `error`, and the `Pattern` / `Match` objects.

Differences from CPython: flags are plain ints (`re.I` prints as `2`, not `re.IGNORECASE`);
the LOCALE flag and `\\N{...}` named characters are refused with `re.error`; there is no
`Scanner` or `template()`.
"""

__all__ = [
    'match', 'fullmatch', 'search', 'sub', 'subn', 'split', 'findall', 'finditer', 'compile',
    'purge', 'escape', 'error', 'Pattern', 'Match', 'A', 'I', 'L', 'M', 'S', 'X', 'U',
    'ASCII', 'IGNORECASE', 'LOCALE', 'MULTILINE', 'DOTALL', 'VERBOSE', 'UNICODE', 'NOFLAG',
]

NOFLAG = 0
I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
A = ASCII = 256
T = TEMPLATE = 1
DEBUG = 128

_FLAG_NAMES = (
    ('re.TEMPLATE', 1), ('re.IGNORECASE', 2), ('re.LOCALE', 4), ('re.MULTILINE', 8),
    ('re.DOTALL', 16), ('re.UNICODE', 32), ('re.VERBOSE', 64), ('re.DEBUG', 128), ('re.ASCII', 256),
)

_MAXSIZE = 9223372036854775807

# flag combinations CPython rejects with ValueError rather than re.error
_FLAG_VALUE_ERRORS = frozenset((
    'cannot use LOCALE flag with a str pattern',
    'ASCII and UNICODE flags are incompatible',
    'cannot use UNICODE flag with a bytes pattern',
    'ASCII and LOCALE flags are incompatible',
))


class error(Exception):
    """Exception raised for invalid regular expressions (`re.error`)."""

    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pattern is not None and pos is not None:
            newline = '\n' if isinstance(pattern, str) else b'\n'
            self.lineno = pattern.count(newline, 0, pos) + 1
            self.colno = pos - pattern.rfind(newline, 0, pos)
            if newline in pattern:
                msg = '%s (line %d, column %d)' % (msg, self.lineno, self.colno)
            else:
                msg = '%s at position %d' % (msg, pos)
        else:
            self.lineno = self.colno = None
        super().__init__(msg)


def _flags_repr(flags):
    names = []
    for name, bit in _FLAG_NAMES:
        if flags & bit:
            names.append(name)
            flags &= ~bit
    if flags:
        names.append(hex(flags))
    return '|'.join(names)


class Pattern:
    """A compiled regular expression (`re.compile`)."""

    __slots__ = ('pattern', 'flags', 'groups', 'groupindex', '_f')

    def __init__(self, pattern, flags):
        r = _native.compile(pattern, flags)
        if r[0] is False:
            if r[1] in _FLAG_VALUE_ERRORS:
                raise ValueError(r[1])
            raise error(r[1], pattern, r[2])
        self.pattern = pattern
        self._f = flags
        self.groups = r[1]
        self.groupindex = dict(r[2])
        self.flags = r[3]

    def __repr__(self):
        p = repr(self.pattern)
        if len(p) > 200:
            p = p[:200]
        f = self.flags
        if isinstance(self.pattern, str):
            f &= ~UNICODE
        if f:
            return 're.compile(%s, %s)' % (p, _flags_repr(f))
        return 're.compile(%s)' % (p,)

    def __eq__(self, other):
        if not isinstance(other, Pattern):
            return NotImplemented
        return self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def _exec(self, string, pos, endpos, mode):
        spans = _native.exec(self.pattern, self._f, string, pos, endpos, mode)
        if spans is None:
            return None
        return Match(self, string, spans, pos, endpos)

    def search(self, string, pos=0, endpos=_MAXSIZE):
        return self._exec(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=_MAXSIZE):
        return self._exec(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=_MAXSIZE):
        return self._exec(string, pos, endpos, 2)

    def _all(self, string, pos, endpos, limit):
        return _native.find_all(self.pattern, self._f, string, pos, endpos, limit)

    def finditer(self, string, pos=0, endpos=_MAXSIZE):
        for spans in self._all(string, pos, endpos, 0):
            yield Match(self, string, spans, pos, endpos)

    def findall(self, string, pos=0, endpos=_MAXSIZE):
        out = []
        n = self.groups
        for spans in self._all(string, pos, endpos, 0):
            if n == 0:
                out.append(string[spans[0]:spans[1]])
            elif n == 1:
                out.append(_slice(string, spans[2], spans[3]))
            else:
                out.append(tuple(_slice(string, spans[2 * g], spans[2 * g + 1]) for g in range(1, n + 1)))
        return out

    def split(self, string, maxsplit=0):
        if maxsplit < 0:
            return [string]
        out = []
        last = 0
        n = self.groups
        for spans in self._all(string, 0, _MAXSIZE, maxsplit):
            out.append(string[last:spans[0]])
            for g in range(1, n + 1):
                s = spans[2 * g]
                out.append(None if s < 0 else string[s:spans[2 * g + 1]])
            last = spans[1]
        out.append(string[last:])
        return out

    def _subx(self, repl, string, count):
        if callable(repl):
            expand = repl
            pieces = None
        else:
            t = _native.template(self.pattern, self._f, repl)
            if t[0] is None:
                raise IndexError("unknown group name '%s'" % (t[1],))
            if t[0] is False:
                raise error(t[1], repl, t[2])
            pieces = t[1]
            expand = None
        if count < 0:
            return string[:0], 0
        out = []
        last = 0
        n = 0
        for spans in self._all(string, 0, _MAXSIZE, count):
            out.append(string[last:spans[0]])
            if pieces is None:
                piece = expand(Match(self, string, spans, 0, _MAXSIZE))
                if piece:
                    out.append(piece)
            else:
                for p in pieces:
                    if type(p) is int:
                        s = spans[2 * p]
                        if s >= 0:
                            out.append(string[s:spans[2 * p + 1]])
                    else:
                        out.append(p)
            last = spans[1]
            n += 1
        out.append(string[last:])
        return string[:0].join(out), n

    def sub(self, repl, string, count=0):
        return self._subx(repl, string, count)[0]

    def subn(self, repl, string, count=0):
        return self._subx(repl, string, count)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _slice(string, s, e):
    if s < 0:
        return string[:0]
    return string[s:e]


class Match:
    """The result of a successful match."""

    __slots__ = ('re', 'string', 'pos', 'endpos', '_spans')

    def __init__(self, pattern, string, spans, pos, endpos):
        self.re = pattern
        self.string = string
        self._spans = spans
        n = len(string)
        self.pos = 0 if pos < 0 else min(pos, n)
        self.endpos = 0 if endpos < 0 else min(endpos, n)

    def _index(self, g):
        if isinstance(g, str):
            try:
                return self.re.groupindex[g]
            except KeyError:
                raise IndexError('no such group') from None
        if isinstance(g, int):
            if 0 <= g <= self.re.groups:
                return int(g)
            raise IndexError('no such group')
        try:
            i = g.__index__()
        except AttributeError:
            raise IndexError('no such group') from None
        if 0 <= i <= self.re.groups:
            return i
        raise IndexError('no such group')

    def _get(self, i, default=None):
        s = self._spans[2 * i]
        if s < 0:
            return default
        return self.string[s:self._spans[2 * i + 1]]

    def group(self, *groups):
        if not groups:
            return self._get(0)
        if len(groups) == 1:
            return self._get(self._index(groups[0]))
        return tuple(self._get(self._index(g)) for g in groups)

    def __getitem__(self, g):
        return self._get(self._index(g))

    def groups(self, default=None):
        return tuple(self._get(i, default) for i in range(1, self.re.groups + 1))

    def groupdict(self, default=None):
        return {name: self._get(i, default) for name, i in self.re.groupindex.items()}

    def start(self, group=0):
        return self._spans[2 * self._index(group)]

    def end(self, group=0):
        return self._spans[2 * self._index(group) + 1]

    def span(self, group=0):
        i = self._index(group)
        return (self._spans[2 * i], self._spans[2 * i + 1])

    @property
    def regs(self):
        return tuple((self._spans[2 * i], self._spans[2 * i + 1]) for i in range(self.re.groups + 1))

    @property
    def lastindex(self):
        # The group that closed last: the largest end; at equal ends a later group that
        # starts after the earlier one ends (a sibling) wins, an enclosing group wins over
        # the groups nested in it.
        best = None
        for i in range(1, self.re.groups + 1):
            s, e = self._spans[2 * i], self._spans[2 * i + 1]
            if s < 0:
                continue
            if best is None:
                best = i
                continue
            bs, be = self._spans[2 * best], self._spans[2 * best + 1]
            if e > be or (e == be and s >= be):
                best = i
        return best

    @property
    def lastgroup(self):
        i = self.lastindex
        if i is None:
            return None
        for name, j in self.re.groupindex.items():
            if j == i:
                return name
        return None

    def expand(self, template):
        t = _native.template(self.re.pattern, self.re._f, template)
        if t[0] is None:
            raise IndexError("unknown group name '%s'" % (t[1],))
        if t[0] is False:
            raise error(t[1], template, t[2])
        out = []
        for p in t[1]:
            if type(p) is int:
                out.append(self._get(p, self.string[:0]))
            else:
                out.append(p)
        return self.string[:0].join(out)

    def __bool__(self):
        return True

    def __repr__(self):
        return '<re.Match object; span=%r, match=%r>' % (self.span(), self.group())

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _compile(pattern, flags):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError('cannot process flags argument with a compiled pattern')
        return pattern
    if not isinstance(pattern, (str, bytes)):
        raise TypeError('first argument must be string or compiled pattern')
    return Pattern(pattern, flags)


def compile(pattern, flags=0):
    return _compile(pattern, flags)


def search(pattern, string, flags=0):
    return _compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return _compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return _compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return _compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return _compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return _compile(pattern, flags).split(string, maxsplit)


def purge():
    pass


_SPECIAL = frozenset('()[]{}?*+-|^$\\.&~# \t\n\r\v\f')


def escape(pattern):
    if isinstance(pattern, str):
        return ''.join('\\' + c if c in _SPECIAL else c for c in pattern)
    out = bytearray()
    for b in pattern:
        if chr(b) in _SPECIAL:
            out.append(92)
        out.append(b)
    return bytes(out)
