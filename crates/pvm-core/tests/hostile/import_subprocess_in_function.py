# expect: ImportError
# The import is hidden inside a function called later.
def run(cmd):
    import subprocess
    return subprocess.run(cmd)
print("about to run")
run(["id"])
