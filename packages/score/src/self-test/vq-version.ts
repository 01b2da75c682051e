import pkg from "../../package.json" with { type: "json" };

/** vq's version (its packages are versioned together), part of a self-test verdict's key. */
export const VQ_VERSION: string = pkg.version;
