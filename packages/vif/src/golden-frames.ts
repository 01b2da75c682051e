// Test support: the golden frames vif's and float_vif's unit tests score.
import { Y4mReader, type PicturePair } from "@vq/core";
import { goldenPairs, goldenPath } from "@vq/core/golden";

/** The first frames of a golden pair's reference and distorted videos. */
export async function firstFrames(pairName: string): Promise<PicturePair> {
  const pair = goldenPairs().find((p) => p.pair === pairName)!;
  const read = async (path: string) => {
    const reader = await Y4mReader.open(goldenPath(path));
    const picture = (await reader.read())!;
    await reader.close();
    return picture;
  };
  return { ref: await read(pair.reference), dist: await read(pair.distorted) };
}
