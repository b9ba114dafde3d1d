package io.microburst.bench.workload;

import io.microburst.MicroburstConfig;

/**
 * Microburst-only variants of a workload: the same topology with one Microburst setting changed (fusion off, placement
 * static, cuts at a lower gain). Storm ignores these keys, so each variant names the workload whose Storm figures it is
 * compared with.
 *
 * <p>Stateless; any thread.
 */
final class WorkloadVariants {
    /**
     * The least gain of a cut in the {@code -eager} variants ({@code microburst.placement.min.gain}): any cut that
     * does not lose even if its samples are off, so the variant shows what a cut the default declines would give.
     */
    static final double EAGER_MIN_GAIN = 1.0;
    /** The least gain of a cut in the {@code -fused} variants: more than any cut of two threads can promise. */
    static final double ONE_LAYOUT_MIN_GAIN = 1000;

    private WorkloadVariants() {
    }

    /**
     * The same topology with Microburst's operator fusion turned off ({@code microburst.fusion=false}), so every bolt runs
     * on its own thread behind a queue, as in Storm. Storm ignores the key, so it does not run the variant again: the
     * ratios use its figures for the fused twin.
     */
    static Workload unfused(Workload fused) {
        return fused.toBuilder(fused.name() + "-unfused")
            .description(fused.description() + "; Microburst fusion off")
            .config(MicroburstConfig.FUSION, false)
            .stormTwin(fused.name())
            .build();
    }

    /**
     * The same workload with Microburst's placement fixed ({@code microburst.placement=static}, the layout from the
     * topology's shape alone). Storm ignores the key, so it does not run the variant again: the ratios use its figures for
     * the twin.
     */
    static Workload staticPlacement(Workload auto) {
        Workload.Builder b = auto.toBuilder(auto.name() + WorkloadCatalog.STATIC_SUFFIX)
            .description(auto.description().replace("microburst.placement=auto", "microburst.placement=static"))
            .config(WorkloadCatalog.PLACEMENT, "static")
            .stormTwin(auto.name());
        if (!auto.family().equals(auto.name())) {
            b.family(auto.family() + WorkloadCatalog.STATIC_SUFFIX, auto.parallelism());
        }
        return b.build();
    }

    /**
     * The workload with cost-based placement cutting at a lower expected gain ({@link #EAGER_MIN_GAIN} instead of 1.2),
     * to measure whether the cuts the default declines would have paid. Microburst only.
     */
    static Workload eagerPlacement(Workload auto) {
        return auto.toBuilder(auto.name() + "-eager")
            .description(auto.description() + ", microburst.placement.min.gain=" + EAGER_MIN_GAIN)
            .config(MicroburstConfig.PLACEMENT_MIN_GAIN, EAGER_MIN_GAIN)
            .stormTwin(auto.name())
            .build();
    }

    /**
     * The workload on the threads fusion gives it, never cut: cost-based placement with a least gain no cut promises
     * ({@link #ONE_LAYOUT_MIN_GAIN}). WordCount p=1 is now cut at count whenever a core is free for it, and its p=2
     * target is set against p=1 on one core: this twin keeps that figure in the suite. Microburst only.
     */
    static Workload fusedPlacement(Workload auto) {
        return auto.toBuilder(auto.name() + "-fused")
            .description(auto.description() + ", never cut (microburst.placement.min.gain=" + ONE_LAYOUT_MIN_GAIN + ")")
            .config(MicroburstConfig.PLACEMENT_MIN_GAIN, ONE_LAYOUT_MIN_GAIN)
            .stormTwin(auto.name())
            .build();
    }
}
