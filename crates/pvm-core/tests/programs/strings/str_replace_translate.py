# replace, maketrans/translate, expand-like operations.
s = "banana bandana"
print(s.replace("an", "AN"), s.replace("an", "", 2), s.replace("", "-", 3), s.replace("x", "y"), s.replace("a", "a"))
t = str.maketrans("abc", "xyz")
print("aabbcc-abc".translate(t))
t2 = str.maketrans({"a": "1", "b": None, "c": "CC"})
print("abcabc".translate(t2))
t3 = str.maketrans("ae", "AE", "n")
print(s.translate(t3))
print(sorted(t3.items()))
print("hello".translate({104: "J", 111: 0x30}))
