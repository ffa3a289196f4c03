# Attributes on exceptions: with_traceback-free checks, add_note(3.11), custom attrs.
e = ValueError("base")
e.add_note("first note")
e.add_note("second note")
print(e.__notes__, str(e))
class E(Exception):
    code = 400
try:
    raise E("bad request")
except E as ex:
    ex.code = 422
    print(ex.code, E.code, ex.args)
k = KeyError("key")
print(str(k), k.args[0], repr(k))
u = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
print(u.encoding, u.object, u.start, u.end, u.reason, str(u))
s = StopIteration("val")
print(s.value, s.args)
