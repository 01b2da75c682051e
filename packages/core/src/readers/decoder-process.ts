import type { ChildProcess } from "./child-processes.ts";

/** Why a process did not start (structural: @vq/core's declarations need no Node typings). */
export interface StartError {
  readonly code?: string;
  readonly message: string;
}

/** A decoder process (ffmpeg) whose stdout carries the frames. */
export interface DecoderProcess {
  readonly stdout: ReadableStream<Uint8Array>;
  readonly pid?: number;
  /** What stopChildProcess and trackChildProcess need of it. */
  readonly child: ChildProcess;
  /** The exit code (null when killed by a signal), or the error that kept it from starting. */
  readonly exited: Promise<{ code: number | null; error?: StartError }>;
  /** The first 4 KiB it wrote to stderr, once it has exited. */
  stderr(): string;
}

/** The part of Bun's Subprocess used here (structural: @vq/core's declarations need no Bun typings). */
interface BunSubprocess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string): void;
}
type BunSpawn = (cmd: string[], options: { stdin: "ignore"; stdout: "pipe"; stderr: "pipe" }) => BunSubprocess;

const STDERR_KEPT = 4096;

/**
 * Starts `command`. Under Bun with Bun.spawn: its stdout is a native stream that reads the
 * pipe ~1.6× faster than node:child_process's socket turned into a web stream
 * (adr/0041-threads-read-their-frames.md); elsewhere node:child_process.
 */
export async function spawnDecoder(command: string, args: readonly string[]): Promise<DecoderProcess> {
  const bunSpawn = (globalThis as { Bun?: { spawn: BunSpawn } }).Bun?.spawn;
  return bunSpawn ? spawnWithBun(bunSpawn, command, args) : spawnWithNode(command, args);
}

function spawnWithBun(spawn: BunSpawn, command: string, args: readonly string[]): DecoderProcess {
  let proc: BunSubprocess;
  try {
    proc = spawn([command, ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (e) {
    // Bun throws at once when the binary cannot start (ENOENT, EACCES)
    const error = e as StartError;
    const fail = { code: null, error };
    return { stdout: new ReadableStream({ start: (c) => c.close() }), child: { exitCode: 1, signalCode: null, kill: () => false, once: () => undefined }, exited: Promise.resolve(fail), stderr: () => "" };
  }
  let said = "";
  const decoder = new TextDecoder();
  const drained = (async () => {
    for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) if (said.length < STDERR_KEPT) said += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  const child: ChildProcess = {
    get exitCode() {
      return proc.exitCode;
    },
    get signalCode() {
      return proc.signalCode;
    },
    kill(signal) {
      proc.kill(signal);
      return true;
    },
    once(_event, listener) {
      void proc.exited.then(() => listener(), () => listener());
      return undefined;
    },
  };
  const exited = proc.exited.then(async (code) => {
    await drained;
    return { code: proc.signalCode ? null : code };
  });
  return { stdout: proc.stdout, pid: proc.pid, child, exited, stderr: () => said };
}

async function spawnWithNode(command: string, args: readonly string[]): Promise<DecoderProcess> {
  // loaded here, not with vq: node:child_process and node:stream cost ~10 ms to load under Bun
  const [{ spawn }, { Readable }] = await Promise.all([import("node:child_process"), import("node:stream")]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let said = "";
  child.stderr.on("data", (d: Buffer) => {
    if (said.length < STDERR_KEPT) said += d.toString();
  });
  const exited = new Promise<{ code: number | null; error?: StartError }>((resolve) => {
    child.on("error", (error: StartError) => resolve({ code: null, error }));
    child.on("close", (code) => resolve({ code }));
  });
  return { stdout: Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>, pid: child.pid, child, exited, stderr: () => said };
}
