/**
 * JSON formatting of domain values, kept apart from the domain types: quantities are
 * `0x`-prefixed hex without leading zeros (`0x0` for zero), byte strings are `0x`-prefixed
 * lowercase hex of even length — Ethereum's JSON-RPC habits.
 */
export function quantity(n: bigint | number): string {
  const v = typeof n === "number" ? BigInt(n) : n;
  if (v < 0n) throw new RangeError(`quantity: negative value ${v}`);
  return `0x${v.toString(16)}`;
}

export function data(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}
