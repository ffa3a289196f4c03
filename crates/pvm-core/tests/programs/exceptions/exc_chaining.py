# raise from, __cause__, __context__, __suppress_context__.
def convert(s):
    try:
        return int(s)
    except ValueError as e:
        raise TypeError("bad input") from e
try:
    convert("x")
except TypeError as e:
    print(e, type(e.__cause__).__name__, e.__cause__, e.__suppress_context__, type(e.__context__).__name__)
try:
    try:
        {}["k"]
    except KeyError:
        raise RuntimeError("during handling")
except RuntimeError as e:
    print(e, e.__cause__, type(e.__context__).__name__, e.__context__, e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("clean") from None
except ValueError as e:
    print(e, e.__cause__, type(e.__context__).__name__, e.__suppress_context__)
try:
    raise IndexError("plain")
except IndexError as e:
    print(e.__cause__, e.__context__)
