# str.format and format_map.
print("{} {} {}".format(1, "a", 2.5), "{2}{1}{0}".format("a", "b", "c"), "{0}{0}".format("x"))
print("{name} is {age}".format(name="Bo", age=7), "{0[1]} {1[k]}".format([5, 6], {"k": "v"}))
class P:
    x = 3
    y = 4
print("{p.x},{p.y}".format(p=P()), "{:>8}|{:<8}|{:^8}".format("r", "l", "c"))
print("{:08.3f} {:+d} {:x} {:o} {:b} {:e} {:,}".format(3.14159, 5, 255, 8, 5, 12345.678, 1234567))
print("{!r} {!s} {!a}".format("q", "q", "ü"), "{{}} {}".format(1))
print("{:{w}.{p}f}".format(2.71828, w=10, p=2), "{0:{1}}".format("ab", 6) + "|")
print("{a}-{b}".format_map({"a": 1, "b": 2}))
try:
    "{} {}".format(1)
except IndexError as e:
    print("IndexError", e)
try:
    "{x}".format(y=1)
except KeyError as e:
    print("KeyError", e)
print("%s|%5s|%-5s|%d|%05d|%x|%X|%o|%e|%.2f|%%|%c|%r" % ("s", "ab", "ab", 42, 42, 255, 255, 8, 1.5, 2.345, 65, "r"))
print("%(a)s and %(b)d" % {"a": "x", "b": 3}, "%s" % (1,), "%s %s" % (1, [2]), "%i %u" % (3, 4))
print("%+d % d %.3s %*d %-*d|" % (5, 5, "abcdef", 4, 7, 4, 7))
try:
    "%d" % "x"
except TypeError as e:
    print("TypeError", e)
try:
    "%s %s" % (1,)
except TypeError as e:
    print("TypeError", e)
