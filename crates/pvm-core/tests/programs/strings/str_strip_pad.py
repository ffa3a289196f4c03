# strip family, padding and alignment methods.
s = "  \t xx hello xx \n "
print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()), repr(s.strip(" \txn")))
print(repr("xxhixx".strip("x")), repr("abcba".strip("ab")), repr("www.example.com".lstrip("cmowz.")))
print(repr("hi".center(7)), repr("hi".center(8, "*")), repr("hi".ljust(5, "-")), repr("hi".rjust(5)), repr("hi".center(1)))
print("42".zfill(5), "-42".zfill(5), "+4".zfill(4), "abc".zfill(2), "".zfill(3))
print(repr("a\tb\tc".expandtabs()), repr("a\tbb\tccc".expandtabs(4)), repr("\t".expandtabs(0)))
print("prefix_name".removeprefix("prefix_"), "name.py".removesuffix(".py"), "name".removeprefix("x"), "name".removesuffix(""))
