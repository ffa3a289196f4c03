# Ends with an uncaught KeyError from set.remove.
members = {"alice", "bob"}
for name in ["bob", "alice"]:
    members.remove(name)
    print("removed", name, len(members))
members.remove("carol")
