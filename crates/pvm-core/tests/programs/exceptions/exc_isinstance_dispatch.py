# Catching by base class and inspecting the concrete type.
errors = [ValueError("v"), KeyError("k"), IndexError("i"), ZeroDivisionError("z"), TypeError("t"), UnicodeError("u"), FileNotFoundError("f")]
for err in errors:
    try:
        raise err
    except LookupError as e:
        print("lookup", type(e).__name__, e)
    except ArithmeticError as e:
        print("arith", type(e).__name__)
    except ValueError as e:
        print("value", type(e).__name__, isinstance(e, UnicodeError))
    except OSError as e:
        print("os", type(e).__name__, e)
    except Exception as e:
        print("generic", type(e).__name__)
