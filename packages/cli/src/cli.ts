import { main } from "./main.ts";

const code = await main(process.argv.slice(2));
// Exit at once rather than when the event loop drains: tearing down the GPU device and the
// native bindings takes ~70 ms on an H100 machine, after every result is written.
await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write("", () => resolve()))));
process.exit(code);
