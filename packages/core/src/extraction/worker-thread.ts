// A worker thread on whichever runtime runs vq, chosen at run time (adr/0023-lean-installs.md):
// node:worker_threads on Node and Bun (Node has no global Worker; Bun has both), a module
// Web Worker on Deno (it refuses classic workers) and in browsers. Both sides of a worker
// make the same choice, so a message always travels the way its receiver listens.

/** How one side of a worker sends to the other. */
export interface WorkerChannel<Out> {
  post(message: Out, transfer?: ArrayBuffer[]): void;
}

export interface WorkerHandle<Out> extends WorkerChannel<Out> {
  terminate(): void;
}

export interface WorkerEvents<In> {
  message(message: In): void;
  /** The worker failed outside the protocol (it could not start, it threw, it exited). */
  error(error: Error): void;
}

/** Node and Bun: node:worker_threads. Deno (which also has `process`) and browsers: Web Workers. */
export function usesWorkerThreads(): boolean {
  const g = globalThis as { Deno?: unknown; process?: { versions?: { node?: string } } };
  return g.Deno === undefined && typeof g.process?.versions?.node === "string";
}

/** Starts the module at `url` as a worker thread. */
export async function startWorker<In, Out>(url: URL, on: WorkerEvents<In>): Promise<WorkerHandle<Out>> {
  if (usesWorkerThreads()) {
    const threads = await import("node:worker_threads");
    const worker = new threads.Worker(url);
    let terminated = false;
    worker.on("message", (m: In) => on.message(m));
    worker.on("error", (e: Error) => on.error(new Error(`extraction worker failed: ${e.message}`)));
    worker.on("exit", (code) => {
      if (!terminated) on.error(new Error(`extraction worker exited with code ${code}`));
    });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate() {
        terminated = true;
        void worker.terminate();
      },
    };
  }
  const worker = new Worker(url.href, { type: "module" });
  worker.onmessage = (ev: MessageEvent<In>) => on.message(ev.data);
  worker.onerror = (ev: ErrorEvent) => {
    ev.preventDefault(); // Deno would otherwise end the process with the worker's error
    on.error(new Error(`extraction worker failed: ${ev.message}`));
  };
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    terminate: () => worker.terminate(),
  };
}

/**
 * The worker's side: calls `receive` with each message from the thread that started it.
 * Under worker_threads the parent port holds messages until a listener comes, so the
 * asynchronous import loses none; a Web Worker's handler is installed synchronously.
 */
export function serveWorker<In, Out>(receive: (message: In, reply: WorkerChannel<Out>) => void): void {
  if (usesWorkerThreads()) {
    void import("node:worker_threads").then(({ parentPort }) => {
      if (!parentPort) throw new Error("an extraction worker must be started as a worker thread");
      const reply: WorkerChannel<Out> = { post: (m, transfer) => parentPort.postMessage(m, transfer) };
      parentPort.on("message", (m: In) => receive(m, reply));
    });
    return;
  }
  const scope = globalThis as unknown as { onmessage: ((e: MessageEvent<In>) => void) | null; postMessage: (m: Out, transfer?: ArrayBuffer[]) => void };
  const reply: WorkerChannel<Out> = { post: (m, transfer) => scope.postMessage(m, transfer ?? []) };
  scope.onmessage = (e) => receive(e.data, reply);
}
