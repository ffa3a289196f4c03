# Ends with an uncaught ValueError raised when no case matches.
def op(code):
    match code:
        case "+":
            return lambda a, b: a + b
        case "-":
            return lambda a, b: a - b
        case _:
            raise ValueError(f"unknown operator {code!r}")
print(op("+")(2, 3), op("-")(2, 3))
print(op("*")(2, 3))
