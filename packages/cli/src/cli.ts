import { z } from "zod";
import { main } from "./main.ts";
import { stopOnSignals } from "./signals.ts";

// The vq command validates a few objects once (its request, models, feature options):
// zod's compiled validators cost more to build than they save then (~3 ms of a cold start).
z.config({ jitless: true });

stopOnSignals();
const code = await main(process.argv.slice(2));
// Exit at once rather than when the event loop drains: tearing down the GPU device and the
// native bindings takes ~70 ms on an H100 machine, after every result is written.
// Standard output is written synchronously (output/standard-output.ts): only stderr has a queue.
await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
process.exit(code);
