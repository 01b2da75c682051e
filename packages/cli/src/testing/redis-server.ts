import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether Debian's redis-server is here (`npm test` installs it). */
export const redisInstalled = spawnSync("redis-server", ["--version"]).status === 0;

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * A redis-server of the test's own on 127.0.0.1 (nothing else is reached), without
 * persistence, in a temporary folder; `restart` stops and starts it on the same port.
 */
export class TestRedis {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), "vq-redis-"));

  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.launch();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async launch(): Promise<void> {
    this.process = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (await accepts(this.port)) return;
      await Bun.sleep(50);
    }
    throw new Error(`redis-server did not start on 127.0.0.1:${this.port}`);
  }

  async stop(): Promise<void> {
    const p = this.process;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((resolve) => p.once("exit", resolve));
    p.kill("SIGKILL");
    await exited;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
