# expect: DeterminismError
# 'is not' on bytes values.
k = bytes([1, 2])
if k is not b"\x01\x02":
    print("different objects")
