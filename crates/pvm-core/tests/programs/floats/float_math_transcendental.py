import math
# Transcendental functions: printed rounded so one-ulp libm differences cannot matter.
def show(name, v):
    print(name, f"{v:.12g}")
for x in [0.0, 0.5, 1.0, 2.0, 10.0]:
    show("exp", math.exp(x))
    show("log1p", math.log1p(x))
for x in [0.1, 1.0, 2.0, 10.0, 1e10]:
    show("log", math.log(x))
    show("log10", math.log10(x))
    show("log2", math.log2(x))
for x in [0.0, 0.5, 1.0, math.pi / 6, math.pi / 4, 3.0, -1.2]:
    show("sin", math.sin(x))
    show("cos", math.cos(x))
    show("tan", math.tan(x))
for x in [-1.0, -0.5, 0.0, 0.5, 1.0]:
    show("asin", math.asin(x))
    show("acos", math.acos(x))
    show("atan", math.atan(x))
show("atan2", math.atan2(1, -1))
show("atan2", math.atan2(-0.5, -2))
show("sinh", math.sinh(1.5))
show("cosh", math.cosh(1.5))
show("tanh", math.tanh(0.75))
show("pow", math.pow(2.0, 0.5))
show("hypot", math.hypot(3, 4))
show("hypot3", math.hypot(1, 2, 2))
show("degrees", math.degrees(math.pi / 3))
show("radians", math.radians(90))
show("log_base", math.log(1000, 10))
show("dist", math.dist((0, 0), (3, 4)))
print(math.exp(0), math.log(1), math.log2(1024), math.log10(1000))
try:
    math.log(0)
except ValueError as e:
    print("ValueError", e)
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError", e)
