// WGSL sources are imported as text (`import code from "x.wgsl" with { type: "text" }`):
// Bun reads them at run time and tools/build-package.ts inlines them into each package's dist/.
declare module "*.wgsl" {
  const source: string;
  export default source;
}
