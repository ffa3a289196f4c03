import re

# empty matches, sub/split edge cases
print(re.sub("", "-", "abc"), re.split("", "abc"), re.findall("", "ab"))
print(re.sub("a|", "X", "bab"), re.subn("(?:)", "_", ""), re.split("x*", "axbc"))
print(re.sub("a", "b", "aaa", count=2), re.sub("a", r"\\", "a"), re.sub("(a)", r"[\1\1]", "aa"))
print(re.sub("(?P<n>a)", r"\g<0>\g<n>", "xa"), re.sub("a", lambda m: "", "banana"))
print(re.split("(a)(x)?", "bab"), re.split("a", "", 0), re.split("(?=b)", "abab"))
# groups, lastindex, lastgroup, span of unmatched group
m = re.match(r"(?P<first>a)(b)?(?P<last>c)?", "ac")
print(m.groups(), m.span(2), m.start(2), m.lastindex, m.lastgroup, m.groupdict("?"), m.regs)
m = re.match(r"((a)b)", "ab")
print(m.lastindex, m.group(0, 1, 2), m[1], m.expand(r"<\2|\1>"))
m = re.search(r"(a)|(b)", "b")
print(m.lastindex, m.groups(), m.group(1), m.pos, m.endpos, m.string, m.re.pattern)
try:
    m.group(5)
except IndexError as e:
    print("IndexError:", e)
try:
    m.group("nope")
except IndexError as e:
    print("IndexError:", e)
# flags and anchors
print(re.findall(r"^\w", "ab\ncd", re.M), re.findall(r".", "a\nb", re.S), re.findall(r"(?s).", "a\nb"))
print(re.search(r"A", "xa", re.I).span(), re.fullmatch(r"a\Z", "a") is not None, re.search(r"\bis\b", "this is").start())
print(re.findall(r"\d", "١٢3"), re.findall(r"\d", "١٢3", re.A), re.findall(r"\w+", "héllo wörld"))
print(re.match(r"(?i:a)b", "Ab") is not None, re.match(r"(?i:a)b", "AB"))
print(re.findall(r"a{2,3}", "aaaaaaa"), re.findall(r"a{2,3}?", "aaaaaaa"), re.findall(r"a*?b", "aab"))
print(re.match(r"(?>a+)b", "aaab").group(), re.match(r"a++b", "aab").group(), re.match(r"a++a", "aaa"))
print(re.match(r"(x)?(?(1)a|b)", "b").group(), re.match(r"(x)?(?(1)a|b)", "xa").group())
print(re.search(r"(?<!\$)\b\d+", "$5 and 7").group(), re.search(r"(?<=ab)c", "abc").span())
# patterns: repr, equality, attributes
p = re.compile(r"(?P<w>\w+)\s(?P<n>\d+)")
print(p.groups, p.groupindex, p.flags, p == re.compile(r"(?P<w>\w+)\s(?P<n>\d+)"), p.pattern)
print([m.groupdict() for m in p.finditer("ab 1, cd 22, x")])
print(p.search("zz ab 12", 3), p.match("zz ab 12", 3).span(), p.fullmatch("ab 12"), p.findall("ab 1 cd 2", 2))
print(re.compile("a", re.I | re.M | re.S | re.X).flags, re.compile(b"a").flags, re.compile("a", re.A).flags)
print(re.escape("a-b_c.d"), re.escape(b"a.b"), re.escape("\t\n"))
# errors
for pat in ["(?P<1>a)", "(?P<a>x)(?P<a>y)", "a**", "(?<=a+)b", "\\", "[a", "(?z)", r"\1(a)"]:
    try:
        re.compile(pat)
        print("compiled", pat)
    except re.error as e:
        print("error:", e.msg, e.pos)
for repl in [r"\g<x>", r"\g<", r"\9"]:
    try:
        re.sub("(a)", repl, "a")
    except (re.error, IndexError) as e:
        print(type(e).__name__ + ":", e)
try:
    re.compile(re.compile("a"), re.I)
except ValueError as e:
    print("ValueError:", e)
try:
    re.findall(123, "a")
except TypeError as e:
    print("TypeError:", e)
print(re.compile(re.compile("q")).pattern, re.purge())
