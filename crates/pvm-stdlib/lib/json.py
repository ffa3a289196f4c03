"""json for the PVM: CPython 3.11-compatible encoding and decoding.

`dumps(obj, sort_keys=True, separators=(',', ':'))` is the canonical form for hashing
or comparing JSON produced by actors.
"""

__all__ = ['dump', 'dumps', 'load', 'loads', 'JSONDecodeError', 'JSONEncoder', 'JSONDecoder']


class JSONDecodeError(ValueError):
    """Subclass of ValueError with: msg, doc, pos, lineno, colno."""

    def __init__(self, msg, doc, pos):
        lineno = doc.count('\n', 0, pos) + 1
        colno = pos - doc.rfind('\n', 0, pos)
        ValueError.__init__(self, f'{msg}: line {lineno} column {colno} (char {pos})')
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESCAPES = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}


def _encode_str(s, ensure_ascii):
    out = ['"']
    for ch in s:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
            continue
        n = ord(ch)
        if n < 0x20:
            out.append('\\u%04x' % n)
        elif ensure_ascii and n > 0x7e:
            if n > 0xffff:
                n -= 0x10000
                out.append('\\u%04x\\u%04x' % (0xd800 | (n >> 10), 0xdc00 | (n & 0x3ff)))
            else:
                out.append('\\u%04x' % n)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


class JSONEncoder:
    item_separator = ', '
    key_separator = ': '

    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
                 sort_keys=False, indent=None, separators=None, default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.check_circular = check_circular
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        self.indent = indent
        if separators is not None:
            self.item_separator, self.key_separator = separators
        elif indent is not None:
            self.item_separator = ','
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError(f'Object of type {o.__class__.__name__} is not JSON serializable')

    def encode(self, o):
        if isinstance(o, str):
            return _encode_str(o, self.ensure_ascii)
        return ''.join(self.iterencode(o))

    def _float(self, o):
        if o != o:
            text = 'NaN'
        elif o == float('inf'):
            text = 'Infinity'
        elif o == -float('inf'):
            text = '-Infinity'
        else:
            return float.__repr__(o)
        if not self.allow_nan:
            raise ValueError('Out of range float values are not JSON compliant')
        return text

    def iterencode(self, o, _one_shot=False):
        chunks = []
        markers = {} if self.check_circular else None
        indent = self.indent
        if indent is not None and not isinstance(indent, str):
            indent = ' ' * indent
        self._encode(o, chunks, markers, indent, 0)
        return chunks

    def _key(self, key):
        if isinstance(key, str):
            return key
        if isinstance(key, bool):
            return 'true' if key else 'false'
        if isinstance(key, float):
            return self._float(key)
        if isinstance(key, int):
            return int.__repr__(key)
        if key is None:
            return 'null'
        if self.skipkeys:
            return None
        raise TypeError(f'keys must be str, int, float, bool or None, not {key.__class__.__name__}')

    def _encode(self, o, out, markers, indent, level):
        if isinstance(o, str):
            out.append(_encode_str(o, self.ensure_ascii))
        elif o is None:
            out.append('null')
        elif o is True:
            out.append('true')
        elif o is False:
            out.append('false')
        elif isinstance(o, int):
            out.append(int.__repr__(o))
        elif isinstance(o, float):
            out.append(self._float(o))
        elif isinstance(o, (list, tuple)):
            self._encode_list(o, out, markers, indent, level)
        elif isinstance(o, dict):
            self._encode_dict(o, out, markers, indent, level)
        else:
            marker = self._enter(o, markers)
            self._encode(self.default(o), out, markers, indent, level)
            self._leave(marker, markers)

    def _enter(self, o, markers):
        if markers is None:
            return None
        marker = _identity(o)
        if marker in markers:
            raise ValueError('Circular reference detected')
        markers[marker] = o
        return marker

    def _leave(self, marker, markers):
        if markers is not None:
            del markers[marker]

    def _newline(self, indent, level):
        return '\n' + indent * level

    def _encode_list(self, lst, out, markers, indent, level):
        if not lst:
            out.append('[]')
            return
        marker = self._enter(lst, markers)
        out.append('[')
        if indent is not None:
            level += 1
            sep = self.item_separator + self._newline(indent, level)
            out.append(self._newline(indent, level))
        else:
            sep = self.item_separator
        first = True
        for value in lst:
            if not first:
                out.append(sep)
            first = False
            self._encode(value, out, markers, indent, level)
        if indent is not None:
            level -= 1
            out.append(self._newline(indent, level))
        out.append(']')
        self._leave(marker, markers)

    def _encode_dict(self, dct, out, markers, indent, level):
        if not dct:
            out.append('{}')
            return
        marker = self._enter(dct, markers)
        out.append('{')
        if indent is not None:
            level += 1
            sep = self.item_separator + self._newline(indent, level)
            out.append(self._newline(indent, level))
        else:
            sep = self.item_separator
        items = sorted(dct.items()) if self.sort_keys else dct.items()
        first = True
        for key, value in items:
            key = self._key(key)
            if key is None:
                continue
            if not first:
                out.append(sep)
            first = False
            out.append(_encode_str(key, self.ensure_ascii))
            out.append(self.key_separator)
            self._encode(value, out, markers, indent, level)
        if indent is not None:
            level -= 1
            out.append(self._newline(indent, level))
        out.append('}')
        self._leave(marker, markers)


