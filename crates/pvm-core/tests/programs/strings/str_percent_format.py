# printf-style formatting edge cases.
print("%5.2f|%-7.3e|%+.0f|%#x|%#o|%08.3f|% d" % (3.14159, 12345.6789, 2.5, 255, 8, -3.14159, 42))
print("%s %s" % ("a", "b"), "%s" % [1, 2], "%s" % ((1, 2),), "%d%%" % 50, "%c%c" % (72, "i"))
print("%(name)s is %(age)d years" % {"name": "Ann", "age": 33}, "%(x)r" % {"x": "q"})
print("%.3s|%10.4s|%-10s|" % ("abcdef", "abcdef", "left"))
print("%x %X %o %e %E %g %G" % (3054, 3054, 3054, 0.000123, 123e10, 1e-5, 1e20))
print("%i %d" % (3.99, -3.99), "%s" % None, "%r %a" % ("é", "é"))
try:
    "%d %d" % (1, 2, 3)
except TypeError as e:
    print("TypeError", e)
try:
    "%z" % 1
except ValueError as e:
    print("ValueError", e)
