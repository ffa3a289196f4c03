export * from "./consensus-network.ts";
export * from "./errors.ts";
export * from "./framing.ts";
export * from "./identity.ts";
export * from "./node.ts";
export * from "./scores.ts";
export * from "./validators.ts";
export * from "./wire.ts";