class _Identity:
    """Identity key of a container for cycle detection (the PVM has no id())."""

    __slots__ = ('obj',)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return 0

    def __eq__(self, other):
        return self.obj is other.obj


def _identity(o):
    return _Identity(o)


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,
          indent=None, separators=None, default=None, sort_keys=False, **kw):
    if cls is None:
        cls = JSONEncoder
    return cls(skipkeys=skipkeys, ensure_ascii=ensure_ascii, check_circular=check_circular,
               allow_nan=allow_nan, indent=indent, separators=separators, default=default,
               sort_keys=sort_keys, **kw).encode(obj)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WS = ' \t\n\r'
_BACKSLASH = {'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
_NUMBER_START = '-0123456789'


def _constant(name):
    return _CONSTANTS[name]


class JSONDecoder:
    def __init__(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
                 strict=True, object_pairs_hook=None):
        self.object_hook = object_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int
        self.parse_constant = parse_constant or _constant
        self.strict = strict
        self.object_pairs_hook = object_pairs_hook

    def decode(self, s):
        end = _skip_ws(s, 0)
        obj, end = self.raw_decode(s, end)
        end = _skip_ws(s, end)
        if end != len(s):
            raise JSONDecodeError('Extra data', s, end)
        return obj

    def raw_decode(self, s, idx=0):
        try:
            return self._value(s, idx)
        except _StopValue as e:
            raise JSONDecodeError('Expecting value', s, e.pos) from None

    def _value(self, s, i):
        if i >= len(s):
            raise _StopValue(i)
        c = s[i]
        if c == '"':
            return self._string(s, i + 1)
        if c == '{':
            return self._object(s, i + 1)
        if c == '[':
            return self._array(s, i + 1)
        if c == 'n' and s.startswith('null', i):
            return None, i + 4
        if c == 't' and s.startswith('true', i):
            return True, i + 4
        if c == 'f' and s.startswith('false', i):
            return False, i + 5
        if c == 'N' and s.startswith('NaN', i):
            return self.parse_constant('NaN'), i + 3
        if c == 'I' and s.startswith('Infinity', i):
            return self.parse_constant('Infinity'), i + 8
        if c == '-' and s.startswith('-Infinity', i):
            return self.parse_constant('-Infinity'), i + 9
        if c in _NUMBER_START:
            return self._number(s, i)
        raise _StopValue(i)

    def _number(self, s, i):
        start = i
        n = len(s)
        if s[i] == '-':
            i += 1
        if i < n and s[i] == '0':
            i += 1
        elif i < n and '1' <= s[i] <= '9':
            while i < n and '0' <= s[i] <= '9':
                i += 1
        else:
            raise _StopValue(start)
        is_float = False
        if i + 1 < n and s[i] == '.' and '0' <= s[i + 1] <= '9':
            is_float = True
            i += 1
            while i < n and '0' <= s[i] <= '9':
                i += 1
        if i < n and s[i] in 'eE':
            j = i + 1
            if j < n and s[j] in '+-':
                j += 1
            if j < n and '0' <= s[j] <= '9':
                is_float = True
                i = j
                while i < n and '0' <= s[i] <= '9':
                    i += 1
        text = s[start:i]
        return (self.parse_float(text) if is_float else self.parse_int(text)), i

    def _string(self, s, i):
        chunks = []
        begin = i - 1
        n = len(s)
        while True:
            j = i
            while j < n and s[j] != '"' and s[j] != '\\' and (s[j] >= ' ' or not self.strict):
                j += 1
            chunks.append(s[i:j])
            if j >= n:
                raise JSONDecodeError('Unterminated string starting at', s, begin)
            c = s[j]
            if c == '"':
                return ''.join(chunks), j + 1
            if c != '\\':
                raise JSONDecodeError('Invalid control character at', s, j)
            if j + 1 >= n:
                raise JSONDecodeError('Unterminated string starting at', s, begin)
            e = s[j + 1]
            if e != 'u':
                ch = _BACKSLASH.get(e)
                if ch is None:
                    raise JSONDecodeError('Invalid \\escape', s, j)
                chunks.append(ch)
                i = j + 2
                continue
            code = self._hex4(s, j + 2, j)
            i = j + 6
            if 0xd800 <= code <= 0xdbff and s[i:i + 2] == '\\u':
                low = self._hex4(s, i + 2, i)
                if 0xdc00 <= low <= 0xdfff:
                    code = 0x10000 + (((code - 0xd800) << 10) | (low - 0xdc00))
                    i += 6
            chunks.append(chr(code))

    def _hex4(self, s, i, esc):
        digits = s[i:i + 4]
        if len(digits) == 4 and all(d in '0123456789abcdefABCDEF' for d in digits):
            return int(digits, 16)
        raise JSONDecodeError('Invalid \\uXXXX escape', s, esc + 1)

    def _object(self, s, i):
        pairs = []
        i = _skip_ws(s, i)
        if i < len(s) and s[i] == '}':
            return self._finish_object(pairs), i + 1
        while True:
            if i >= len(s) or s[i] != '"':
                raise JSONDecodeError('Expecting property name enclosed in double quotes', s, i)
            key, i = self._string(s, i + 1)
            i = _skip_ws(s, i)
            if i >= len(s) or s[i] != ':':
                raise JSONDecodeError("Expecting ':' delimiter", s, i)
            i = _skip_ws(s, i + 1)
            try:
                value, i = self._value(s, i)
            except _StopValue as e:
                raise JSONDecodeError('Expecting value', s, e.pos) from None
            pairs.append((key, value))
            i = _skip_ws(s, i)
            if i < len(s) and s[i] == '}':
                return self._finish_object(pairs), i + 1
            if i >= len(s) or s[i] != ',':
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i = _skip_ws(s, i + 1)

    def _finish_object(self, pairs):
        if self.object_pairs_hook is not None:
            return self.object_pairs_hook(pairs)
        obj = dict(pairs)
        if self.object_hook is not None:
            return self.object_hook(obj)
        return obj

    def _array(self, s, i):
        values = []
        i = _skip_ws(s, i)
        if i < len(s) and s[i] == ']':
            return values, i + 1
        while True:
            try:
                value, i = self._value(s, i)
            except _StopValue as e:
                raise JSONDecodeError('Expecting value', s, e.pos) from None
            values.append(value)
            i = _skip_ws(s, i)
            if i < len(s) and s[i] == ']':
                return values, i + 1
            if i >= len(s) or s[i] != ',':
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i = _skip_ws(s, i + 1)


class _StopValue(Exception):
    def __init__(self, pos):
        Exception.__init__(self, pos)
        self.pos = pos


_CONSTANTS = {'NaN': float('nan'), 'Infinity': float('inf'), '-Infinity': float('-inf')}


def _skip_ws(s, i):
    n = len(s)
    while i < n and s[i] in _WS:
        i += 1
    return i


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
          object_pairs_hook=None, **kw):
    if isinstance(s, (bytes, bytearray)):
        s = s.decode('utf-8')
    elif not isinstance(s, str):
        raise TypeError(f'the JSON object must be str, bytes or bytearray, not {s.__class__.__name__}')
    if s.startswith('\ufeff'):
        raise JSONDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', s, 0)
    if cls is None:
        cls = JSONDecoder
    return cls(object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
               parse_constant=parse_constant, object_pairs_hook=object_pairs_hook, **kw).decode(s)


def load(fp, **kw):
    return loads(fp.read(), **kw)
