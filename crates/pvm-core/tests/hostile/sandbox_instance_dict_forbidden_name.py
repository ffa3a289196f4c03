# expect: SandboxError
# A forbidden attribute name planted in an instance dict through vars(): reading it as
# `obj.f_back` must raise like every other access to the name (getattr, the generic path),
# also on the instance-attribute fast path, which finds the key in the dict itself.
class C:
    pass


c = C()
vars(c)["f_back"] = 1


def read(obj):
    return obj.f_back


print(read(c))
