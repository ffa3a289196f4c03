# Ends with an uncaught exception raised from another one.
def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError(f"config value {s!r} is not a number") from e
print(parse("12"))
print(parse("twelve"))
