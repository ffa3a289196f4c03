//! Inline caches (`LOAD_GLOBAL`, method calls) must be invisible: every program below re-runs
//! the same call site after the namespace it cached has changed, and must see the new binding.

use pvm_core::{Limits, run_program};

fn run(src: &str) -> String {
    let out = run_program(src, "cache.py", &Limits::default());
    assert!(out.error.is_none(), "error: {:?}", out.error);
    out.stdout
}

#[test]
fn reassigned_and_deleted_globals_are_seen() {
    let src = "\
x = 1
def f():
    return x
r = [f()]
x = 2
r.append(f())
def len(o):
    return 'mine'
def g():
    return len([1, 2])
r.append(g())
del len
r.append(g())
del x
try:
    f()
except NameError:
    r.append('gone')
x = 3
r.append(f())
print(r)
";
    assert_eq!(run(src), "[1, 2, 'mine', 2, 'gone', 3]\n");
}

#[test]
fn method_changes_on_class_and_base_are_seen() {
    let src = "\
class A:
    def m(self):
        return 'A'
class B(A):
    pass
class C(B):
    pass
def call(o):
    return o.m()
c = C()
r = [call(c)]
A.m = lambda self: 'A2'
r.append(call(c))
B.m = lambda self: 'B'
r.append(call(c))
C.m = lambda self: 'C'
r.append(call(c))
del C.m
r.append(call(c))
del B.m
r.append(call(c))
c.m = lambda: 'inst'
r.append(call(c))
del c.m
r.append(call(c))
r.append(call(A()))
r.append(call(B()))
print(r)
";
    assert_eq!(
        run(src),
        "['A', 'A2', 'B', 'C', 'B', 'A2', 'inst', 'A2', 'A2', 'A2']\n"
    );
}

#[test]
fn deep_hierarchies_getattr_and_slots() {
    let src = "\
class L0:
    def m(self):
        return 0
class L1(L0): pass
class L2(L1): pass
class L3(L2): pass
class L4(L3): pass
def call(o):
    return o.m()
o = L4()
r = [call(o)]
L0.m = lambda self: 10
r.append(call(o))
L3.m = lambda self: 3
r.append(call(o))
class G:
    def __getattr__(self, name):
        return lambda: 'ga:' + name
    def m(self):
        return 'real'
g = G()
r.append(call(g))
del G.m
r.append(call(g))
class S:
    __slots__ = ('a',)
    def m(self):
        return 'slot'
s = S()
r.append(call(s))
S.m = lambda self: 'slot2'
r.append(call(s))
print(r)
";
    assert_eq!(run(src), "[0, 10, 3, 'real', 'ga:m', 'slot', 'slot2']\n");
}

#[test]
fn repeated_runs_with_caches_are_identical() {
    let src = "\
class A:
    def m(self, i):
        return i + 1
a = A()
t = 0
for i in range(200):
    t += a.m(i) + len([i])
print(t)
";
    let a = run_program(src, "cache.py", &Limits::default());
    let b = run_program(src, "cache.py", &Limits::default());
    assert!(a.error.is_none());
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.cycles_used, b.cycles_used);
    assert_eq!(a.cells_used, b.cells_used);
}

#[test]
fn attribute_slot_hints_follow_layout_changes() {
    let src = "\
class P:
    pass
def setx(o, v):
    o.x = v
def getx(o):
    return o.x
a = P()
a.y = 0
setx(a, 1)
b = P()
setx(b, 2)
r = [getx(a), getx(b)]
for i in range(20):
    setattr(a, 'k%d' % i, i)
del a.y
for i in range(18):
    delattr(a, 'k%d' % i)
setx(a, 3)
r.append(getx(a))
r.append(getx(b))
del a.x
try:
    getx(a)
except AttributeError:
    r.append('nox')
setx(a, 4)
r.append(getx(a))
r.append(sorted(a.__dict__))
def spy(self, name, value):
    object.__setattr__(self, name, value * 10)
P.__setattr__ = spy
setx(a, 5)
r.append(getx(a))
P.x = property(lambda self: 'prop')
r.append(getx(a))
try:
    setx(b, 6)
except AttributeError:
    r.append('ro')
print(r)
";
    assert_eq!(
        run(src),
        "[1, 2, 3, 2, 'nox', 4, ['k18', 'k19', 'x'], 50, 'prop', 'ro']\n"
    );
}

#[test]
fn data_descriptor_classes_see_class_changes() {
    let src = "\
class D:
    @property
    def p(self):
        return 'p'
    def m(self):
        return 'm'
def geta(o):
    return o.a
def getm(o):
    return o.m
d = D()
d.a = 1
d.m = 'inst'
r = [geta(d), getm(d), d.p]
D.a = property(lambda self: 'pa')
r.append(geta(d))
del D.a
r.append(geta(d))
D.m = 5
r.append(getm(d))
class E(D):
    pass
e = E()
e.a = 2
r.append(geta(e))
D.a = property(lambda self: 'pa2')
r.append(geta(e))
E.a = property(lambda self: 'ea')
r.append(geta(e))
r.append(geta(d))
print(r)
";
    assert_eq!(
        run(src),
        "[1, 'inst', 'p', 'pa', 1, 'inst', 2, 'pa2', 'ea', 'pa2']\n"
    );
}
