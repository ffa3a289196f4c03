/**
 * The node's persistent libp2p identity: an Ed25519 key kept in a file, so a validator has
 * the same peer id across restarts (the id other validators bind to its index).
 *
 * The file holds the libp2p protobuf encoding of the private key, written with mode 0600
 * through a temporary file and a rename (never half-written). An existing file that does
 * not decode is an error (`IDENTITY_INVALID`); it is never silently replaced.
 */
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from "@libp2p/crypto/keys";
import type { PrivateKey } from "@libp2p/interface";
import { P2pError } from "./errors.ts";

/** Loads the key at `path`, or creates (and saves) a new Ed25519 key if the file does not exist. */
export async function loadOrCreateIdentity(path: string): Promise<{ key: PrivateKey; created: boolean }> {
  let bytes: Uint8Array | null = null;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT")
      throw new P2pError("IDENTITY_IO", `cannot read identity file ${path}`, { path }, e);
  }
  if (bytes !== null) {
    try {
      return { key: privateKeyFromProtobuf(bytes), created: false };
    } catch (e) {
      throw new P2pError(
        "IDENTITY_INVALID",
        `identity file ${path} does not hold a libp2p private key`,
        { path },
        e,
      );
    }
  }
  const key = await generateKeyPair("Ed25519");
  await saveIdentity(path, key);
  return { key, created: true };
}

/** Writes `key` to `path` atomically with mode 0600. */
export async function saveIdentity(path: string, key: PrivateKey): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const fh = await open(tmp, "w", 0o600);
    try {
      await fh.writeFile(privateKeyToProtobuf(key));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    throw new P2pError("IDENTITY_IO", `cannot write identity file ${path}`, { path }, e);
  }
}
