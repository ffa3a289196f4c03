#!/usr/bin/env python3
"""Emit CPython 3.11 reference cases for pvm-text's integration tests.

Usage: python3 tests/gen/gen_cases.py   (writes tests/data/*.jsonl)

Each output line is a JSON object {"f": name, "a": [args...], "r": result} or
{"f": name, "a": [args...], "e": [exception class name, message]}. Bytes values are encoded
as {"b": "<hex>"}; tuples become lists. The Rust tests in tests/*.rs replay every line.
"""
import json
import os
import random
import struct
import sys

assert sys.version_info[:2] == (3, 11), "generate cases with CPython 3.11"

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def enc(v):
    if isinstance(v, (bytes, bytearray)):
        return {"b": bytes(v).hex()}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, dict):
        return {k: enc(x) for k, x in v.items()}
    return v


class Out:
    def __init__(self, name):
        self.name = name
        self.lines = []
        self.seen = set()

    def case(self, f, fn, *args):
        try:
            r = {"r": enc(fn(*args))}
        except Exception as e:  # noqa: BLE001 - we record CPython's exception
            r = {"e": [type(e).__name__, str(e)]}
        obj = {"f": f, "a": enc(list(args))}
        obj.update(r)
        line = json.dumps(obj, ensure_ascii=True, sort_keys=True)
        if line not in self.seen:
            self.seen.add(line)
            self.lines.append(line)

    def write(self):
        with open(os.path.join(DATA, self.name + ".jsonl"), "w") as fh:
            for line in self.lines:
                fh.write(line + "\n")
        print(f"{self.name}: {len(self.lines)} cases")


SAMPLES = [
    "", " ", "a", "A", "abc", "hello world", "Hello World", "  lead and trail  ",
    "a,b,,c,", ",", ",,", "a b  c   d", "aaa", "abab", "ababab", "xyzxyz",
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000 x \u200b y",
    "ΌΣΟΣ", "ὈΔΥΣΣΕΎΣ", "σς Σ", "ΑΣ'Σ", "Σ", "AΣ", "AΣB", "AΣ.", "A\u0301Σ", "Σ\u0301a",
    "straße", "STRASSE", "ß", "ẞ", "İstanbul", "istanbul ı I", "ǅemal ǆ ǈ Ǉ",
    "ﬁ ﬀ ﬃ", "ΐ ΰ", "ŉ", "日本語テキスト", "中文 字符", "😀emoji👍🏽", "e\u0301 combining a\u0308",
    "ABC def GHI", "mIxEd CaSe", "hello\r\nworld\nfoo\rbar\x1cbaz\u2028q\u2029end\x85n\x0bv\x0cf",
    "\r\n\r\n", "\n", "line\n", "123", "-42", "+7", "١٢٣", "²³", "½⅓", "Ⅻ", "〇",
    "tab\there\tx", "a\tb\r\tc\n\td", "_ident", "1abc", "snake_case_9", "if", "ℕat", "x·y",
    "Straße Über ÄÖÜ", "they're bill's friends", "o'neil mc-donald", "hello123world",
    "ǈudevit", "ᾳ ᾼ", "Ⓐⓑ", "ＡＢＣ", "\x00\x01", "\x7f", "\ud7ff", "\U0010ffff",
    "٣abc", "ٱ", "x\u0345", "ǰ", "ﬅ", "Ⴀ", "ꭰ", "𐐀𐐨", "ß\u0130\u0131",
]


