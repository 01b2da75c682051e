/**
 * libvmaf's fixed-point Gaussian filters (vif_filter1d_table), one per scale: 17, 9, 5 and
 * 3 taps, each summing to 65536. Scale s is filtered with VIF_FILTERS[s]; the picture for
 * scale s+1 is blurred with VIF_FILTERS[s+1] before it is decimated.
 */
export const VIF_FILTERS: readonly Float64Array[] = [
  new Float64Array([489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489]),
  new Float64Array([1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244]),
  new Float64Array([3571, 16004, 26386, 16004, 3571]),
  new Float64Array([10904, 43728, 10904]),
];

/** Taps on each side of the centre: how far a filter reads past a plane's edge. */
export const VIF_FILTER_HALF: readonly number[] = VIF_FILTERS.map((f) => f.length >> 1);

/** The widest reach (scale 0's filter): the padding every buffer is allocated with. */
export const VIF_MAX_HALF = VIF_FILTER_HALF[0]!;

export const VIF_SCALES = 4;
