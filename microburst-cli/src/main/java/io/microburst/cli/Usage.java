package io.microburst.cli;

/** The usage text of the {@code microburst} command. */
public final class Usage {
    /** Printed by {@code microburst help} and after every usage error. */
    public static final String TEXT = String.join(System.lineSeparator(),
            "Usage:",
            "  microburst local [--duration SECONDS] [--conf key=value]... APP.jar MAIN_CLASS [args...]",
            "      Run an unchanged Storm topology jar in this process. MAIN_CLASS's main submits with",
            "      StormSubmitter as it would to a cluster. Runs until SECONDS after main returns, or until",
            "      Ctrl-C; then every topology is killed gracefully. --conf values (int, long, double,",
            "      boolean or string) override the submitted topology configuration.",
            "  microburst demo [--duration SECONDS] [--parallelism N]",
            "      Run a built-in WordCount topology (default " + CommandLineParser.DEFAULT_DEMO_SECONDS
                    + " s, parallelism 1) showing live rates and a summary.",
            "  microburst bench [args...]",
            "      Run the benchmark harness (microburst-bench).",
            "  microburst help",
            "      Print this text.",
            "Options come before APP.jar. Environment: JAVA_OPTS is passed to the JVM.");

    private Usage() {
    }
}
