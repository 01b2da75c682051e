import df64Wgsl from "../../../../shaders/ciede/df64.wgsl" with { type: "text" };
import fmaProbeWgsl from "../../../../shaders/ciede/fma-probe.wgsl" with { type: "text" };
import { computePipeline } from "@vq/gpu-core";

const probed = new WeakMap<GPUDevice, Promise<boolean>>();

/**
 * Whether the device's WGSL fma() rounds once. WGSL allows an unfused fma; f32-pair
 * products (shaders/ciede/df64.wgsl) then switch to Dekker's splitting. Asked once per
 * device: a tiny kernel takes df64.wgsl's two_prod of a·b that is not an f32 and
 * checks that the error term is not lost.
 */
export function hasFusedFma(device: GPUDevice): Promise<boolean> {
  let answer = probed.get(device);
  if (!answer) {
    answer = probe(device);
    probed.set(device, answer);
  }
  return answer;
}

async function probe(device: GPUDevice): Promise<boolean> {
  const pipeline = computePipeline(device, { label: "ciede fma probe", code: [df64Wgsl, fmaProbeWgsl].join("\n"), constants: { FUSED_FMA: 1 } });
  const operands = device.createBuffer({ size: 12, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const fused = device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const a = 1 + 2 ** -12; // a² = 1 + 2^-11 + 2^-24 needs 25 bits
    device.queue.writeBuffer(operands, 0, new Float32Array([a, a, 0]));
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: operands } },
          { binding: 1, resource: { buffer: fused } },
        ],
      }),
    );
    pass.dispatchWorkgroups(1);
    pass.end();
    encoder.copyBufferToBuffer(fused, 0, readback, 0, 4);
    device.queue.submit([encoder.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const answer = new Uint32Array(readback.getMappedRange())[0] === 1;
    readback.unmap();
    return answer;
  } finally {
    operands.destroy();
    fused.destroy();
    readback.destroy();
  }
}
