/**
 * The consensus {@link Network} over libp2p: validators are addressed by index, messages
 * are encoded with the wire codec and sent as frames on `/cowboy/consensus/1`.
 *
 * `send(to)` resolves the index to the validator's peer id; `broadcast` sends to every
 * other validator. Incoming frames come only from validators (the node drops the rest);
 * a frame that does not decode penalizes its sender and is dropped. Handlers receive the
 * sender's validator index and the decoded message.
 */
import type { Message, Network } from "@cowboy/consensus";
import { isP2pError, P2pError } from "./errors.ts";
import type { Logger, P2pNode } from "./node.ts";
import { PENALTY } from "./scores.ts";
import { type BlockCodec, decodeMessage, encodeMessage } from "./wire.ts";

export type ConsensusMessageHandler = (from: number, message: Message) => void;

export class ConsensusNetwork implements Network {
  private readonly node: P2pNode;
  private readonly codec: BlockCodec;
  private readonly log: Logger | null;
  private readonly maxBytes: number;
  private readonly handlers = new Set<ConsensusMessageHandler>();

  /**
   * Binds consensus to `node`. `maxMessageBytes` must not exceed the node's consensus frame
   * limit (default 4 MiB).
   */
  constructor(deps: { node: P2pNode; codec: BlockCodec; logger?: Logger | null; maxMessageBytes?: number }) {
    this.node = deps.node;
    this.codec = deps.codec;
    this.log = deps.logger ?? null;
    this.maxBytes = deps.maxMessageBytes ?? 4 * 1024 * 1024;
    this.node.onConsensus((frame, from) => {
      let message: Message;
      try {
        message = decodeMessage(frame, this.codec, this.maxBytes);
      } catch (err) {
        const code = isP2pError(err) ? err.code : "UNKNOWN";
        this.node.penalize(from.peerId, PENALTY.undecodable, `undecodable consensus message (${code})`);
        return;
      }
      for (const h of this.handlers) {
        try {
          h(from.validator, message);
        } catch (err) {
          this.log?.error("consensus message handler threw", { from: from.validator, err: String(err) });
        }
      }
    });
  }

  /** Subscribes to decoded messages from validators; returns an unsubscribe function. */
  onMessage(handler: ConsensusMessageHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** This node's validator index, or null if it is not in the set. */
  get me(): number | null {
    return this.node.validators.indexOf(this.node.peerId);
  }

  private encode(message: Message): Uint8Array | null {
    try {
      return encodeMessage(message, this.codec, this.maxBytes);
    } catch (err) {
      // a message we cannot encode is a local bug; consensus must not crash on it
      this.log?.error("cannot encode consensus message", { type: message.type, err: String(err) });
      return null;
    }
  }

  /** Sends `message` to every validator except this node. */
  broadcast(message: Message): void {
    const bytes = this.encode(message);
    if (bytes === null) return;
    const self = this.node.peerId;
    for (const { peerId } of this.node.validators.entries()) {
      if (peerId !== self) this.node.sendConsensus(peerId, bytes);
    }
  }

  /** Sends `message` to validator `to`. Throws `UNKNOWN_VALIDATOR` for an index not in the set. */
  send(to: number, message: Message): void {
    const peerId = this.node.validators.peerOf(to);
    if (peerId === null)
      throw new P2pError("UNKNOWN_VALIDATOR", `no validator with index ${to}`, { index: to });
    if (peerId === this.node.peerId) return;
    const bytes = this.encode(message);
    if (bytes !== null) this.node.sendConsensus(peerId, bytes);
  }
}
