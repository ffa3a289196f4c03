"""Generates tests/data/cases.jsonl from CPython 3.11's `re` (run: python3 tests/gen/gen_cases.py).

Each line is one case: {"op", "pattern", "flags", "text", ...} with CPython's result:
search/match/fullmatch -> spans of every group or null; finditer -> list of whole-match spans;
sub -> the result string; split -> the pieces (null for unmatched groups);
compile errors -> {"error": str(exc)}.
"""
import json
import re
import sys

assert sys.version_info[:2] == (3, 11), "expectations must come from CPython 3.11"

TEXTS = [
    "", "a", "abc", "aaa", "abcabc", "hello world", "Hello World 123", "foo bar  baz\tqux\n",
    "line1\nline2\nline3", "line1\nline2\n", "x=1, y=22, z=333", "aAbBcC", "ÀéÎõÜ ß straße",
    "ΑΒΓ αβγ", "日本語テキスト 123", "٣٤٥ 123 ４５", "a.b*c+d?e", "(nested (parens) here)",
    "mississippi", "aaaaab", "abababab", "The quick brown fox jumps over the lazy dog",
    "2024-01-15 and 1999-12-31", "user@example.com, other.person@mail.org", "ſKk",
    "tab\tsep\tvalues", "    indented", "trailing   ", "a\n", "\n", "xyz\nabc\n", "ab12cd34",
    "<a><b></b></a>", "'quoted' and \"double\"", "ǅungla", "İstanbul", "x" * 30,
]

PATTERNS = [
    r"a", r"abc", r"a*", r"a+", r"a?", r"a*?", r"a+?", r"a??", r"a{2}", r"a{2,}", r"a{,2}", r"a{1,2}",
    r"a{1,2}?", r"a*+", r"a++b", r"(?>a+)b", r"(?>a*)a", r".", r".*", r".+", r"^a", r"a$", r"^$", r"$",
    r"\Aa", r"a\Z", r"^\w+$", r"\bw\w*", r"\Bo", r"\b", r"\B", r"\d+", r"\D+", r"\s+", r"\S+", r"\w+", r"\W+",
    r"[abc]", r"[^abc]+", r"[a-z]+", r"[A-Z][a-z]*", r"[0-9]{2,3}", r"[\d\s]+", r"[^\W\d_]+", r"[.*+?]",
    r"[]a]", r"[^]a]", r"[a-]", r"[-a]", r"[\]]", r"[\\]", r"(a)(b)?", r"(a|ab)(c|bcd)(d*)", r"(a+)+b",
    r"(a|b)*", r"(a*)*", r"(a|)*b", r"(?:ab)+", r"(?P<first>\w+)\s(?P<second>\w+)", r"(\w)\1", r"(?P<x>a)(?P=x)",
    r"(?i)hello", r"(?i)[a-z]+", r"(?i)straSSe", r"(?i)ſ", r"(?i)k", r"(?m)^line\d$", r"(?m)\d$", r"(?s).+",
    r"(?x) a b c  # comment", r"(?i:a)b", r"a(?i:b)c", r"(?-i:a)", r"a(?=b)", r"a(?!b)", r"(?<=a)b", r"(?<!a)b",
    r"(?<=\d{2})x", r"(?<=ab|cd)e", r"(a)?(?(1)b|c)", r"(?:(a)|b)(?(1)x|y)", r"\d+(?:\.\d+)?", r"(\d{4})-(\d{2})-(\d{2})",
    r"[\w.]+@[\w.]+", r"<(\w+)>.*?</\1>", r"'[^']*'|\"[^\"]*\"", r"(?P<k>\w)=(?P<v>\d+)", r"s+i", r"(ss)+", r"i(?=ss)",
    r"x*", r"x+?", r"(?a)\w+", r"(?u)\w+", r"\x41", r"\u00e9", r"\U0001F600?", r"\0", r"\t", r"\n$", r"a|b|c",
    r"ab|a", r"a|ab", r"(?:a|ab)c", r"\(.*\)", r"\([^()]*\)", r"(a)|(b)", r"((a)(b))", r"(?:)", r"()", r"(|a)+",
    r"[ǅ]", r"(?i)İ", r"(?i)i", r"\w+\Z", r".\Z", r"a{0}", r"(?i)[^a]", r"[^\n]+", r"\S+?@",
]

