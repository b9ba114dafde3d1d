package io.microburst.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the arguments of the {@code microburst} command into a {@link Command}. Pure: reads no files and no
 * environment, so every error is a {@link UsageException} with a message fit to show the user.
 *
 * <p>Options come before the positional arguments; {@code --name value} and {@code --name=value} are both accepted,
 * and {@code --} ends the options. Everything after {@code MAIN_CLASS} belongs to the topology's main, untouched.
 */
public final class CommandLineParser {
    /** Seconds the demo runs when {@code --duration} is not given. */
    public static final int DEFAULT_DEMO_SECONDS = 15;
    /** Parallelism of the demo's bolts when {@code --parallelism} is not given. */
    public static final int DEFAULT_DEMO_PARALLELISM = 1;

    private CommandLineParser() {
    }

    /** Parses the full argument list, subcommand first. */
    public static Command parse(String... args) throws UsageException {
        if (args.length == 0) {
            throw new UsageException("missing subcommand");
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "help", "-h", "--help":
                return new Command.Help();
            case "local":
                return parseLocal(new Options(rest));
            case "demo":
                return parseDemo(new Options(rest));
            default:
                throw new UsageException("unknown subcommand '" + args[0] + "'");
        }
    }

    private static Command.Local parseLocal(Options options) throws UsageException {
        Optional<Duration> duration = Optional.empty();
        Map<String, Object> conf = new LinkedHashMap<>();
        for (Option option = options.next(); option != null; option = options.next()) {
            switch (option.name()) {
                case "--duration" -> duration = Optional.of(Duration.ofSeconds(positiveInt(option)));
                case "--conf" -> putConf(conf, option.value());
                default -> throw new UsageException("unknown option '" + option.name() + "' for local");
            }
        }
        List<String> positional = options.remaining();
        if (positional.isEmpty()) {
            throw new UsageException("local: missing APP.jar");
        }
        if (positional.size() == 1) {
            throw new UsageException("local: missing MAIN_CLASS after " + positional.get(0));
        }
        return new Command.Local(duration, conf, Path.of(positional.get(0)), positional.get(1),
                positional.subList(2, positional.size()));
    }

    private static Command.Demo parseDemo(Options options) throws UsageException {
        int seconds = DEFAULT_DEMO_SECONDS;
        int parallelism = DEFAULT_DEMO_PARALLELISM;
        for (Option option = options.next(); option != null; option = options.next()) {
            switch (option.name()) {
                case "--duration" -> seconds = positiveInt(option);
                case "--parallelism" -> parallelism = positiveInt(option);
                default -> throw new UsageException("unknown option '" + option.name() + "' for demo");
            }
        }
        if (!options.remaining().isEmpty()) {
            throw new UsageException("demo takes no arguments, got '" + options.remaining().get(0) + "'");
        }
        return new Command.Demo(Duration.ofSeconds(seconds), parallelism);
    }

    private static void putConf(Map<String, Object> conf, String assignment) throws UsageException {
        int equals = assignment.indexOf('=');
        if (equals <= 0) {
            throw new UsageException("--conf expects key=value, got '" + assignment + "'");
        }
        String key = assignment.substring(0, equals).trim();
        if (key.isEmpty()) {
            throw new UsageException("--conf expects key=value, got '" + assignment + "'");
        }
        conf.put(key, ConfValueParser.parse(assignment.substring(equals + 1)));
    }

    private static int positiveInt(Option option) throws UsageException {
        try {
            int value = Integer.parseInt(option.value().trim());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the option's name
        }
        throw new UsageException(option.name() + " expects a positive whole number, got '" + option.value() + "'");
    }

    /** An option and its value. */
    private record Option(String name, String value) {
    }

    /** Walks the arguments of one subcommand: options first, then the positional remainder. */
    private static final class Options {
        private final List<String> args;
        private int position;

        Options(List<String> args) {
            this.args = args;
        }

        /** Returns the next option, or null once the options end (first non-option, or after {@code --}). */
        Option next() throws UsageException {
            if (position >= args.size()) {
                return null;
            }
            String arg = args.get(position);
            if (arg.equals("--")) {
                position++;
                return null;
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                return null;
            }
            position++;
            int equals = arg.indexOf('=');
            if (equals > 0) {
                return new Option(arg.substring(0, equals), arg.substring(equals + 1));
            }
            if (position >= args.size()) {
                throw new UsageException(arg + " expects a value");
            }
            return new Option(arg, args.get(position++));
        }

        List<String> remaining() {
            return args.subList(position, args.size());
        }
    }
}
