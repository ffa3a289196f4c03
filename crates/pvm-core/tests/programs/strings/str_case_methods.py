# Case conversion methods.
for s in ["hello world", "Hello World", "HELLO", "hELLo wOrLD", "straße", "ǆemal", "123abc", "", "o'neil mc-donald", "İstanbul"[1:]]:
    print(repr(s), s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase(), s.casefold())
    print(" ", s.isupper(), s.islower(), s.istitle())
