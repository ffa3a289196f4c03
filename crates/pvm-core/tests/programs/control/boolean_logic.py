# and/or return operands; short-circuit evaluation order.
log = []
def t(x):
    log.append(x)
    return x
print(0 or 5, 3 or 5, 0 and 5, 3 and 5, None or [] or "x", "" and 1/0, [] or {}, not 0, not "a")
print(t(1) and t(0) and t(2), log)
log.clear()
print(t(0) or t("") or t("z") or t(9), log)
log.clear()
print(t(1) < t(2) < t(0) < t(5), log)
print(True and "yes", False or "no", 1 == 1 and 2 == 2, not (1 and 0))
print(all([]), any([]), all([1, 0]), any([0, 0, 3]))
