import pkg from "../package.json" with { type: "json" };

/** vq's version; the JSON `version` field says which libvmaf it matches. */
export const VERSION = `${pkg.version} (libvmaf 3.2.0 compatible)`;
