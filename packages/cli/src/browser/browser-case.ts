/** What the browser test scores, shared by the page and the test's own run in Bun. */
export const BROWSER_CASE = { width: 176, height: 144, frames: 4, features: ["psnr", "float_ssim"] } as const;
