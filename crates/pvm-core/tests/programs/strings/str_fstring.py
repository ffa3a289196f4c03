# f-strings: expressions, specs, conversions, = debugging, nesting.
name, n, pi, items = "Ada", 42, 3.14159, ["x", "y"]
print(f"{name} {n} {pi}")
print(f"{name!r} {name!s} {name!a} {'é'!a}")
print(f"{n=} {pi = } {name=!r} {n + 1 = } {items[0]=}")
print(f"{n:5d}|{n:<5}|{n:^5}|{n:>5}|{n:05}|{n:x}|{n:#b}|{n:+}")
print(f"{pi:.2f}|{pi:8.3f}|{pi:e}|{pi:.1%}|{pi:g}")
width, prec = 10, 3
print(f"{pi:{width}.{prec}f}|{name:>{width}}|{name:*^{width}}")
print(f"{'nested ' + f'{n:03}'}", f"{{literal}} {{{n}}}")
print(f"{[i * i for i in range(4)]} {dict(a=1)} {(1, 2)} {None} {True:d}")
print(f"{3 if n > 10 else 4} {name.upper()} {len(items)} {items!r:>12}")
print(f"{1e-5:.2e} {1234567.0:,.1f} {0.5:%} {-0.0:+.1f} {255:08_b}")
print(f"{'abc':.2} {'abc':>5.1} {n!r:>6}")
x = 10
print(f"{x:>{x}}|", f"{'}'}{'{'}", f'{"dq"}')
