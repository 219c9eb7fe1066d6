package dev.cortex.bench;

import java.util.Arrays;

/**
 * Order statistics of a series of durations in nanoseconds. Percentiles use the nearest-rank
 * method, so every figure is one of the samples (the median of an even count is the lower middle).
 *
 * @param count number of samples
 * @param first the first sample, in the order measured
 * @param min smallest sample
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param max largest sample
 * @param mean arithmetic mean
 */
record Stats(int count, long first, long min, long p50, long p90, long p99, long max, long mean) {

  static Stats of(long[] samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    return new Stats(
        sorted.length,
        samples[0],
        sorted[0],
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted[sorted.length - 1],
        Math.round(Arrays.stream(sorted).average().orElseThrow()));
  }

  /** The nearest-rank percentile of sorted samples. */
  static long percentile(long[] sorted, double percent) {
    int rank = (int) Math.ceil(percent / 100 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
