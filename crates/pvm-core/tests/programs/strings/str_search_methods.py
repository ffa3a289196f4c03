# find/index/count/startswith/endswith and friends.
s = "the quick brown fox jumps over the lazy dog; the end"
print(s.find("the"), s.find("the", 1), s.find("the", 1, 20), s.find("cat"), s.rfind("the"), s.rfind("the", 0, 40))
print(s.index("fox"), s.rindex("o"), s.count("the"), s.count("o"), s.count(""), "aaaa".count("aa"))
print(s.startswith("the"), s.startswith(("a", "t")), s.startswith("quick", 4), s.endswith("end"), s.endswith(("x", "nd"), 0, len(s)))
print("fox" in s, "cat" not in s, "" in s)
try:
    s.index("cat")
except ValueError as e:
    print("ValueError", e)
try:
    s.rindex("zzz")
except ValueError as e:
    print("ValueError", e)
print("abcabc".find("c", -2), "abcabc".rfind("a", -5, -1), "abc".find(""), "abc".rfind(""))
