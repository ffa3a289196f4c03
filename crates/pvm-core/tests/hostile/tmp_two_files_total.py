# expect: OSError
# Each file alone fits; together they exceed the budget.
with open("/tmp/a.bin", "wb") as f:
    f.write(b"a" * (200 * 1024))
print("first file ok")
with open("/tmp/b.bin", "wb") as f:
    f.write(b"b" * (100 * 1024))
print("second file ok")