BAD = [
    r"*", r"a**", r"a{2}{3}", r"(", r")", r"[a", r"a{2,1}", r"\q", r"(?P<1>a)", r"(?P<a>x)(?P<a>y)", r"\2(a)",
    r"(?<=a+)b", r"(?P=nope)", r"[z-a]", r"(?z)", r"a(?i)", r"(?(2)a|b)", r"(?#unterminated", r"\x4", r"[\d-z]",
    r"(?P<>a)", r"(?<a)", r"\u12", r"(a)(?(1)b|c|d)", r"a++?+",
]

SUBS = [
    (r"a", "-", "banana"), (r"x*", "-", "abxd"), (r"(\w+) (\w+)", r"\2 \1", "hello world foo bar"),
    (r"(?P<w>\w)", r"[\g<w>]", "abc"), (r"(a)|b", r"<\1>", "abab"), (r"\d", r"\\", "a1b2"), (r"o", r"\n", "foo"),
    (r"", "-", "abc"), (r"(?=b)", "|", "abab"), (r"(\d+)", r"\g<1>0", "a1b22"), (r"\s+", " ", "a  b \t c\n"),
    (r"(a)(b)?", r"\2\1", "ab a"), (r"[aeiou]", r"\-", "education"), (r"^", ">", "l1\nl2"), (r"(?m)^", ">", "l1\nl2"),
]

SPLITS = [
    (r",", "a,b,,c"), (r"(,)", "a,b,c"), (r"\s*", "a b  c"), (r"x*", "axbc"), (r"(?=b)", "abab"), (r"\W+", "Words, words, words."),
    (r"(\W+)", "Words, words."), (r"(a)|(b)", "xaybz"), (r"", "abc"), (r"\b", "a b"),
]

def spans(m):
    if m is None:
        return None
    return [list(m.span(g)) if m.span(g) != (-1, -1) else None for g in range(m.re.groups + 1)]

cases = []
for pat in PATTERNS:
    p = re.compile(pat)
    for text in TEXTS:
        for op in ("search", "match", "fullmatch"):
            cases.append({"op": op, "pattern": pat, "flags": 0, "text": text, "result": spans(getattr(p, op)(text))})
        cases.append({"op": "finditer", "pattern": pat, "flags": 0, "text": text, "result": [list(m.span()) for m in p.finditer(text)]})
    cases.append({"op": "compile", "pattern": pat, "flags": 0, "groups": p.groups, "groupindex": dict(p.groupindex), "reflags": p.flags})
for pat, flag in [(r"hello", re.I), (r"^\w+$", re.M), (r".+", re.S), (r" a b # c", re.X), (r"\w+", re.A), (r"[a-z]+", re.I | re.A)]:
    p = re.compile(pat, flag)
    for text in TEXTS:
        cases.append({"op": "finditer", "pattern": pat, "flags": int(flag), "text": text, "result": [list(m.span()) for m in p.finditer(text)]})
    cases.append({"op": "compile", "pattern": pat, "flags": int(flag), "groups": p.groups, "groupindex": dict(p.groupindex), "reflags": p.flags})
for text in TEXTS:
    for pos, endpos in [(1, 100), (2, 4), (0, 2)]:
        for pat in (r"^a", r"\w+", r"a$", r"\bb", r"(?<=a)b", r"$"):
            p = re.compile(pat)
            cases.append({"op": "search", "pattern": pat, "flags": 0, "text": text, "pos": pos, "endpos": endpos, "result": spans(p.search(text, pos, endpos))})
for pat in BAD:
    try:
        re.compile(pat)
        raise SystemExit(f"expected an error for {pat!r}")
    except re.error as e:
        cases.append({"op": "compile", "pattern": pat, "flags": 0, "error": str(e)})
for pat, repl, text in SUBS:
    cases.append({"op": "sub", "pattern": pat, "flags": 0, "text": text, "repl": repl, "result": re.sub(pat, repl, text)})
for pat, text in SPLITS:
    cases.append({"op": "split", "pattern": pat, "flags": 0, "text": text, "result": re.split(pat, text)})

with open(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cases.jsonl", "w", encoding="utf-8") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + "\n")
print(len(cases), "cases")
