# expect: SandboxError
# eval reached through an alias stored in a dict.
tools = {"calc": eval}
print(tools["calc"]("2 * 21"))
