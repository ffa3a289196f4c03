# Unicode code points, ord/chr, lengths and comparisons.
s = "aé€𝄞日"
print(len(s), [ord(c) for c in s], [hex(ord(c)) for c in s])
print(chr(97), chr(233), chr(8364), chr(0x1D11E), chr(0x65E5), chr(0))
print("é" == "\u00e9", "\N{GREEK SMALL LETTER ALPHA}", "\u03b1\u03b2\u03b3".upper(), "ΣΑΣ".lower())
print(sorted(["b", "a", "é", "z", "É", "A", "日", "€"]))
print("日本" < "中国", "a" < "á", max("hello"), min("héllo"))
print("ß".upper(), "ﬁ".upper(), "İ".lower().encode("utf-8"), len("İ".lower()))
try:
    chr(0x110000)
except ValueError as e:
    print("ValueError", e)
try:
    ord("ab")
except TypeError as e:
    print("TypeError", e)
print([c for c in "naïve café"], "naïve".encode("utf-8"))
