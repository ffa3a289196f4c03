# Basic small-int arithmetic, including negative operands.
vals = [0, 1, -1, 7, -7, 13, -13, 100, -256]
for a in vals:
    print(a, a + 3, a - 3, a * 3, -a, +a, abs(a))
print(2 + 3 * 4 - 5)
print((2 + 3) * (4 - 5))
print(10 - 2 - 3, 2 ** 3 ** 2, (2 ** 3) ** 2)
print(-2 ** 2, (-2) ** 2, -2 ** -1)
print(7 * -1, -7 * -1, 0 * -5)
print(1_000_000 + 2_000, 0x_ff, 0o_17, 0b_1010)
print(123456789 * 987654321)
