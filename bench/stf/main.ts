/** `node bench/stf/main.ts`: runs the `stf` suite alone and writes bench/results/stf.{json,md}. */
import { writeSuite } from "../lib/report.ts";
import { run } from "./suite.ts";

writeSuite("stf", await run());
