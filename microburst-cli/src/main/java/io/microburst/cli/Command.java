package io.microburst.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One parsed invocation of the {@code microburst} command. Immutable. */
public sealed interface Command {

    /** {@code --help} of the command or of a subcommand, or {@code microburst help [SUBCOMMAND]}: print and exit 0. */
    record Help(String text) implements Command {
    }

    /** {@code --version}: print the versions and exit 0. */
    record Version(String text) implements Command {
    }

    /**
     * {@code microburst local}: run an unchanged topology jar whose main submits with {@code StormSubmitter}.
     *
     * @param duration how long to keep running after main returns; empty means until interrupted
     * @param confOverrides values merged over every submitted topology's configuration, already typed
     * @param jar the topology jar, as given (not checked for existence here)
     * @param mainClass the class whose {@code static void main(String[])} is called
     * @param mainArgs the arguments passed to that main, unchanged
     */
    record Local(Optional<Duration> duration, Map<String, Object> confOverrides, Path jar, String mainClass,
                 List<String> mainArgs) implements Command {
        public Local {
            confOverrides = Map.copyOf(confOverrides);
            mainArgs = List.copyOf(mainArgs);
        }
    }

    /**
     * {@code microburst demo}: run the built-in WordCount topology and show live rates.
     *
     * @param duration how long to run
     * @param parallelism executors for each of the split and count bolts
     */
    record Demo(Duration duration, int parallelism) implements Command {
    }

    /**
     * {@code microburst bench}: the benchmark harness, which lives in its own module; its arguments are its own.
     *
     * @param args the harness's arguments, unchanged
     */
    record Bench(List<String> args) implements Command {
        public Bench {
            args = List.copyOf(args);
        }
    }
}
