/**
 * GPU buffers reused by (size, usage): a kernel that needs a scratch buffer per frame
 * takes one here and gives it back, so steady state allocates nothing.
 */
export class BufferPool {
  private readonly free = new Map<string, GPUBuffer[]>();
  private created = 0;

  constructor(private readonly device: GPUDevice) {}

  acquire(size: number, usage: GPUBufferUsageFlags, label = "vq buffer"): GPUBuffer {
    const key = `${size}:${usage}`;
    const buffer = this.free.get(key)?.pop();
    if (buffer) return buffer;
    this.created++;
    return this.device.createBuffer({ label, size, usage });
  }

  release(buffer: GPUBuffer): void {
    const key = `${buffer.size}:${buffer.usage}`;
    let list = this.free.get(key);
    if (!list) this.free.set(key, (list = []));
    list.push(buffer);
  }

  /** Buffers created so far (a test checks this stops growing). */
  get createdCount(): number {
    return this.created;
  }

  destroy(): void {
    for (const list of this.free.values()) for (const b of list) b.destroy();
    this.free.clear();
  }
}
