package io.queenlake.bench.scale;

import java.util.Collection;

/** p50, p95 and max of a sample (nearest rank), and its mean; NaN for an empty one. */
record Stats(int n, double p50, double p95, double max, double mean) {

    static Stats of(Collection<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new Stats(v.length, v[rank(v.length, 0.50)], v[rank(v.length, 0.95)], v[v.length - 1],
                java.util.Arrays.stream(v).average().orElse(Double.NaN));
    }

    private static int rank(int n, double q) {
        return Math.max(0, (int) Math.ceil(q * n) - 1);
    }
}
