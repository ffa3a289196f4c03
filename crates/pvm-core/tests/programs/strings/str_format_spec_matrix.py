# A matrix of format specs applied to strings.
for v in ["", "a", "héllo", "wide日本"]:
    print("|".join(format(v, s) for s in ["", "<6", ">6", "^6", "*^7", "-<5", ".2", ">8.3", "^9.1"]))
print(format("x", "=<3") if False else "skip", "{:>{}}".format("r", 4), "{:.{}}".format("abcdef", 3))
try:
    format("s", "d")
except ValueError as e:
    print("ValueError", e)
try:
    format("s", "=5")
except ValueError as e:
    print("ValueError", e)
