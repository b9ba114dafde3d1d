package io.microburst.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The picocli declarations of the {@code microburst} command: options and parameters as text, which
 * {@link CommandLineParser} checks and turns into a {@link io.microburst.cli.Command}. Values stay strings here so that
 * every error names the option and the value the user typed.
 */
final class Specs {
    private Specs() {
    }

    @Command(name = "microburst", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Runs unchanged Apache Storm topologies on one multi-core machine.",
            subcommands = {Local.class, Demo.class, Bench.class, Help.class},
            footer = {"", "Run 'microburst SUBCOMMAND --help' for a subcommand's options.",
                    "Environment: JAVA_OPTS is passed to the JVM by the launcher script."})
    static final class Root {
    }

    @Command(name = "local", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Run an unchanged Storm topology jar in this process. MAIN_CLASS's main submits with "
                    + "StormSubmitter as it would to a cluster. Runs until SECONDS after main returns, or until Ctrl-C; "
                    + "then every topology is killed gracefully. Exits 1 if a topology stopped by itself."},
            footer = {"", "Options come before APP.jar; every argument after MAIN_CLASS goes to its main."})
    static final class Local {
        @Option(names = "--duration", paramLabel = "SECONDS",
                description = "Keep running this long after main returns (default: until Ctrl-C).")
        String duration;

        @Option(names = {"-c", "--conf"}, paramLabel = "KEY=VALUE",
                description = {"Override a topology configuration value, as Storm's 'storm -c': JSON (lists, maps, "
                        + "numbers, booleans, quoted strings) or a bare string. Repeatable."})
        List<String> conf = new ArrayList<>();

        @Parameters(paramLabel = "APP.jar MAIN_CLASS [ARGS]", arity = "0..*",
                description = "The topology jar, its main class and the main's arguments.")
        List<String> positional = new ArrayList<>();
    }

    @Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Run a built-in WordCount topology showing live rates and a summary.")
    static final class Demo {
        @Option(names = "--duration", paramLabel = "SECONDS", description = "How long to run (default: ${DEFAULT-VALUE}).")
        String duration = Integer.toString(CommandLineParser.DEFAULT_DEMO_SECONDS);

        @Option(names = "--parallelism", paramLabel = "N",
                description = "Executors of each bolt (default: ${DEFAULT-VALUE}).")
        String parallelism = Integer.toString(CommandLineParser.DEFAULT_DEMO_PARALLELISM);

        @Parameters(arity = "0..*", hidden = true)
        List<String> extra = new ArrayList<>();
    }

    @Command(name = "bench", mixinStandardHelpOptions = false,
            description = {"Run the benchmark harness side by side with Apache Storm (module microburst-bench); "
                    + "'microburst bench --help' lists its options."})
    static final class Bench {
        @Parameters(paramLabel = "ARGS", arity = "0..*", description = "The harness's own options.")
        List<String> args = new ArrayList<>();
    }

    @Command(name = "help", description = "Print the usage of the command or of one subcommand.")
    static final class Help {
        @Parameters(paramLabel = "SUBCOMMAND", arity = "0..1", description = "The subcommand to describe.")
        String subcommand;
    }
}
