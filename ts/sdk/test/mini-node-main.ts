/**
 * Runs the in-memory test chain of client-fixture.ts as a process (for the Python
 * client's tests): funds the first three devnet development accounts, mines a block
 * per transaction, prints `{"http": …, "ws": …}` on one line and serves until stdin
 * closes.
 */
import { addressFromSecretKey, deriveSecretKey, mnemonicToSeed } from "../src/index.ts";
import { startMiniNode } from "./client-fixture.ts";

const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const node = await startMiniNode();
const seed = mnemonicToSeed(MNEMONIC);
for (let i = 0; i < 3; i++)
  node.chain.fund(addressFromSecretKey(deriveSecretKey(seed, `m/44'/60'/0'/0/${i}`)), 10n ** 18n);
node.chain.autoMine = true;
process.stdout.write(`${JSON.stringify({ http: node.http, ws: node.ws })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void node.close().then(() => process.exit(0));
});
