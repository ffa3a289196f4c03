# Assorted str functionality.
print(len("hello"), str(), str(""), str(12), repr(12), str("x") == "x", str(b"ab", "utf-8"))
print("abc".__len__(), "abc".__contains__("b"), "abc".__getitem__(1), "ab".__add__("cd"), "ab".__mul__(2))
print("Hello".center(11, "=").replace("=", "-", 2))
words = "It was the best of times it was the worst of times".lower().split()
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
print(sorted(freq.items(), key=lambda kv: (-kv[1], kv[0])))
print(" ".join(w.capitalize() for w in words[:6]))
print("{:-^30}".format(" centered "))
acronym = "".join(w[0] for w in "portable network graphics".split()).upper()
print(acronym)
print("x".join(map(str, range(5))), "%s" % "%s", "a%sb" % "-")
print(str.upper("abc"), str.join(",", ["1", "2"]), str.split("a b"))
