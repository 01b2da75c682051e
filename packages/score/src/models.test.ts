import { describe, expect, test } from "bun:test";
import { VqError } from "@vq/core";
import { parseModelArgument } from "./models.ts";

describe("models: libvmaf's --model syntax", () => {
  test("parses libvmaf's syntax, bare flags and feature overloads", () => {
    expect(parseModelArgument("version=vmaf_v0.6.1:name=phone:enable_transform:disable_clip=false:adm.adm_enhn_gain_limit=1")).toEqual({
      version: "vmaf_v0.6.1",
      name: "phone",
      enableTransform: true,
      disableClip: false,
      overloads: { adm: { adm_enhn_gain_limit: "1" } },
    });
  });

  for (const [arg, says] of [
    ["version=a:path=b", "exactly one of version= or path="],
    ["name=x", "exactly one of version= or path="],
    ["version=vmaf_v0.6.1:colour=red", 'unknown key "colour"'],
    ["version=vmaf_v0.6.1:enable_transform=maybe", "expected true or false"],
    ["version=", "version needs a value"],
  ] as const) {
    test(`rejects ${arg}, naming the models option`, () => {
      expect(() => parseModelArgument(arg)).toThrow(VqError);
      expect(() => parseModelArgument(arg)).toThrow(says);
      expect(() => parseModelArgument(arg)).toThrow(`invalid models entry "${arg}"`);
    });
  }
});
