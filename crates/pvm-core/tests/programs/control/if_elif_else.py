# if/elif/else chains, truthiness, conditional expressions.
def classify(n):
    if n < 0:
        return "neg"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    else:
        return "big"
print([classify(n) for n in (-5, 0, 3, 10, 99)])
for v in [0, 1, "", "a", [], [0], {}, {"k": 0}, None, 0.0, -0.0, 0.1, (), (0,), set(), range(0), range(1), b"", b"\x00"]:
    print(repr(v), "truthy" if v else "falsy")
x = 5
print("odd" if x % 2 else "even", "a" if x > 10 else "b" if x > 3 else "c")
if not []:
    print("empty list is falsy")
if x > 0 and x < 10 or x == 100:
    print("in range")
