// WGSL sources are imported as text (`import code from "x.wgsl" with { type: "text" }`):
// Bun reads them at run time and `bun build` inlines them into the published bundles.
declare module "*.wgsl" {
  const source: string;
  export default source;
}
