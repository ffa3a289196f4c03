# Money with integer cents vs floats; rounding at boundaries.
prices = [19.99, 5.01, 0.1, 0.2, 100.005, 2.675]
print(sum(prices), round(sum(prices), 2), f"{sum(prices):.2f}")
cents = [round(p * 100) for p in prices]
print(cents, sum(cents), f"{sum(cents) // 100}.{sum(cents) % 100:02d}")
for p in prices:
    print(p, round(p, 2), f"{p:.2f}", f"{p:.1f}", int(p * 100), int(round(p * 100)))
tax = 0.0825
for c in [999, 1000, 1001, 12345]:
    t = c * tax
    print(c, t, round(t), int(t + 0.5), f"{t / 100:.4f}")
