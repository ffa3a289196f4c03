"""Finds a Node.js >= 22 (PATH, else the repository's .tooling/) and runs a TypeScript
entry point of the repository as a child process that prints its URLs as one JSON line."""
import json
import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def find_node():
    candidates = [shutil.which("node")]
    candidates += sorted(str(p) for p in ROOT.glob(".tooling/node-*/node_modules/node-*/bin/node"))
    for c in candidates:
        if not c:
            continue
        try:
            major = int(subprocess.run([c, "-p", "process.versions.node.split('.')[0]"], capture_output=True,
                                       text=True, timeout=20).stdout.strip() or 0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            continue
        if major >= 22:
            return c
    return None


class NodeProcess:
    """`with NodeProcess("ts/sdk/test/mini-node-main.ts") as urls:` → {"http": ..., "ws": ...}."""

    def __init__(self, entry: str, *args: str):
        self.entry = entry
        self.args = args
        self.proc = None

    def __enter__(self):
        node = find_node()
        if node is None:
            raise RuntimeError("these tests need Node.js >= 22 (run `npm run setup`)")
        self.proc = subprocess.Popen([node, str(ROOT / self.entry), *self.args], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.entry} exited: {self.proc.stderr.read()}")
        return json.loads(line)

    def __exit__(self, *exc):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Devnet:
    """`with Devnet() as url:` runs the real devnet (ts/node/src/cowboyd.ts) on a free port with a
    temporary data directory and yields its JSON-RPC URL; SIGTERM stops it."""

    def __init__(self, *args: str):
        self.args = args
        self.proc = None
        self.tmp = None

    def __enter__(self):
        import re
        import tempfile
        node = find_node()
        if node is None:
            raise RuntimeError("these tests need Node.js >= 22 (run `npm run setup`)")
        self.tmp = tempfile.TemporaryDirectory(prefix="cowboy-py-devnet-")
        self.proc = subprocess.Popen([node, str(ROOT / "ts/node/src/cowboyd.ts"), "--data-dir", self.tmp.name,
                                      "--rpc-port", "0", "--log-level", "warn", *self.args], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seen = ""
        for line in self.proc.stdout:
            seen += line
            m = re.search(r"JSON-RPC\s+(http://\S+)", line)
            if m:
                return m.group(1)
        raise RuntimeError(f"cowboyd exited:\n{seen}")

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.tmp.cleanup()


def has_actor_runtime():
    """Whether the native addon carries the actor runtime (`executeActor`)."""
    node = find_node()
    if node is None:
        return False
    r = subprocess.run([node, "-p", "typeof require('@cowboy/native').executeActor"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    return r.stdout.strip() == "function"
