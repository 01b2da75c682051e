// Per-frame time of each CPU extractor VMAF v0.6.1 runs (vif, adm, motion; and cambi), alone, on the
// same decoded frames of an 8-bit 4:2:0 Y4M pair: the median over the frames and repeats
// of one extract(). For the profiles behind ADR 0040's kernels; no reading, no model.
//   bun tools/bench-kernels-1080p.ts REF.y4m DIST.y4m [--frames N] [--repeat N] [--only vif,adm,motion,cambi]
import { readFileSync } from "node:fs";
import { FeatureCollector, Picture, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { vifCpuFeature } from "../packages/vif/src/cpu/vif-feature-cpu.ts";
import { motionFeature } from "@vq/motion";
import { admFeature } from "@vq/adm";
import { cambiFeature } from "@vq/cambi";
import { benchArgs } from "./bench-args.ts";

const argv = process.argv.slice(2);
const [referencePath, distortedPath] = argv;
if (!referencePath || !distortedPath) throw new Error("usage: bun tools/bench-kernels-1080p.ts REF.y4m DIST.y4m [--frames N] [--repeat N] [--only vif,adm,motion,cambi]");
const { get } = benchArgs(argv.slice(2));
const frameCount = Number(get("--frames", "8"));
const repeat = Number(get("--repeat", "3"));
const only = get("--only", "vif,adm,motion").split(",");

/** The first frames of an 8-bit 4:2:0 Y4M file as Pictures (the header's W and H only). */
function readY4m(path: string, frames: number): Picture[] {
  const bytes = readFileSync(path);
  const headerEnd = bytes.indexOf(10);
  const header = bytes.subarray(0, headerEnd).toString("latin1");
  const width = Number(/ W(\d+)/.exec(header)![1]);
  const height = Number(/ H(\d+)/.exec(header)![1]);
  const format: PictureFormat = { width, height, bitDepth: 8, pixelFormat: "420" };
  const size = width * height + 2 * (((width + 1) >> 1) * ((height + 1) >> 1));
  const pictures: Picture[] = [];
  for (let at = headerEnd + 1; pictures.length < frames && at < bytes.length; at += size) {
    at = bytes.indexOf(10, at) + 1; // past "FRAME\n"
    const picture = Picture.allocate(format);
    picture.buffer.set(bytes.subarray(at, at + size));
    pictures.push(picture);
  }
  return pictures;
}

const refs = readY4m(referencePath, frameCount);
const dists = readY4m(distortedPath, frameCount);
const pairs: PicturePair[] = refs.map((ref, i) => ({ ref, dist: dists[i]! }));
const extractors: Record<string, () => FeatureExtractor<PicturePair>> = {
  vif: () => vifCpuFeature.cpu(vifCpuFeature.definition.options.resolve({})),
  adm: () => admFeature.cpu(admFeature.definition.options.resolve({})) as FeatureExtractor<PicturePair>,
  motion: () => motionFeature.cpu(motionFeature.definition.options.resolve({})) as FeatureExtractor<PicturePair>,
  cambi: () => cambiFeature.cpu(cambiFeature.definition.options.resolve({})) as FeatureExtractor<PicturePair>,
};
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const name of only) {
  const times: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const extractor = extractors[name]!();
    const collector = new FeatureCollector();
    extractor.init(refs[0]!.format);
    pairs.forEach((pair, i) => {
      const t0 = performance.now();
      extractor.extract(pair, i, collector);
      times.push(performance.now() - t0);
    });
    extractor.flush(collector);
    extractor.close();
  }
  console.log(`${name} (${extractors[name]!().constructor.name}): ${median(times).toFixed(1)} ms a frame (median of ${times.length}; fastest ${Math.min(...times).toFixed(1)} ms; ${refs[0]!.format.width}x${refs[0]!.format.height})`);
}
