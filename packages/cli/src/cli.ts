import { z } from "zod";
import { main } from "./main.ts";

// The vq command validates a few objects once (its request, models, feature options):
// zod's compiled validators cost more to build than they save then (~3 ms of a cold start).
z.config({ jitless: true });

const code = await main(process.argv.slice(2));
// Exit at once rather than when the event loop drains: tearing down the GPU device and the
// native bindings takes ~70 ms on an H100 machine, after every result is written.
await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write("", () => resolve()))));
process.exit(code);
