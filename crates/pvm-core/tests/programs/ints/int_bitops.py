# Bitwise operators on positive and negative ints.
vals = [0, 1, 5, 12, 255, -1, -5, -256, 1 << 40]
for a in vals:
    print(a, ~a, a & 0xF0, a | 3, a ^ 0x55, a << 3, a >> 2)
print(-1 >> 10, -1024 >> 3, -1025 >> 3, 1 << 0)
print(0b1100 & 0b1010, 0b1100 | 0b1010, 0b1100 ^ 0b1010)
print((1 << 100) - 1 & (1 << 64) + 7)
print(~(1 << 70), -(1 << 70) >> 65, (-(1 << 70)) & 0xFFFF_FFFF)
print((12345678901234567890 ^ 98765432109876543210) >> 7)
for x in (0, 1, 2, 3, 255, 256, -1, -255, 2**64, -(2**64)):
    print(x, x.bit_length(), x.bit_count())
