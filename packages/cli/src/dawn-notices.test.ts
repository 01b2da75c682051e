import { expect, test } from "bun:test";
// @ts-expect-error: a plain JavaScript module of the bin wrapper, without types
import { dawnNoticeFilter } from "../bin/dawn-notices.js";

test("-q drops Dawn's notices with their source and blank lines, and keeps vq's own lines", () => {
  const stderr = [
    "Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 500000 to 1000000 to fit dynamic offset allocation limit.",
    "Warning: Couldn't load Vulkan: libvulkan.so.1: cannot open shared object file: No such file or directory",
    "    at operator() (/home/runner/work/node-webgpu/node-webgpu/third_party/dawn/src/dawn/native/vulkan/BackendVk.cpp:368)",
    "",
    "vq: missing.y4m: no such file",
    "",
    "Info: something Dawn says",
    "Error: a Dawn error stays",
  ];
  expect(stderr.filter(dawnNoticeFilter())).toEqual(["vq: missing.y4m: no such file", "", "Error: a Dawn error stays"]);
});
