# Iterating dicts: keys, values, items, enumerate, zip.
prices = {"apple": 1.25, "pear": 0.8, "kiwi": 0.5, "mango": 2.0}
for k in prices:
    print(k, end=" ")
print()
for k, v in prices.items():
    print(f"{k}={v}", end=";")
print()
for i, (k, v) in enumerate(sorted(prices.items(), key=lambda kv: kv[1])):
    print(i, k, v)
print(list(zip(prices, prices.values())))
print(sum(prices.values()), max(prices, key=prices.get), min(prices.values()))
it = iter(prices)
print(next(it), next(it), list(it))
