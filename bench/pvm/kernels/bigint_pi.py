# Big-integer kernel: pi to DIGITS decimal places with Machin's formula in fixed point.
# Every intermediate stays below 10**(DIGITS+10) (about 3400 bits), under the 4096-bit cap.
DIGITS = 1000
ROUNDS = 320


def arctan_inv(x, one):
    # arctan(1/x) * one
    total = term = one // x
    x2 = x * x
    n = 1
    sign = -1
    while term:
        term //= x2
        total += sign * (term // (2 * n + 1))
        sign = -sign
        n += 1
    return total


def pi_digits(digits):
    one = 10 ** (digits + 10)
    pi = 4 * (4 * arctan_inv(5, one) - arctan_inv(239, one))
    return pi // 10 ** 10


acc = 0
for r in range(ROUNDS):
    p = pi_digits(DIGITS - r)
    s = str(p)
    acc = (acc * 31 + sum(int(c) for c in s[-50:]) + p % 1000000007) % (2 ** 61 - 1)
print(f"bigint_pi digits={DIGITS} head={s[:12]} tail={s[-12:]} checksum={acc}")
