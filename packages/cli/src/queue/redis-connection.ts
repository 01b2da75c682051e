import { VqError } from "@vq/core";

/** What BullMQ's Queue, Worker and QueueEvents take to reach Redis (ioredis options). */
export interface RedisConnection {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: object;
  /** BullMQ's workers block on Redis: commands must wait for a reconnection, not fail. */
  maxRetriesPerRequest: null;
  /** Reconnect for good, a little slower each time up to 2 s (a restarted Redis is found again). */
  retryStrategy: (times: number) => number;
}

/** `--redis redis://[user:password@]host[:port][/db]` (or rediss:// for TLS) as connection options. */
export function redisConnection(url: string): RedisConnection {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new VqError(`invalid argument "${url}" for --redis: expected a URL such as redis://127.0.0.1:6379`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw new VqError(`invalid argument "${url}" for --redis: expected redis:// or rediss://`);
  if (!u.hostname) throw new VqError(`invalid argument "${url}" for --redis: no host`);
  const db = u.pathname.length > 1 ? u.pathname.slice(1) : "0";
  if (!/^\d+$/.test(db)) throw new VqError(`invalid argument "${url}" for --redis: the database after the host must be a number`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : 6379,
    db: Number(db),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === "rediss:" ? {} : undefined,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  };
}

/** Where a connection goes, for messages (no password). */
export function redisAddress(c: RedisConnection): string {
  return `${c.host}:${c.port}${c.db ? `/${c.db}` : ""}`;
}

/** Waits until `ready` settles, or fails after `ms` naming the Redis that did not answer. */
export async function reachRedis<T>(ready: Promise<T>, c: RedisConnection, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new VqError(`cannot reach Redis at ${redisAddress(c)} (no answer in ${ms / 1000} s)`)), ms);
  });
  try {
    return await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** BullMQ, loaded on use: an optional dependency of the command, as Dawn is. */
export async function loadBullmq(): Promise<typeof import("bullmq")> {
  const specifier = "bullmq";
  try {
    return (await import(specifier)) as typeof import("bullmq");
  } catch (e) {
    throw new VqError(`vq worker and vq submit need the "bullmq" package, which is not installed: npm install bullmq ioredis (${(e as Error).message.split("\n")[0]})`);
  }
}
