/**
 * The addon's `pvmTest` bridge (contract C3): a PVM program's `_cowboy_bridge.request(value)`
 * reaches a JavaScript callback synchronously (canonical CBOR both ways), the callback may run
 * other PVM work of the addon (a nested run), a throwing callback becomes a Python
 * `RuntimeError`, and the embedded modules and assertion messages exist only for this entry
 * point.
 */
import { createRequire } from "node:module";
import { type CborMap, decodeCbor, encodeCbor } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";

interface Outcome {
  stdout: string;
  error?: { type: string; message: string; traceback: string[] } | null;
  cycles: number;
}
const native = createRequire(import.meta.url)("@cowboy/native") as {
  pvmTest?: (
    source: string,
    filename: string,
    options: Record<string, unknown> | null,
    serve: (request: Buffer) => Buffer,
  ) => Outcome;
  pvmRun: (source: string, filename: string) => Outcome;
};
const pvmTest = native.pvmTest;

describe.skipIf(pvmTest === undefined)("pvmTest", () => {
  const run = pvmTest as NonNullable<typeof pvmTest>;

  it("crosses to the host synchronously with canonical values", () => {
    const seen: unknown[] = [];
    const out = run(
      "import _cowboy_bridge as b\nr = b.request({'op': 'add', 'xs': [1, 2, 3], 'b': b'\\x01'})\nprint(r, type(r['sum']).__name__)\n",
      "main.py",
      null,
      (req) => {
        const m = decodeCbor(req) as CborMap;
        seen.push(m.get("op"));
        const xs = m.get("xs") as bigint[];
        return Buffer.from(
          encodeCbor({ sum: xs.reduce((a, b) => a + b, 0n), raw: m.get("b") as Uint8Array }),
        );
      },
    );
    expect(out.error ?? null).toBeNull();
    expect(out.stdout).toBe("{'raw': b'\\x01', 'sum': 6} int\n");
    expect(seen).toEqual(["add"]);
  });

  it("lets the host run other PVM work while the program waits", () => {
    const out = run("import _cowboy_bridge as b\nprint(b.request('nested'))\n", "main.py", null, () => {
      const inner = native.pvmRun("print(6 * 7)\n", "inner.py");
      return Buffer.from(encodeCbor(inner.stdout.trim()));
    });
    expect(out.stdout).toBe("42\n");
  });

  it("turns a throwing host into a RuntimeError", () => {
    const out = run(
      "import _cowboy_bridge as b\ntry:\n    b.request(1)\nexcept RuntimeError as e:\n    print('caught', e)\n",
      "main.py",
      null,
      () => {
        throw new Error("host exploded");
      },
    );
    expect(out.stdout).toBe("caught test host: Error: host exploded\n");
  });

  it("imports embedded modules and introspects asserts only when asked", () => {
    const opts = {
      modules: [
        { name: "helper", filename: "lib/helper.py", source: "def check(x):\n    assert x * 2 == 5\n" },
      ],
      assertIntrospection: true,
    };
    const noop = () => Buffer.from(encodeCbor(null));
    const out = run("import helper\nhelper.check(2)\n", "main.py", opts, noop);
    expect(out.error?.type).toBe("AssertionError");
    expect(out.error?.message).toBe("assert 4 == 5");
    expect(out.error?.traceback.at(-1)).toBe('File "lib/helper.py", line 2, in check');
    const plain = run(
      "import helper\nhelper.check(2)\n",
      "main.py",
      { ...opts, assertIntrospection: false },
      noop,
    );
    expect(plain.error?.message).toBe("");
    // pvmRun (and actors) have neither the bridge nor the embedded modules
    expect(native.pvmRun("import _cowboy_bridge\n", "t.py").error?.type).toBe("ImportError");
  });

  it("refuses bad options with a typed error", () => {
    expect(() => run("pass\n", "t.py", { cyclesLimit: -1 }, () => Buffer.alloc(0))).toThrow(/cyclesLimit/);
  });
});
