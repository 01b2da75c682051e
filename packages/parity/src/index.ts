/**
 * vq's parity harness (private, for tests): libvmaf's golden outputs against our scores,
 * one table per metric, with ADR 0003's tolerance classes in one place.
 */
export { TOLERANCE_CLASSES, boundsFor } from "./contract.ts";
export type { Bound, Tolerance, ToleranceClass, ToleranceName } from "./contract.ts";
export { expectParity, emptyTally, addTally } from "./compare.ts";
export type { ParityCheck, ParityTally } from "./compare.ts";
export { goldenOptionSets, runsWithKeys } from "./golden-options.ts";
export { parityTests } from "./table.ts";
export type { FeatureParity, ParityBackend, ParityTable } from "./table.ts";
