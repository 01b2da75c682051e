/**
 * Ports of the glibc math functions libvmaf's results depend on bit for bit (`@vq/core/libm`):
 * JavaScript's Math.* differ from glibc's in the last bit now and then.
 */
export { fma, fmaExact } from "./fma.ts";
export { glibcExp, glibcExpFunction } from "./glibc-exp.ts";
export { ONE_THIRD_F, powf } from "./powf.ts";
export { productError } from "./exact-product.ts";
export { floatIfUnambiguous } from "./float-rounding.ts";
