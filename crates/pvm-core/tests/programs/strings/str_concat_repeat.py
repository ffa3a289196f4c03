# Concatenation, repetition, comparison, membership, iteration.
a, b = "foo", "bar"
print(a + b, a * 3, 3 * b, a * 0, a * -2 == "", (a + " ") * 2)
s = ""
for i in range(10):
    s += str(i)
print(s, len(s))
print("abc" < "abd", "abc" < "ab", "Z" < "a", "" < "a", "abc" == "abc", "a" != "A")
print([c for c in "hey"], list("hi"), tuple("ab"), "".join(reversed("stressed")))
print(sorted("python"), max(["apple", "banana", "cherry"], key=len), min("zebra"))
parts = []
for word in "one two three".split():
    parts.append(word[::-1].upper())
print("_".join(parts))
print(str(123) + str(4.5) + str(None) + str(True) + str([1, "a"]) + str((1,)) + str({"k": "v"}))