def rand_str(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


ALPHA = list("aAbB ,.-_\t\n\rxyz0123") + ["ß", "Σ", "σ", "İ", "ǅ", "日", "😀", "\u0301", "\xa0", "\u2028", "ﬁ", "'"]


def str_methods():
    o = Out("str_methods")
    rng = random.Random(1)
    strs = list(SAMPLES) + [rand_str(rng, ALPHA, rng.randrange(0, 12)) for _ in range(150)]
    needles = ["", "a", "ab", "Σ", " ", ",", "aa", "xyz", "日本", "\n", "zz", "l", "😀"]
    idx = [None, 0, 1, 2, -1, -2, -100, 3, 5, 100]
    for s in strs:
        for f in ["upper", "lower", "casefold", "swapcase", "title", "capitalize",
                  "isalpha", "isalnum", "isdecimal", "isdigit", "isnumeric", "isspace",
                  "isupper", "islower", "istitle", "isidentifier", "isprintable", "isascii"]:
            o.case(f, getattr(str, f), s)
        for keep in (False, True):
            o.case("splitlines", str.splitlines, s, keep)
        for ms in (-1, 0, 1, 2):
            o.case("split", str.split, s, None, ms)
            o.case("rsplit", str.rsplit, s, None, ms)
        for chars in (None, "", " a", "aA,", "Σσ"):
            o.case("strip", str.strip, s, chars)
            o.case("lstrip", str.lstrip, s, chars)
            o.case("rstrip", str.rstrip, s, chars)
        for w in (-1, 0, 3, 8, 15):
            o.case("zfill", str.zfill, s, w)
            for fill in rng.sample((" ", "*", "ß", "😀"), 2):
                o.case("center", str.center, s, w, fill)
                o.case("ljust", str.ljust, s, w, fill)
                o.case("rjust", str.rjust, s, w, fill)
        for t in (8, 4, 1, 0, -3):
            o.case("expandtabs", str.expandtabs, s, t)
    for s in strs[:110]:
        for n in needles:
            for ms in (-1, 0, 1, 2):
                o.case("split", str.split, s, n, ms)
                o.case("rsplit", str.rsplit, s, n, ms)
            o.case("partition", str.partition, s, n)
            o.case("rpartition", str.rpartition, s, n)
            o.case("removeprefix", str.removeprefix, s, n)
            o.case("removesuffix", str.removesuffix, s, n)
            for c in (-1, 0, 1, 2):
                o.case("replace", str.replace, s, n, rng.choice(("", "-", "ΣΣ")), c)
            for f in ("find", "rfind", "count", "startswith", "endswith"):
                o.case(f, getattr(str, f), s, n, None, None)
                for _ in range(3):
                    st, en = rng.choice(idx), rng.choice(idx)
                    o.case(f, getattr(str, f), s, n, st, en)
    table = {ord("a"): "xy", ord("b"): None, ord("\u03a3"): ord("\u03c3"), ord("\U0001f600"): "",
             ord(" "): "_", ord("\xdf"): "ss"}
    for st in strs:
        o.case("translate", lambda t: t.translate(table), st)
    for args in [("ab", "xy"), ("ab", "x"), ("aΣ", "bσ", "c"), ("", "", "xyz"), ("aa", "bc"),
                 ("😀", "x", "é")]:
        o.case("maketrans", lambda *a: sorted(str.maketrans(*a).items()), *args)
    # Per-character predicates and mappings over a spread of code points.
    cps = list(range(0, 0x2000)) + list(range(0x2000, 0x110000, 97))
    for cp in cps:
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        o.case("charinfo", lambda c: [c.isalpha(), c.isdecimal(), c.isdigit(), c.isnumeric(),
                                      c.isspace(), c.isprintable(), c.islower(), c.isupper(),
                                      c.istitle(), c.isidentifier(), ("a" + c).isidentifier(),
                                      c.upper(), c.lower(), c.title(), c.casefold(),
                                      repr(c)], c)
    o.write()


def reprs():
    o = Out("repr")
    rng = random.Random(2)
    strs = list(SAMPLES) + ["'", '"', "'\"", "it's", 'say "hi"', "\\", "a\\b'c\"",
                            "\x00\x1f\x7f\x80\x9f\xa0\xad\xff", "\u0378\u200b\ue000\ufeff\uffff",
                            "\U000e0001\U0001f600\U00020000\U0010fffd"]
    strs += [rand_str(rng, ALPHA + ["\x00", "\x7f", "\x9f", "\u200e", "\U000e0100", "\\", '"'], 10)
             for _ in range(200)]
    for s in strs:
        o.case("str_repr", repr, s)
        o.case("str_ascii", ascii, s)
    bs = [b"", b"abc", b"'", b'"', b"'\"", b"\\", bytes(range(256)), b"it's", b'say "x"',
          b"\t\n\r\x0b\x0c", b"\x7f\x80\xff"]
    bs += [bytes(rng.randrange(256) for _ in range(rng.randrange(12))) for _ in range(200)]
    for b in bs:
        o.case("bytes_repr", repr, b)
        o.case("bytearray_repr", lambda b: repr(bytearray(b)), b)
    o.write()


def int_text():
    o = Out("int_text")
    lits = ["0", "1", "-1", "+1", " 12 ", "\t-12\n", "1_000", "1__000", "_1", "1_", "0x10",
            "0X_1f", "0x", "0x_", "0o17", "0O_7", "0b101", "0B_1", "0b2", "010", "00", "0_0",
            "0_7", "-0", "+-1", "", " ", "abc", "z", "ZZ", "1e5", "1.0", "12\x00", "٣٤",
            "\u3000 5 \u2028", "\x1c5", "5\x1c", "²", "0x1g", "08", "0b", "-0x1f", "1 2",
            "99999999999999999999999999999999", "-123456789012345678901234567890",
            "a" * 250, "ſ", "Ⅻ", "0b_", "0_", "_", "0__0", "١_٢"]
    for s in lits:
        for base in (0, 2, 8, 10, 16, 36, 1, 37, 7):
            o.case("parse_int", lambda s, b: hex(int(s, b)), s, base)
        if s.isascii():
            for base in (0, 10, 16):
                o.case("parse_int_bytes", lambda s, b: hex(int(s, b)), s.encode(), base)
    o.case("parse_int", lambda s, b: hex(int(s, b)), "1" * 4301, 10)
    o.case("parse_int", lambda s, b: hex(int(s, b)), "1" * 4300, 10)
    o.case("parse_int", lambda s, b: hex(int(s, b)), "1" * 5000, 16)
    o.case("parse_int", lambda s, b: hex(int(s, b)), "1" * 4301 + "x", 10)
    rng = random.Random(3)
    nums = [0, 1, -1, 7, -8, 255, -256, 2**63 - 1, -2**63, 2**64, -(2**100) + 3]
    nums += [rng.randrange(-2**200, 2**200) for _ in range(100)]
    for n in nums:
        o.case("int_to_decimal", lambda n: str(int(n)), str(n))
        for base, fn in ((16, hex), (8, oct), (2, bin)):
            o.case("int_to_prefixed", lambda n, b, fn=fn: fn(int(n)), str(n), base)
    o.write()


def rand_spec(rng, types):
    parts = []
    r = rng.random
    if r() < 0.4:
        if r() < 0.6:
            parts.append(rng.choice(["*", "0", "ß", "😀", " ", "<", "{", "x", "_", ","]))
        parts.append(rng.choice("<>^="))
    if r() < 0.35:
        parts.append(rng.choice("+- "))
    if r() < 0.1:
        parts.append("z")
    if r() < 0.3:
        parts.append("#")
    if r() < 0.25:
        parts.append("0")
    if r() < 0.6:
        parts.append(str(rng.choice([0, 1, 2, 5, 8, 10, 13, 20])))
    if r() < 0.3:
        parts.append(rng.choice([",", "_", ",", "_", ",", "_", ",_", "_,", ",,", "__"]))
    if r() < 0.3:
        parts.append(rng.choice([".", ".0", ".1", ".3", ".12", ".20"]))
    if r() < 0.8:
        parts.append(rng.choice(types))
    return "".join(parts)


INT_TYPES = list("bcdoxXn") + ["", "", "s", "e", "f", "%", "g", "y", "\xe9", "Z", "\x00"]
STR_TYPES = ["s", "", "", "d", "r", "x", "\u2022"]


def format_spec():
    o = Out("format_spec")
    rng = random.Random(4)
    ints = [0, 1, -1, 7, 42, -42, 65, 255, -255, 1234, -1234, 999999, 10**12 + 7, -(2**70),
            0x10FFFF, 0x110000, 128512, 2**64 - 1]
    strs = ["", "a", "abc", "hello world", "ß日本😀", "e\u0301x", "longer text here!"]
    fixed = ["010,", "09,", "#010_b", "*^+8", "c", "<5c", "05c", "+c", "#c", ".2", "z", ",d",
             "_x", ",x", ",b", "_o", "#_X", "0=10,", "x=10,", ",,", "__", ",_", "_,", "=5",
             "0<5", "x<05", "99999999999999999999", "1.99999999999999999999", ".", "5.",
             ",n", "n", "_n", "#o", "#b", "-#X", " 5", "=+8", "^", "ß^7", "\x00>4",
             "\u2028<3", "%", "s", ",s", "_s", ",c", "#,", "#_d", "+_", "02,d", "020_x"]
    sfixed = ["", "s", "5", "<5", ">5", "^5", "=5", "+", "-", " ", "z", "#", "05", "0>5", ".2",
              ".0", "*^9.3", ",", "_", ",s", "d", "x<08", "ß^7.2s", "😀>4", "5.", ".5x", "10.3"]
    for n in ints:
        for spec in fixed:
            o.case("format_int", lambda n, sp: format(int(n), sp), str(n), spec)
        for _ in range(120):
            spec = rand_spec(rng, INT_TYPES).replace("\\xe9", "\xe9").replace("\\x00", "\x00")
            o.case("format_int", lambda n, sp: format(int(n), sp), str(n), spec)
    for st in strs:
        for spec in sfixed:
            o.case("format_str", format, st, spec)
        for _ in range(100):
            o.case("format_str", format, st, rand_spec(rng, STR_TYPES))
    o.write()


def fbits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


FLOAT_TYPES = list("eEfFgGn%") + ["", "", "", "d", "s", "x", "\x00"]
FLOATS = [0.0, -0.0, 1.0, -1.0, 1.5, -1.5, 0.1, 2.5, 0.125, 1 / 3, -2 / 3, 1234.5678,
          -1234.5678, 1e16, 1e15, 1e-4, 1e-5, 123456789.123, 1e300, -1e300, 5e-324,
          2.2250738585072014e-308, 1.7976931348623157e308, float("inf"), float("-inf"),
          float("nan"), -1e-10, 9.999999, 99.5, 0.5, 0.05, 1e22, 12345678901234567890.0,
          -0.00001, 3.14159, 100.0, 1e100, 0.000123]


def format_float():
    o = Out("format_float")
    rng = random.Random(5)
    fixed = [",.2f", "z.2f", "010", "%", "#", ".3", "#.3", "e", ".0e", "#.0e", ".0f", "#.0f",
             "g", "#g", ".0g", "G", "E", "F", "n", ",", "_", "0=12,.3f", "012_.1f", "+", " ",
             "z", "z.0f", "z.1e", "z%", "+.1%", "^15.3e", "*<10", "😀>12.2f", ",g", ",e",
             "_%", ".1000f", ".50e", ".20g", "30", "-010.2f", "+020,.4f", "#010.0f",
             ".2147483648f", "d", "s", "=10", "\x00", ",\x00", ".5\x00"]
    for x in FLOATS:
        for spec in fixed:
            o.case("format_float", lambda b, sp: format(struct.unpack("<d", bytes.fromhex(b)[::-1])[0], sp), fbits(x), spec)
        for _ in range(60):
            spec = rand_spec(rng, FLOAT_TYPES)
            o.case("format_float", lambda b, sp: format(struct.unpack("<d", bytes.fromhex(b)[::-1])[0], sp), fbits(x), spec)
    for n in [0, 1, -1, 5, 12345, -987654321, 2**53 + 1, 2**64, 10**30, -(10**300), 10**400]:
        for spec in ["e", "E", ".2f", "F", "g", "G", "%", ",.1f", "010.3e", "#.0f", "z.1f", "n"]:
            o.case("format_int", lambda n, sp: format(int(n), sp), str(n), spec)
    o.write()


def penc(v):
    if isinstance(v, bool):
        raise TypeError
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": fbits(v)}
    if isinstance(v, bytes):
        return {"b": v.hex()}
    return v


def percent_case(o, t, args):
    if isinstance(args, tuple):
        a = [penc(x) for x in args]
    elif isinstance(args, dict):
        a = {"map": {k: penc(v) for k, v in args.items()}}
    else:
        a = {"one": penc(args)}
    try:
        r = {"r": enc(t % args)}
    except Exception as e:  # noqa: BLE001
        r = {"e": [type(e).__name__, str(e)]}
    obj = {"f": "percent" if isinstance(t, str) else "percent_bytes", "a": [penc(t), a]}
    obj.update(r)
    line = json.dumps(obj, ensure_ascii=True, sort_keys=True)
    if line not in o.seen:
        o.seen.add(line)
        o.lines.append(line)


def percent():
    o = Out("percent")
    rng = random.Random(6)
    fixed = [
        ("%5%", ()), ("%5%", (1,)), ("%%", ()), ("%(a)%", {"a": 1}), ("%*", (5,)), ("%.", ()),
        ("%y", ()), ("%y", (1,)), ("%\xe9", (1,)), ("%(a", {}), ("%(a", ()), ("%ld", (3,)),
        ("%-05d", (3,)), ("%05s", ("a",)), ("%+s", ("a",)), ("%#5x", (255,)), ("%#05x", (255,)),
        ("%#.5o", (8,)), ("%+.3d", (-5,)), ("%c", (65,)), ("%c", ("ab",)), ("%c", ("\xdf",)),
        ("%x", (3.0,)), ("%d", ("a",)), ("%f", ("a",)), ("%d", (3.9,)), ("%*d", (-5, 3)),
        ("%.*f", (-2, 3.14159)), ("%(a)s %(b)s", {"a": 1}), ("%(a)s %(b)r", {"a": 1, "b": "x"}),
        ("%s", (1, 2)), ("a%", ()), ("%(a)", {"a": 1}), ("%(a)*d", {"a": 1}), ("%s", 5),
        ("%s %s", 5), ("%r", "it's"), ("%a", "\xe9\U0001f600"), ("%-*.*s|", (8, 3, "abcdef")),
        ("%c", (0x110000,)), ("%c", (-1,)), ("%99999999999999999999d", (1,)),
        ("%.99999999999d", (1,)), ("%(a(b))s", {"a(b)": 2}), ("%s %%", ("x",)),
        ("%i|%u", (7, -7)), ("%X|%#X|%#o", (255, 255, 8)), ("%.0f|%#.0f|%.0e|%#.0e", (2.5, 2.5, 2.5, 2.5)),
        ("%g|%#g|%G", (1e-5, 1.0, 1e20)), ("%010.3f|%-10.3e|%+g", (-3.14159, 2.5, 7.0)),
        ("%f|%F", (float("inf"), float("nan"))), ("%05f|%-6F|", (float("-inf"), float("inf"))),
        ("%d %s", (1,)), ("%s", ()), ("% d|% d", (5, -5)), ("%+05d", (5,)),
        ("%x", (-255,)), ("%#x", (-255,)), ("%#-8x|", (255,)), ("%#08o", (-8,)),
        ("%.3s", ("日本語テキスト",)), ("%5c|", (0x1F600,)), ("%d", (10**40,)),
        ("%e", (10**400,)), ("%f", (2**64,)), ("%d", (float("inf"),)), ("%d", (float("nan"),)),
        ("%(x)d %(x)x", {"x": 255}), ("%(x)s", {"x": "é"}), ("abc", ()), ("abc", (1,)),
        ("abc", {"a": 1}), ("", ()), ("%s%s%s", (1, 2.5, "z")), ("%r", (2.5,)), ("%s", (1e16,)),
        ("%a", ("é",)), ("%r|%a|%s", (10, -3.0, "\n")), ("%hd %Ld", (1, 2)), ("%lld", (1,)),
    ]
    for t, a in fixed:
        percent_case(o, t, a)
    convs = "diuoxXeEfFgGsrac"
    vals = [0, 1, -1, 42, -42, 255, 10**20, 0.0, -0.0, 1.5, -2.25, 1e10, 1e-7, 123.456, "abc", "", "é😀"]
    for _ in range(2500):
        flags = "".join(rng.sample("-+ #0", rng.randrange(0, 4)))
        width = rng.choice(["", "", "1", "5", "12", "*"])
        prec = rng.choice(["", "", ".", ".0", ".2", ".7", ".*"])
        c = rng.choice(convs)
        t = "<%" + flags + width + prec + c + ">"
        args = []
        if width == "*":
            args.append(rng.choice([5, -5, 0, 12]))
        if prec == ".*":
            args.append(rng.choice([0, 3, -1]))
        if c in "diuoxX":
            args.append(rng.choice([v for v in vals if isinstance(v, int)] + [2.7, "s"]))
        elif c in "eEfFgG":
            args.append(rng.choice([v for v in vals if not isinstance(v, str)]))
        elif c == "c":
            args.append(rng.choice([65, 0xE9, 0x1F600, "x", "ab"]))
        else:
            args.append(rng.choice(vals))
        percent_case(o, t, tuple(args))
    bfixed = [
        (b"%s", ("x",)), (b"%b", (1,)), (b"%c", (256,)), (b"%c", (b"ab",)), (b"%c", ("a",)),
        (b"%d", ("a",)), (b"%x", (1.5,)), (b"%f", ("a",)), (b"%s", (1, 2)), (b"%y", (1,)),
        (b"%\xe9", (1,)), (b"%-5.2s|", (b"abc",)), (b"%5r|", ("\xe9",)), (b"%.3a", ("abc",)),
        (b"%05c|", (65,)), (b"%(a)s", {b"a": b"1"}), (b"%5%", ()), (b"%r", (b"x",)),
        (b"%c", (b"\xff",)), (b"%*", (1,)), (b"%(a", {}), (b"%(a", ()), (b"%c", (2**70,)),
        (b"%c", (-1,)), (b"%\x01", (1,)), (b"%\x7f", (1,)), (b"%5c|", (b"x",)),
        (b"%.0c", (65,)), (b"%-3b|", (b"ab",)), (b"%s", (b"a", b"b")), (b"%s %s", (b"a",)),
        (b"%#06x|%+.2e|%-6d|", (255, 1234.5, -3)), (b"\xff%s\x00", (b"\x80",)), (b"%%", ()),
    ]
    for t, a in bfixed:
        if isinstance(a, dict):
            continue
        percent_case(o, t, a)
    for _ in range(600):
        flags = "".join(rng.sample("-+ #0", rng.randrange(0, 3)))
        width = rng.choice(["", "", "1", "5", "*"])
        prec = rng.choice(["", "", ".", ".0", ".2", ".*"])
        c = rng.choice("diuoxXeEfFgGsbrac")
        t = ("<%" + flags + width + prec + c + ">").encode()
        args = []
        if width == "*":
            args.append(rng.choice([5, -5, 0]))
        if prec == ".*":
            args.append(rng.choice([0, 3, -1]))
        if c in "diuoxX":
            args.append(rng.choice([0, -42, 255, 10**20, 2.7, b"s"]))
        elif c in "eEfFgG":
            args.append(rng.choice([0.0, -1.5, 1e10, 123.456, 7, b"x"]))
        elif c == "c":
            args.append(rng.choice([65, 0xE9, 300, b"x", b"ab", "y"]))
        elif c in "sb":
            args.append(rng.choice([b"", b"abc", b"\x00\xff", "str", 5]))
        else:
            args.append(rng.choice([b"abc", "\xe9x", 5, 2.5]))
        percent_case(o, t, tuple(args))
    o.write()


def fmt_parse(t):
    import _string
    out = []
    for lit, name, spec, conv in _string.formatter_parser(t):
        if lit:
            if out and out[-1][0] == "L":
                out[-1][1] += lit
            else:
                out.append(["L", lit])
        if name is not None:
            out.append(["F", name, spec, conv])
    return out


def fmt_name(n):
    import _string
    first, rest = _string.formatter_field_name_split(n)
    parts = []
    err = None
    try:
        for is_attr, key in rest:
            parts.append([is_attr, key])
    except Exception as e:  # noqa: BLE001
        err = [type(e).__name__, str(e)]
    return [first, parts, err]


def format_string():
    o = Out("format_string")
    rng = random.Random(7)
    fixed = ["{0[}]}", "{0[:]}", "{!r}", "{0!}", "{0!rr}", "{0!r:}", "{0:{1}}", "{a.b[0].c}",
             "{0.}", "{0[]}", "{0[0]x}", "{}}", "{", "}", "a{{b}}c", "{0:{{}}}", "{:{:{}}}",
             "{0[a]b}", "{\u0663}", "{ 0}", "{0!r }", "{!}", "{0:}}", "{0:{}", "{0!", "{0",
             "{0[", "{a{b}", "{99999999999999999999}", "{0.a[1][b].c}", "{0!x}", "", "plain",
             "x{}y{}z", "{0}{1}{0}", "{name}", "{:>10}", "{0!r:^{1}.{2}}", "}}{{", "{{}}",
             "{0:%Y-%m-%d}", "{[0]}", "{.real}", "\xe9{0}\U0001f600"]
    for t in fixed:
        o.case("parse_format_string", fmt_parse, t)
    alphabet = list("{}{}[]!:.0a1rs> x")
    for _ in range(1500):
        t = rand_str(rng, alphabet, rng.randrange(1, 9))
        o.case("parse_format_string", fmt_parse, t)
    names = ["", "0", "12", "a", "a.b", "a[0]", "a[x]", "0.real", "a.", "a[", "a[]", "a[0]b",
             "a..b", "a[0][1].c", "\u0663", "\u0663[\u0661]", "99999999999999999999",
             "a[99999999999999999999]", "[0]", ".x", "a[b.c]", "a]", "x y", "a.b.c[d][0]"]
    for n in names:
        o.case("parse_field_name", fmt_name, n)
    for _ in range(300):
        o.case("parse_field_name", fmt_name, rand_str(rng, list("a0.[]1x"), rng.randrange(0, 8)))
    auto = [["", ""], ["0", ""], ["", "0"], ["a", "", "b", ""], ["0", "1", "a"], ["", "", ""],
            ["1", "", "0"]]
    for names in auto:
        t = "".join("{" + x + "}" for x in names)
        o.case("auto_number", lambda t: t.format(*range(5), a="A", b="B"), t)
    args = (7, -1234, "abc", 255, "\xe9\u00df")
    kwargs = {"w": 10, "name": "Zo\xeb", "p": 3, "n": 1234567}
    render = ["{}|{}|{}", "{0:>{1}}", "{:{}}", "{0:{w}}|{name!r:^{w}}", "{n:,}|{n:_x}|{n:{p}}",
              "{:{:{}}}", "{2!r:*<12}|{2!s}|{4!a}", "{3:#x}|{3:08b}|{3:c}", "{name:.{p}}",
              "{5}", "{missing}", "{0:{1:{2}}}", "{:>{w}.{p}}", "{!r}{}", "{0}{}", "{}{0}",
              "{0!z}", "{0:d}", "{2:d}", "{0:,s}", "{name:=5}", "{n:e}", "{n:.2%}", "{0:}",
              "{w:{w}}", "{:{}}{:{}}", "{0:{{}}}", "{0:{}}", "a{{{0}}}b", "{1:+}|{1: }|{1:z}",
              "{0:{p}d}", "{:{w}}{}", "{name!a}", "{4!r:>8}"]
    for t in render:
        o.case("render", lambda t: t.format(*args, **kwargs), t)
    for c in "sra xR\x00\xe9":
        o.case("conversion", lambda c: ("{0!" + c + "}").format("v"), c)
    o.write()


def bytes_methods():
    o = Out("bytes_methods")
    rng = random.Random(8)
    bs = [b"", b" ", b"a", b"abc", b"hello world", b"  lead and trail  ", b"a,b,,c,",
          b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0 x", b"Hello World", b"mIxEd CaSe",
          b"line1\r\nline2\nline3\rline4\x0bx\x0cy\x1cz", b"\r\n\r\n", b"-42", b"+7",
          b"tab\there\tx", b"a\tb\r\tc\n\td", b"aaa", b"abab", b"\x00\xff\x80abc",
          b"they're bill's", b"123", b"ABC", b"abc1", b"\xc3\xa9t\xc3\xa9"]
    alphabet = list(b"aAbB ,.-_\t\n\rxyz0\x00\xff\x85'")
    bs += [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(120)]
    needles = [b"", b"a", b"ab", b" ", b",", b"aa", b"xyz", b"\n", b"\xff", b"zz"]
    idx = [None, 0, 1, 2, -1, -2, -100, 3, 5, 100]
    for b in bs:
        for f in ["upper", "lower", "swapcase", "title", "capitalize", "isalpha", "isalnum",
                  "isdigit", "isspace", "isupper", "islower", "istitle", "isascii"]:
            o.case(f, getattr(bytes, f), b)
        for keep in (False, True):
            o.case("splitlines", bytes.splitlines, b, keep)
        for ms in (-1, 0, 1, 2):
            o.case("split", bytes.split, b, None, ms)
            o.case("rsplit", bytes.rsplit, b, None, ms)
        for chars in (None, b"", b" a", b"aA,", b"\xff"):
            o.case("strip", bytes.strip, b, chars)
            o.case("lstrip", bytes.lstrip, b, chars)
            o.case("rstrip", bytes.rstrip, b, chars)
        for w in (-1, 0, 3, 8, 15):
            o.case("zfill", bytes.zfill, b, w)
            fill = rng.choice([b" ", b"*", b"\xff"])
            o.case("center", bytes.center, b, w, fill)
            o.case("ljust", bytes.ljust, b, w, fill)
            o.case("rjust", bytes.rjust, b, w, fill)
        for t in (8, 4, 1, 0, -3):
            o.case("expandtabs", bytes.expandtabs, b, t)
        for sep, per in ((None, 1), (":", 1), (":", 2), (":", -2), ("-", 3), ("", 1), ("ab", 1),
                         ("\xe9", 1), (":", 0), (b"_", 1)):
            o.case("hex", lambda b, sp, pr: b.hex() if sp is None else b.hex(sp, pr), b,
                   sep.decode() if isinstance(sep, bytes) else sep, per)
        o.case("translate", lambda b: b.translate(bytes.maketrans(b"abc", b"xyz"), b" ,"), b)
        o.case("translate_none", lambda b: b.translate(None, b"a\xff"), b)
        for n in needles:
            for ms in (-1, 0, 1, 2):
                o.case("split", bytes.split, b, n, ms)
                o.case("rsplit", bytes.rsplit, b, n, ms)
            o.case("partition", bytes.partition, b, n)
            o.case("rpartition", bytes.rpartition, b, n)
            o.case("removeprefix", bytes.removeprefix, b, n)
            o.case("removesuffix", bytes.removesuffix, b, n)
            for c in (-1, 0, 1, 2):
                o.case("replace", bytes.replace, b, n, rng.choice((b"", b"-", b"XYZ")), c)
            for f in ("find", "rfind", "count", "startswith", "endswith"):
                o.case(f, getattr(bytes, f), b, n, None, None)
                for _ in range(2):
                    o.case(f, getattr(bytes, f), b, n, rng.choice(idx), rng.choice(idx))
    for h in ["a", "0a ff", "0 a", "zz", "0a\xe9", "\xe9", "0\xe9", "0a0", "  ", "0a\t0b\n",
              "0a\x1c0b", "", "DEADbeef", " 0a", "0a ", "0a  0b", "g0", "0g", "0a\xe9zz", "z\xe9",
              "0a\x0b0b\x0c", "\u3000"]:
        o.case("fromhex", bytes.fromhex, h)
    o.case("maketrans", bytes.maketrans, b"ab", b"c")
    o.write()


def codecs_cases():
    o = Out("codec")
    rng = random.Random(9)
    strs = ["", "abc", "abcé", "é€😀", "aé€b", "ÿ", "\x80", "日本語", "a\U0010ffffb", "éé x éé"]
    encs = ["utf-8", "UTF8", "ascii", "latin-1", "Latin_1", "iso-8859-1", "us-ascii",
            "u8", "L1", " utf-8 ", "utf--8", "646", "cp819"]
    errs = ["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "bogus"]
    for st in strs:
        for e in encs:
            for er in errs:
                o.case("encode", str.encode, st, e, er)
    bss = [b"", b"abc", b"\xff", b"a\xe9b", b"\xe2\x82", b"\xe2\x82X", b"\xed\xa0\x80",
           b"\xf0\x9f\x98\x80", b"\xf0\x9f\x98", b"\xf0\x80\x80\x80", b"\xc0\xaf",
           b"\xc2", b"\xf4\x90\x80\x80", b"\xe0\x80\x80", b"\x80\x80", b"ok\xf5ok",
           "é€😀".encode()]
    bss += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8))) for _ in range(150)]
    bss += [bytes(rng.choice([0x41, 0x80, 0xbf, 0xc2, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0x9f, 0xa0])
                  for _ in range(rng.randrange(1, 7))) for _ in range(200)]
    for b in bss:
        for e in ["utf-8", "ascii", "latin-1"]:
            for er in ["strict", "ignore", "replace", "backslashreplace", "bogus"]:
                o.case("decode", bytes.decode, b, e, er)
    o.case("decode", bytes.decode, b"abc", "nope", "strict")
    for e in ["u8", "L1", "646", "latin", "utf8", "iso8859-1"]:
        o.case("decode", bytes.decode, b"\xff", e, "bogus")
    o.case("encode", str.encode, "x", "no-such-codec", "strict")
    o.write()


def main():
    os.makedirs(DATA, exist_ok=True)
    sel = sys.argv[1:]
    for name, fn in [("str_methods", str_methods), ("repr", reprs), ("int_text", int_text),
                     ("format_spec", format_spec), ("format_float", format_float),
                     ("percent", percent), ("format_string", format_string),
                     ("bytes_methods", bytes_methods), ("codec", codecs_cases)]:
        if not sel or name in sel:
            fn()


main()
