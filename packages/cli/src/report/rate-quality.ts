/** A frame rate as a fraction, the way Y4M's F tag (and ffmpeg's Y4M pipe) gives it. */
export interface FrameRate {
  num: number;
  den: number;
}

/** What a distorted file's bitrate is made of; every part known or the rate is not given. */
export interface RateInputs {
  /** The file's size on disk, container included. */
  bytes: number;
  /** Frames in the file. */
  frames: number;
  frameRate: FrameRate | undefined;
}

/** Average bitrate in bits per second: size / duration, duration = frames / frame rate; undefined without a usable rate. */
export function bitrate({ bytes, frames, frameRate }: RateInputs): number | undefined {
  if (!frameRate || !(frameRate.num > 0) || !(frameRate.den > 0) || !(frames > 0)) return undefined;
  const seconds = (frames * frameRate.den) / frameRate.num;
  return (bytes * 8) / seconds;
}

/** `2.35 Mbit/s`, `812 kbit/s`: three significant digits in the unit that fits. */
export function formatBitrate(bitsPerSecond: number): string {
  const units: [number, string][] = [
    [1e9, "Gbit/s"],
    [1e6, "Mbit/s"],
    [1e3, "kbit/s"],
  ];
  const [scale, unit] = units.find(([s]) => bitsPerSecond >= s) ?? [1, "bit/s"];
  return `${Number((bitsPerSecond / scale).toPrecision(3))} ${unit}`;
}

/** `24`, `29.97`: frames per second from the fraction. */
export function formatFrameRate(rate: FrameRate): string {
  return String(Number((rate.num / rate.den).toFixed(3)));
}
