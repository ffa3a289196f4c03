/**
 * The peer side of the devnet benchmark as a {@link LoadTarget}: a Hardhat network node
 * (peer.ts) loaded with signed EIP-1559 transactions (ethereum.ts) from its well-known
 * development accounts, the same work as on Cowboy: 1-unit value transfers to one
 * recipient, and calls to a one-slot counter contract.
 */
import { createServer } from "node:net";
import { deriveSecretKey, mnemonicToSeed } from "@cowboy/sdk";
import {
  bytesToHex,
  counterInitCode,
  createAddress,
  ethAddress,
  hexToBytes,
  signEip1559,
} from "./ethereum.ts";
import type { LoadTarget, Workload } from "./load.ts";
import { HARDHAT_CHAIN_ID, HARDHAT_DEV_KEY } from "./peer.ts";
import { WsRpc } from "./ws-rpc.ts";

/** The public mnemonic of Hardhat's development accounts (printed by `hardhat node`). */
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
const RECIPIENT = hexToBytes("0x00000000000000000000000000000000c0ffee01");
const GWEI = 1_000_000_000n;
/** Gas limits: a transfer costs exactly 21,000; a counter call 28,000–43,000 (cold slot, zero or not). */
const GAS: Record<Workload | "deploy", bigint> = { transfer: 21_000n, call: 100_000n, deploy: 200_000n };

/** A free TCP port on 127.0.0.1 (for `hardhat node --port`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

interface Key {
  secretKey: Uint8Array;
  address: Uint8Array;
}

export class HardhatTarget implements LoadTarget {
  readonly name = "hardhat";
  readonly prefix = "eth";
  readonly wsUrl: string;
  readonly senders: number;
  counter: Uint8Array = new Uint8Array(20);
  private readonly keys: Key[];
  private readonly deployer: Key;
  private readonly nonces: bigint[] = [];
  private rpc: WsRpc | null = null;

  private constructor(wsUrl: string, senders: number) {
    this.wsUrl = wsUrl;
    this.senders = senders;
    const seed = mnemonicToSeed(HARDHAT_MNEMONIC);
    const keys: Key[] = [];
    for (let i = 0; i <= senders; i++) {
      const secretKey = deriveSecretKey(seed, `m/44'/60'/0'/0/${i}`);
      keys.push({ secretKey, address: ethAddress(secretKey) });
    }
    if (bytesToHex((keys[0] as Key).secretKey) !== HARDHAT_DEV_KEY) {
      throw new Error("hardhat: derived development key 0 is not Hardhat's");
    }
    this.keys = keys.slice(0, senders);
    this.deployer = keys[senders] as Key;
  }

  /** Connects, reads nonces, and deploys the counter contract (automining commits it at once). */
  static async setUp(wsUrl: string, senders: number): Promise<HardhatTarget> {
    const t = new HardhatTarget(wsUrl, senders);
    const rpc = await WsRpc.open(wsUrl);
    t.rpc = rpc;
    const chainId = BigInt(await rpc.call<string>("eth_chainId"));
    if (chainId !== HARDHAT_CHAIN_ID) throw new Error(`hardhat: unexpected chain id ${chainId}`);
    for (const k of t.keys) t.nonces.push(await t.pendingNonce(k.address));
    const nonce = await t.pendingNonce(t.deployer.address);
    t.counter = createAddress(t.deployer.address, nonce);
    const raw = t.signed(t.deployer, nonce, null, counterInitCode(), GAS.deploy, 0n);
    const hash = await rpc.call<string>("eth_sendRawTransaction", [raw]);
    const receipt = await rpc.call<{ status: string; contractAddress: string } | null>(
      "eth_getTransactionReceipt",
      [hash],
    );
    if (receipt?.status !== "0x1" || receipt.contractAddress.toLowerCase() !== bytesToHex(t.counter)) {
      throw new Error(`hardhat: counter deploy failed: ${JSON.stringify(receipt)}`);
    }
    return t;
  }

  sign(kind: Workload, sender: number, count: number): string[] {
    const key = this.keys[sender];
    if (key === undefined) throw new RangeError(`no sender ${sender}`);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const nonce = this.nonces[sender] as bigint;
      this.nonces[sender] = nonce + 1n;
      out.push(
        kind === "transfer"
          ? this.signed(key, nonce, RECIPIENT, new Uint8Array(0), GAS.transfer, 1n)
          : this.signed(key, nonce, this.counter, new Uint8Array(0), GAS.call, 0n),
      );
    }
    return out;
  }

  async effect(kind: Workload): Promise<bigint> {
    const rpc = this.rpc as WsRpc;
    if (kind === "transfer") {
      return BigInt(await rpc.call<string>("eth_getBalance", [bytesToHex(RECIPIENT), "latest"]));
    }
    return BigInt(await rpc.call<string>("eth_getStorageAt", [bytesToHex(this.counter), "0x0", "latest"]));
  }

  close(): void {
    this.rpc?.close();
  }

  private async pendingNonce(address: Uint8Array): Promise<bigint> {
    return BigInt(
      await (this.rpc as WsRpc).call<string>("eth_getTransactionCount", [bytesToHex(address), "pending"]),
    );
  }

  private signed(
    key: Key,
    nonce: bigint,
    to: Uint8Array | null,
    data: Uint8Array,
    gas: bigint,
    value: bigint,
  ): string {
    const raw = signEip1559(
      {
        chainId: HARDHAT_CHAIN_ID,
        nonce,
        maxPriorityFeePerGas: GWEI,
        maxFeePerGas: 100n * GWEI,
        gas,
        to,
        value,
        data,
      },
      key.secretKey,
    );
    return bytesToHex(raw);
  }
}
