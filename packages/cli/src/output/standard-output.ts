import { fstatSync, readFileSync, statSync, writeSync } from "node:fs";
import { VqError } from "@vq/core";

const STDOUT = 1;
// O_CLOEXEC as /proc/PID/fdinfo prints the flags (octal)
const O_CLOEXEC = 0o2000000;

/**
 * Writes to file descriptor 1 synchronously, so that a failure (ENOSPC on /dev/full, EPIPE
 * from a reader that went away) is thrown here and becomes exit 1, where process.stdout
 * would report it after the exit code is settled, or not at all.
 */
export function writeStandardOutput(text: string, fd = STDOUT): void {
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      // A non-blocking pipe that is full: wait for the reader rather than fail.
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      throw new VqError(`standard output: cannot write the output: ${(e as Error).message}`, { cause: e });
    }
  }
}

/**
 * Whether standard output was closed when vq started. Bun opens /dev/null in place of a
 * closed descriptor 1, with close-on-exec set, which a descriptor inherited through exec
 * cannot have. Node sets close-on-exec on inherited ones too, so there (and off Linux,
 * without /proc) this answers false and a closed standard output stays Node's /dev/null.
 */
export function standardOutputWasClosed(fd = STDOUT, runtimeIsBun = "Bun" in globalThis): boolean {
  return runtimeIsBun && isDevNull(fd) && closeOnExec(`/proc/self/fdinfo/${fd}`);
}

function isDevNull(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    return s.isCharacterDevice() && s.rdev === statSync("/dev/null").rdev;
  } catch {
    return false;
  }
}

/** The close-on-exec bit of a descriptor, from its /proc fdinfo file (flags in octal). */
export function closeOnExec(fdinfo: string): boolean {
  let info: string;
  try {
    info = readFileSync(fdinfo, "utf8");
  } catch {
    return false;
  }
  const flags = /^flags:\s*([0-7]+)$/m.exec(info);
  return flags !== null && (parseInt(flags[1]!, 8) & O_CLOEXEC) !== 0;
}
