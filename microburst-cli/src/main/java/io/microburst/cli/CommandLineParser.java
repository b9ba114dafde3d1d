package io.microburst.cli;

import io.microburst.server.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Locale;
import org.apache.logging.log4j.Level;
import org.apache.storm.Config;
import org.apache.storm.blobstore.BlobStore;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.utils.Utils;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns the arguments of the {@code microburst} command into a {@link Command}, with picocli: every subcommand has
 * {@code --help} and {@code --version}, a mistyped option or subcommand gets suggestions. Pure: reads no files and no
 * environment, so every error is a {@link UsageException} with a message fit to show the user.
 *
 * <p>{@code --name value} and {@code --name=value} are both accepted and {@code --} ends the options. For
 * {@code local}, everything after {@code MAIN_CLASS} belongs to the topology's main, untouched.
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
        CommandLine root = commandLine();
        ParseResult result;
        try {
            result = root.parseArgs(args);
        } catch (ParameterException e) {
            throw usageError(e.getMessage(), e);
        }
        if (result.isVersionHelpRequested() || result.subcommand() != null && result.subcommand().isVersionHelpRequested()) {
            return new Command.Version(VersionText.full());
        }
        if (result.isUsageHelpRequested()) {
            return new Command.Help(root.getUsageMessage());
        }
        ParseResult sub = result.subcommand();
        if (sub == null) {
            throw new UsageException("missing subcommand", shortUsage(root), List.of());
        }
        while (sub.subcommand() != null) {
            // blobstore ACTION: the action is the command
            sub = sub.subcommand();
        }
        CommandLine subLine = sub.commandSpec().commandLine();
        if (sub.isUsageHelpRequested()) {
            return new Command.Help(subLine.getUsageMessage());
        }
        Object spec = subLine.getCommand();
        try {
            return toCommand(root, spec);
        } catch (UsageException e) {
            throw new UsageException(e.getMessage(), shortUsage(subLine), List.of());
        }
    }

    /**
     * What follows a usage error: the synopsis of the command concerned and where to read more, instead of its whole
     * help (git's style).
     */
    static String shortUsage(CommandLine line) {
        CommandLine.Help help = line.getHelp();
        return help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()) + "Run '"
            + line.getCommandSpec().qualifiedName() + " --help' for more." + System.lineSeparator();
    }

    /** The full usage text: every subcommand with a line saying what it does. */
    public static String usage() {
        return commandLine().getUsageMessage();
    }

    private static CommandLine commandLine() {
        CommandLine root = new CommandLine(new Specs.Root());
        root.setStopAtPositional(false);
        root.getSubcommands().get("local").setStopAtPositional(true);
        root.getSubcommands().get("submit").setStopAtPositional(true);
        root.getSubcommands().get("upgrade").setStopAtPositional(true);
        root.getSubcommands().get("bench").setUnmatchedOptionsArePositionalParams(true).setStopAtPositional(true);
        return root;
    }

    private static Command toCommand(CommandLine root, Object spec) throws UsageException {
        if (spec instanceof Specs.Local local) {
            return local(local);
        }
        if (spec instanceof Specs.Demo demo) {
            if (!demo.extra.isEmpty()) {
                throw new UsageException("demo takes no arguments, got '" + demo.extra.get(0) + "'");
            }
            return new Command.Demo(Duration.ofSeconds(positiveInt("--duration", demo.duration)),
                    positiveInt("--parallelism", demo.parallelism));
        }
        if (spec instanceof Specs.Bench bench) {
            return new Command.Bench(bench.args);
        }
        if (spec instanceof Specs.Server server) {
            Map<String, Object> conf = confMap(server.conf);
            if (server.dir != null) {
                conf.put(ServerConfig.DIR, server.dir);
            }
            if (server.port != null) {
                conf.put(Config.NIMBUS_THRIFT_PORT, port("--port", server.port));
            }
            if (server.uiPort != null) {
                conf.put(ServerConfig.UI_PORT, port("--ui-port", server.uiPort));
            }
            if (server.bind != null) {
                conf.put(ServerConfig.BIND, server.bind);
            }
            if (server.drpc) {
                conf.put(ServerConfig.DRPC, true);
            }
            return new Command.Server(conf);
        }
        if (spec instanceof Specs.Submit submit) {
            List<String> p = submit.positional;
            if (p.size() < 2) {
                throw new UsageException(p.isEmpty() ? "submit: missing APP.jar" : "submit: missing MAIN_CLASS after " + p.get(0));
            }
            return new Command.Submit(confMap(submit.conf), Path.of(p.get(0)), p.get(1), p.subList(2, p.size()));
        }
        if (spec instanceof Specs.ListTopologies list) {
            return AdminOptions.admin(Command.AdminVerb.LIST, list, null, null);
        }
        if (spec instanceof Specs.Kill kill) {
            return AdminOptions.kill(kill);
        }
        if (spec instanceof Specs.Activate activate) {
            return AdminOptions.admin(Command.AdminVerb.ACTIVATE, activate, activate.name, null);
        }
        if (spec instanceof Specs.Deactivate deactivate) {
            return AdminOptions.admin(Command.AdminVerb.DEACTIVATE, deactivate, deactivate.name, null);
        }
        if (spec instanceof Specs.Upgrade upgrade) {
            return AdminOptions.upgrade(upgrade);
        }
        if (spec instanceof Specs.Rebalance rebalance) {
            return AdminOptions.rebalance(rebalance);
        }
        if (spec instanceof Specs.Monitor monitor) {
            if (!monitor.watch.equals("emitted") && !monitor.watch.equals("transferred")) {
                throw new UsageException("--watch expects emitted or transferred, got '" + monitor.watch + "'");
            }
            return new Command.Monitor(confMap(monitor.conf), monitor.name, Optional.ofNullable(monitor.component),
                    monitor.stream, monitor.watch, positiveInt("--interval", monitor.interval), monitor.samples == null
                    ? OptionalInt.empty() : OptionalInt.of(positiveInt("--samples", monitor.samples)));
        }
        if (spec instanceof Specs.Blobstore) {
            throw new UsageException("blobstore: missing action (list, cat, create, update, delete, set-acl, replication)");
        }
        if (spec instanceof Specs.BlobList list) {
            return blob(Command.BlobAction.LIST, list, list.keys, null, List.of(), -1);
        }
        if (spec instanceof Specs.BlobCat cat) {
            return blob(Command.BlobAction.CAT, cat, List.of(cat.key), cat.file, List.of(), -1);
        }
        if (spec instanceof Specs.BlobCreate create) {
            int replication = create.replication == null ? -1 : positiveInt("--replication-factor", create.replication);
            try {
                BlobStore.validateKey(create.key);
            } catch (IllegalArgumentException e) {
                throw new UsageException("blobstore create: " + e.getMessage());
            }
            return blob(Command.BlobAction.CREATE, create, List.of(create.key), create.file, create.acl, replication);
        }
        if (spec instanceof Specs.BlobUpdate update) {
            return blob(Command.BlobAction.UPDATE, update, List.of(update.key), update.file, List.of(), -1);
        }
        if (spec instanceof Specs.BlobDelete delete) {
            return blob(Command.BlobAction.DELETE, delete, delete.keys, null, List.of(), -1);
        }
        if (spec instanceof Specs.BlobSetAcl setAcl) {
            return blob(Command.BlobAction.SET_ACL, setAcl, List.of(setAcl.key), null, setAcl.acl, -1);
        }
        if (spec instanceof Specs.BlobReplication replication) {
            return replication(replication);
        }
        if (spec instanceof Specs.SetLogLevel setLogLevel) {
            return setLogLevel(setLogLevel);
        }
        if (spec instanceof Specs.GetErrors getErrors) {
            return new Command.GetErrors(confMap(getErrors.conf), getErrors.name);
        }
        if (spec instanceof Specs.DrpcClient drpc) {
            return drpcCalls(drpc);
        }
        if (spec instanceof Specs.LocalConfValue local) {
            return new Command.ConfValue(confMap(local.conf), local.key, false);
        }
        if (spec instanceof Specs.RemoteConfValue remote) {
            return new Command.ConfValue(confMap(remote.conf), remote.key, true);
        }
        if (spec instanceof Specs.Version) {
            return new Command.Version(VersionText.full());
        }
        if (spec instanceof Specs.Help help) {
            if (help.subcommand == null) {
                return new Command.Help(root.getUsageMessage());
            }
            CommandLine sub = root.getSubcommands().get(help.subcommand);
            if (sub == null) {
                throw new UsageException("help: unknown subcommand '" + help.subcommand + "'");
            }
            return new Command.Help(sub.getUsageMessage());
        }
        throw new IllegalStateException("no handler for " + spec.getClass().getName());
    }

    private static Command.Blob blob(Command.BlobAction action, Specs.ClientConf client, List<String> keys,
                                     String file, List<String> aclOptions, int replication) throws UsageException {
        List<String> acl = new ArrayList<>();
        for (String option : aclOptions) {
            for (String part : option.split(",")) {
                try {
                    BlobStoreAclHandler.parseAccessControl(part.trim());
                } catch (RuntimeException e) {
                    throw new UsageException("blobstore: bad access control '" + part + "' (expected u:USER:rwa, "
                        + "o::rwa or the like): " + e.getMessage());
                }
                acl.add(part.trim());
            }
        }
        return new Command.Blob(action, confMap(client.conf), keys, Optional.ofNullable(file).map(Path::of), acl,
            replication);
    }

    private static Command.Blob replication(Specs.BlobReplication spec) throws UsageException {
        if (spec.read == spec.update) {
            throw new UsageException("blobstore replication: give exactly one of --read and --update");
        }
        if (spec.key == null) {
            throw new UsageException("blobstore replication: missing KEY");
        }
        if (spec.read) {
            if (spec.replication != null) {
                throw new UsageException("blobstore replication: --replication-factor goes with --update, not --read");
            }
            return blob(Command.BlobAction.READ_REPLICATION, spec, List.of(spec.key), null, List.of(), -1);
        }
        if (spec.replication == null) {
            throw new UsageException("blobstore replication --update: missing --replication-factor N");
        }
        return blob(Command.BlobAction.UPDATE_REPLICATION, spec, List.of(spec.key), null, List.of(),
            positiveInt("--replication-factor", spec.replication));
    }

    private static Command.SetLogLevel setLogLevel(Specs.SetLogLevel spec) throws UsageException {
        try {
            Utils.validateTopologyName(spec.name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("set_log_level: " + e.getMessage());
        }
        if (spec.set.isEmpty() && spec.remove.isEmpty()) {
            throw new UsageException("set_log_level: nothing to do: give -l LOGGER=LEVEL[:SECONDS] or -r LOGGER");
        }
        Map<String, Command.LevelChange> set = new LinkedHashMap<>();
        for (String setting : spec.set) {
            String[] nameAndLevel = setting.split("=");
            if (nameAndLevel.length != 2 || nameAndLevel[0].isBlank()) {
                throw new UsageException("--log-setting expects LOGGER=LEVEL[:SECONDS], got '" + setting + "'");
            }
            String[] levelAndTimeout = nameAndLevel[1].split(":");
            Level level = levelAndTimeout.length > 2 ? null : Level.getLevel(levelAndTimeout[0].toUpperCase(Locale.ROOT));
            if (level == null) {
                throw new UsageException("--log-setting " + nameAndLevel[0] + ": unknown level '" + nameAndLevel[1]
                    + "' (expected one of OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL, then :SECONDS if wanted)");
            }
            int timeout = levelAndTimeout.length == 2
                ? nonNegativeInt("--log-setting " + nameAndLevel[0] + " timeout", levelAndTimeout[1]) : 0;
            set.put(nameAndLevel[0], new Command.LevelChange(level.name(), timeout));
        }
        for (String logger : spec.remove) {
            if (logger.isBlank()) {
                throw new UsageException("--remove-log-setting expects a logger name");
            }
        }
        return new Command.SetLogLevel(confMap(spec.conf), spec.name, set, spec.remove);
    }

    private static Command.DrpcCalls drpcCalls(Specs.DrpcClient spec) throws UsageException {
        List<Command.DrpcCall> calls = new ArrayList<>();
        if (spec.function != null) {
            spec.args.forEach(arg -> calls.add(new Command.DrpcCall(spec.function, arg)));
        } else {
            if (spec.args.size() % 2 != 0) {
                throw new UsageException("drpc-client: without -f the arguments are FUNCTION ARG pairs; got "
                    + spec.args.size() + " arguments");
            }
            for (int i = 0; i < spec.args.size(); i += 2) {
                calls.add(new Command.DrpcCall(spec.args.get(i), spec.args.get(i + 1)));
            }
        }
        return new Command.DrpcCalls(confMap(spec.conf), calls);
    }

    private static int nonNegativeInt(String option, String value) throws UsageException {
        return "0".equals(value.trim()) ? 0 : positiveInt(option, value);
    }

    private static int port(String option, String value) throws UsageException {
        int port = "0".equals(value.trim()) ? 0 : positiveInt(option, value);
        if (port > 65535) {
            throw new UsageException(option + " expects a port between 0 and 65535, got '" + value + "'");
        }
        return port;
    }

    private static Command.Local local(Specs.Local local) throws UsageException {
        Optional<Duration> duration = local.duration == null ? Optional.empty()
                : Optional.of(Duration.ofSeconds(positiveInt("--duration", local.duration)));
        if (local.positional.isEmpty()) {
            throw new UsageException("local: missing APP.jar");
        }
        if (local.positional.size() == 1) {
            throw new UsageException("local: missing MAIN_CLASS after " + local.positional.get(0));
        }
        return new Command.Local(duration, confMap(local.conf), Path.of(local.positional.get(0)),
                local.positional.get(1), local.positional.subList(2, local.positional.size()), local.watch);
    }

    /** {@code key=value} assignments, later ones winning, values typed by {@link ConfValueParser}. */
    public static Map<String, Object> confMap(List<String> assignments) throws UsageException {
        Map<String, Object> conf = new LinkedHashMap<>();
        for (String assignment : assignments) {
            int equals = assignment.indexOf('=');
            String key = equals <= 0 ? "" : assignment.substring(0, equals).trim();
            if (key.isEmpty()) {
                throw new UsageException("--conf expects key=value, got '" + assignment + "'");
            }
            try {
                conf.put(key, ConfValueParser.parse(assignment.substring(equals + 1)));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--conf " + key + ": " + e.getMessage());
            }
        }
        return conf;
    }

    /** A positive whole number, or a usage error naming the option. */
    public static int positiveInt(String option, String value) throws UsageException {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the option's name
        }
        throw new UsageException(option + " expects a positive whole number, got '" + value + "'");
    }

    private static UsageException usageError(String message, ParameterException e) {
        List<String> suggestions = e instanceof UnmatchedArgumentException unmatched
                ? Suggestions.of(unmatched) : List.of();
        return new UsageException(message, shortUsage(e.getCommandLine()), suggestions);
    }
}
