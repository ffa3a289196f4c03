# assert statements.
def check(x):
    assert x > 0, f"x must be positive, got {x}"
    return x
print(check(5))
try:
    check(-2)
except AssertionError as e:
    print("AssertionError", e, e.args)
try:
    assert False
except AssertionError as e:
    print("bare", repr(e), e.args)
try:
    assert 1 == 2, ("tuple", 1)
except AssertionError as e:
    print(e.args)
assert True, "never"
print("done")
