# Raising classes vs instances; raising non-exceptions is a TypeError.
for thing in [ValueError, ValueError("inst"), KeyError]:
    try:
        raise thing
    except Exception as e:
        print(type(e).__name__, repr(e))
try:
    raise 5
except TypeError as e:
    print("TypeError", e)
class NotExc:
    pass
try:
    raise NotExc()
except TypeError as e:
    print("TypeError", e)
try:
    try:
        pass
    except 5:
        pass
    print("except clause with bad type is only checked when an exception happens")
except TypeError as e:
    print("TypeError", e)
