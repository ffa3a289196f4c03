# repr() of strings with quotes, escapes and non-printables.
samples = ["plain", "it's", 'say "hi"', "both ' and \"", "tab\there", "nl\nx", "cr\rx", "bs\\x", "\x00\x07\x1b\x7f",
           "é ü", "\u200b", "\u2028", "\U0001F600", "\x80\x9f\xa0\xad", "\ud7ff", "bell\a", "\f\v"]
for s in samples:
    print(repr(s), len(s), ascii(s))
print(str(repr("x")), repr(repr("x")), "%r" % "a'b", f"{'q'!r}")
print('\'', "\"", '\\', r"\n raw", rb"\x00" if False else r"\x00", "\x41\102\u0043")
print("multi\
line", """triple 'quoted' "text"
second""")
