export {
  DkgCeremony,
  type DkgCeremonyConfig,
  type DkgResult,
  type DkgTransport,
  shareIndexOf,
} from "./ceremony.ts";
export { type GenesisDkg, genesisDkg } from "./genesis.ts";
export { DkgError, DkgInfo, type DkgInfoConfig } from "./info.ts";
export { type AgreedLogs, agreedLogs, type KeptLog, type LogExclusion } from "./logs.ts";
