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


def main():
    os.makedirs(DATA, exist_ok=True)
    sel = sys.argv[1:]
    for name, fn in [("str_methods", str_methods), ("repr", reprs), ("int_text", int_text),
                     ("format_spec", format_spec), ("format_float", format_float)]:
        if not sel or name in sel:
            fn()


main()
