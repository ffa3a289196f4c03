# Pipelines of generator expressions.
nums = range(1, 50)
sq = (n * n for n in nums)
odd = (s for s in sq if s % 2)
small = (o for o in odd if o < 500)
print(list(small))
lines = ["# comment", "key=value", "", "  other = thing  ", "#x", "last=1"]
clean = (l.strip() for l in lines)
pairs = (l.split("=", 1) for l in clean if l and not l.startswith("#"))
cfg = {k.strip(): v.strip() for k, v in pairs}
print(cfg)
