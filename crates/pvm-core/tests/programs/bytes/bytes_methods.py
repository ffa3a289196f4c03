# bytes methods mirror str methods.
b = b"  Hello, World; hello again  "
print(b.strip(), b.lstrip(), b.rstrip(), b.strip(b" Heln"), b.upper(), b.lower(), b.swapcase(), b.title())
print(b.split(), b.split(b","), b.rsplit(None, 1), b.partition(b";"), b.rpartition(b"l"))
print(b.find(b"hello"), b.rfind(b"l"), b.index(b"W"), b.count(b"l"), b.count(108), b.find(111))
print(b.startswith(b"  H"), b.endswith((b"x", b"  ")), b.replace(b"l", b"L", 3), b.strip().split(b" ", 1))
print(b"-".join([b"a", b"b", b"c"]), b"abc".center(9, b"*"), b"7".zfill(4), b"ab".ljust(4, b"."), b"ab".rjust(4))
print(b"abc123".isalnum(), b"abc".isalpha(), b"123".isdigit(), b" \t".isspace(), b"ABC".isupper(), b"abc".islower())
print(b"a\nb\r\nc".splitlines(), b"a\nb".splitlines(True), b"x\ty".expandtabs(4))
print(b"www.site.org".removeprefix(b"www."), b"file.txt".removesuffix(b".txt"))
t = bytes.maketrans(b"abc", b"ABC")
print(b"aabbcc".translate(t), b"hello".translate(None, b"l"))
