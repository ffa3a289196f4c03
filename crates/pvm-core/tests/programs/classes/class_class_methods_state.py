# Class-level registries and counters managed by classmethods.
class Entity:
    _registry = {}
    _next_id = 0
    def __init__(self, name):
        cls = type(self)
        Entity._next_id += 1
        self.id = Entity._next_id
        self.name = name
        Entity._registry.setdefault(cls.__name__, []).append(self)
    @classmethod
    def all(cls):
        return [e.name for e in Entity._registry.get(cls.__name__, [])]
    @classmethod
    def count(cls):
        return len(Entity._registry.get(cls.__name__, []))
class User(Entity):
    pass
class Group(Entity):
    pass
for n in ["ann", "bob"]:
    User(n)
Group("admins")
User("cy")
print(User.all(), Group.all(), User.count(), Group.count(), Entity.count(), Entity._next_id)
