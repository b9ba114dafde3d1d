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
            subcommands = {Local.class, Demo.class, Bench.class, Server.class, Submit.class, Upgrade.class, ListTopologies.class,
                Kill.class, Activate.class, Deactivate.class, Rebalance.class, Monitor.class, Blobstore.class,
                SetLogLevel.class, GetErrors.class, DrpcClient.class, LocalConfValue.class, RemoteConfValue.class,
                Version.class, Help.class},
            footer = {"", "Run 'microburst VERB --help' for a verb's options.",
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

        @Option(names = "--watch",
                description = "Reload when APP.jar changes: MAIN_CLASS's main runs again from the new jar and upgrades "
                        + "the running topology with nothing lost (as 'microburst upgrade'); a new jar that fails or is "
                        + "refused leaves the running version as it is.")
        boolean watch;

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

    /** The {@code -c KEY=VALUE} option every command that talks to Nimbus shares. */
    static class ClientConf {
        @Option(names = {"-c", "--conf"}, paramLabel = "KEY=VALUE",
                description = {"Override a Storm configuration value (JSON or a bare string), e.g. "
                        + "-c nimbus.seeds='[\"127.0.0.1\"]' -c nimbus.thrift.port=6627. Repeatable."})
        List<String> conf = new ArrayList<>();
    }

    @Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Serve Storm's Nimbus Thrift service backed by Microburst, until stopped (Ctrl-C or SIGTERM). "
                    + "StormSubmitter, NimbusClient and the storm command work against it unchanged. Topologies are "
                    + "stored in the data folder and come back in their last status when the server starts again."})
    static final class Server extends ClientConf {
        @Option(names = "--dir", paramLabel = "DIR",
                description = "Data folder (default: ./microburst-data; key microburst.server.dir).")
        String dir;

        @Option(names = "--port", paramLabel = "PORT", description = "Thrift port (default 6627; key nimbus.thrift.port).")
        String port;

        @Option(names = "--ui-port", paramLabel = "PORT",
                description = "Port of the web pages, Storm UI REST API and /metrics (default 8080; key ui.port).")
        String uiPort;

        @Option(names = "--bind", paramLabel = "ADDRESS",
                description = "Listen address (default 127.0.0.1; any other requires authentication).")
        String bind;

        @Option(names = "--drpc",
                description = "Also serve DRPC, as Storm's DRPC daemon: calls on drpc.port (3772), topologies' "
                        + "DRPCSpouts on drpc.invocations.port (3773), HTTP /drpc/FUNCTION/ARGS on drpc.http.port "
                        + "(3774, 127.0.0.1 only); requests time out after drpc.request.timeout.secs (600). "
                        + "Key microburst.server.drpc.")
        boolean drpc;
    }

    @Command(name = "submit", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Run a topology jar's main so that StormSubmitter uploads and submits it to the configured "
                    + "Nimbus (a microburst server), as 'storm jar' does."})
    static final class Submit extends ClientConf {
        @Parameters(paramLabel = "APP.jar MAIN_CLASS [ARGS]", arity = "0..*",
                description = "The topology jar, its main class and the main's arguments.")
        List<String> positional = new ArrayList<>();
    }

    @Command(name = "upgrade", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Upgrade a running topology to a new jar with nothing lost: the jar's main submits as "
                    + "usual, and the server takes its topology of that name as the new version (checked first; the "
                    + "old version's tuples in flight finish, its state is handed over). With --rollback, return to "
                    + "the previous version. Options come before NAME; what follows MAIN_CLASS is the main's."})
    static final class Upgrade extends ClientConf {
        @Option(names = {"-w", "--wait"}, paramLabel = "SECONDS",
                description = "Seconds the old version's tuples in flight may take; then they fail back to the "
                        + "spouts for replay (default: the topology's message timeout).")
        String waitSecs;
        @Option(names = "--rename", paramLabel = "OLD=NEW",
                description = "The new version's id of a renamed stateful component, whose state it carries. Repeatable.")
        List<String> renames = new ArrayList<>();
        @Option(names = "--drop-state", paramLabel = "COMPONENT",
                description = "Start COMPONENT's state empty (needed when its state type changed). Repeatable.")
        List<String> dropState = new ArrayList<>();
        @Option(names = "--rollback", description = "Return NAME to the version before its last upgrade.")
        boolean rollback;
        @Parameters(paramLabel = "NAME [APP.jar MAIN_CLASS [ARGS]]", arity = "0..*",
                description = "The running topology's name, then the new version's jar, main class and arguments.")
        List<String> positional = new ArrayList<>();
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the topologies of a server.")
    static final class ListTopologies extends ClientConf {
    }

    /** A command about one topology. */
    static class OneTopology extends ClientConf {
        @Parameters(paramLabel = "NAME", index = "0", description = "The topology's name.")
        String name;
    }

    @Command(name = "kill", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Kill topologies, as 'storm kill': spouts deactivated, work in flight finishing for the "
                    + "wait, then stopped. Several names are killed in order; the first that fails stops the rest "
                    + "unless -i is given."})
    static final class Kill extends ClientConf {
        @Option(names = {"-w", "--wait"}, paramLabel = "SECONDS",
                description = "Seconds between deactivation and the stop (default: the topology's message timeout).")
        String waitSecs;

        @Option(names = {"-i", "--ignore-errors"},
                description = "Go on past a name that is invalid or fails to be killed; exit 1 at the end if any did.")
        boolean ignoreErrors;

        @Parameters(paramLabel = "NAME", arity = "1..*", description = "The topologies' names.")
        List<String> names = new ArrayList<>();
    }

    @Command(name = "activate", mixinStandardHelpOptions = true, description = "Activate a topology's spouts.")
    static final class Activate extends OneTopology {
    }

    @Command(name = "deactivate", mixinStandardHelpOptions = true, description = "Deactivate a topology's spouts.")
    static final class Deactivate extends OneTopology {
    }

    @Command(name = "rebalance", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Change how many executors a topology's components have, as 'storm rebalance': spouts "
                    + "deactivated for the wait, then the new executors started."})
    static final class Rebalance extends OneTopology {
        @Option(names = {"-w", "--wait"}, paramLabel = "SECONDS",
                description = "Seconds with the spouts deactivated before the change (default: the message timeout).")
        String waitSecs;

        @Option(names = {"-n", "--num-workers"}, paramLabel = "N",
                description = {"Storm's number of workers, sent as Storm sends it; a microburst server runs a "
                        + "topology in one process and does not use it (executor counts, -e, are what changes)."})
        String numWorkers;

        @Option(names = {"-e", "--executor"}, paramLabel = "COMPONENT=N",
                description = "New executor count of a component. Repeatable.")
        List<String> executors = new ArrayList<>();

        @Option(names = {"-r", "--resources"}, paramLabel = "JSON",
                description = {"Resource overrides per component, as Storm's: "
                        + "'{\"split\": {\"topology.component.resources.onheap.memory.mb\": 256}}'. Repeatable."})
        List<String> resources = new ArrayList<>();

        @Option(names = {"-t", "--topology-conf"}, paramLabel = "JSON",
                description = "Topology configuration overrides, a JSON map, as Storm's. Repeatable.")
        List<String> topologyConf = new ArrayList<>();
    }

    @Command(name = "monitor", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Print a component's throughput every interval, with the columns of 'storm monitor': "
                    + "topology, component, parallelism, stream, time-diff ms, tuples emitted (or transferred), "
                    + "throughput (Kt/s). Without -m, lists the components, as Storm's."})
    static final class Monitor extends OneTopology {
        @Option(names = {"-m", "--component"}, paramLabel = "COMPONENT", description = "The component to watch.")
        String component;

        @Option(names = {"-s", "--stream"}, paramLabel = "STREAM", description = "Stream counted (default: default).")
        String stream = "default";

        @Option(names = {"-i", "--interval"}, paramLabel = "SECONDS", description = "Seconds between lines (default 4).")
        String interval = "4";

        @Option(names = {"-w", "--watch"}, paramLabel = "emitted|transferred",
                description = "What is counted: tuples emitted or transferred (default: emitted).")
        String watch = "emitted";

        @Option(names = "--samples", paramLabel = "N",
                description = "Stop after N lines (default: never, as Storm's; not an option of Storm's).")
        String samples;
    }

    @Command(name = "blobstore", mixinStandardHelpOptions = true,
            description = {"Work with the blob store of a server (or of a Storm cluster), as 'storm blobstore'."},
            subcommands = {BlobList.class, BlobCat.class, BlobCreate.class, BlobUpdate.class, BlobDelete.class,
                BlobSetAcl.class, BlobReplication.class})
    static final class Blobstore {
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Print KEY VERSION [ACL] for the named blobs, or for every blob.")
    static final class BlobList extends ClientConf {
        @Parameters(paramLabel = "KEY", arity = "0..*", description = "Blobs to describe (default: all).")
        List<String> keys = new ArrayList<>();
    }

    @Command(name = "cat", mixinStandardHelpOptions = true, description = "Write a blob's content to stdout or a file.")
    static final class BlobCat extends ClientConf {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Write to FILE instead of stdout.")
        String file;

        @Parameters(paramLabel = "KEY", index = "0", description = "The blob's key.")
        String key;
    }

    @Command(name = "create", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Create a blob from a file or from stdin.")
    static final class BlobCreate extends ClientConf {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the content from FILE (default: stdin).")
        String file;

        @Option(names = {"-a", "--acl"}, paramLabel = "ACL",
                description = "Access control list, comma-separated, e.g. u:alice:rwa,o::r. Repeatable.")
        List<String> acl = new ArrayList<>();

        @Option(names = {"-r", "--replication-factor"}, paramLabel = "N",
                description = "Replication factor (default: the store's).")
        String replication;

        @Parameters(paramLabel = "KEY", index = "0", description = "The new blob's key.")
        String key;
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Replace a blob's content with a file's or stdin's, as a new version.")
    static final class BlobUpdate extends ClientConf {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the content from FILE (default: stdin).")
        String file;

        @Parameters(paramLabel = "KEY", index = "0", description = "The blob's key.")
        String key;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete blobs.")
    static final class BlobDelete extends ClientConf {
        @Parameters(paramLabel = "KEY", arity = "1..*", description = "The blobs' keys.")
        List<String> keys = new ArrayList<>();
    }

    @Command(name = "set-acl", mixinStandardHelpOptions = true, description = "Set a blob's access control list.")
    static final class BlobSetAcl extends ClientConf {
        @Option(names = {"-s", "--set"}, paramLabel = "ACL",
                description = "The new list, comma-separated, e.g. u:alice:rwa,o::r (default: keep the current one).")
        List<String> acl = new ArrayList<>();

        @Parameters(paramLabel = "KEY", index = "0", description = "The blob's key.")
        String key;
    }

    @Command(name = "replication", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Read a blob's replication factor (--read KEY) or change it (--update -r N KEY)."})
    static final class BlobReplication extends ClientConf {
        @Option(names = "--read", description = "Print the replication factor.")
        boolean read;

        @Option(names = "--update", description = "Change the replication factor to -r N.")
        boolean update;

        @Option(names = {"-r", "--replication-factor"}, paramLabel = "N", description = "The new factor, with --update.")
        String replication;

        @Parameters(paramLabel = "KEY", arity = "0..1", description = "The blob's key.")
        String key;
    }

    @Command(name = "set_log_level", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Change log levels while a topology runs, as 'storm set_log_level'. On a microburst server "
                    + "every topology shares one process, so a level applies to that logger server-wide."})
    static final class SetLogLevel extends OneTopology {
        @Option(names = {"-l", "--log-setting"}, paramLabel = "LOGGER=LEVEL[:SECONDS]",
                description = {"Set LOGGER (ROOT for the root logger) to LEVEL, for SECONDS if given (then back to "
                        + "its previous level). Repeatable."})
        List<String> set = new ArrayList<>();

        @Option(names = {"-r", "--remove-log-setting"}, paramLabel = "LOGGER",
                description = "Put LOGGER back to its level before the change. Repeatable.")
        List<String> remove = new ArrayList<>();
    }

    @Command(name = "get-errors", mixinStandardHelpOptions = true,
            description = {"Print, as JSON, the latest error of each component of a topology, as 'storm get-errors'."})
    static final class GetErrors extends OneTopology {
    }

    @Command(name = "drpc-client", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Call DRPC functions on the servers drpc.servers and drpc.port name, as 'storm drpc-client', "
                    + "and print FUNCTION \"ARG\" => \"RESULT\" per call: a 'microburst server --drpc' or a Storm "
                    + "cluster's DRPC servers."})
    static final class DrpcClient extends ClientConf {
        @Option(names = {"-f", "--function"}, paramLabel = "FUNCTION",
                description = "Call FUNCTION once per argument (default: arguments are FUNCTION ARG pairs).")
        String function;

        @Parameters(paramLabel = "ARGS", arity = "1..*", description = "FUNCTION ARG pairs, or ARGs with -f.")
        List<String> args = new ArrayList<>();
    }

    @Command(name = "localconfvalue", mixinStandardHelpOptions = true,
            description = {"Print KEY: VALUE from this machine's Storm configuration (defaults.yaml, storm.yaml, -c), "
                    + "as 'storm localconfvalue'."})
    static final class LocalConfValue extends ClientConf {
        @Parameters(paramLabel = "KEY", index = "0", description = "The configuration key.")
        String key;
    }

    @Command(name = "remoteconfvalue", mixinStandardHelpOptions = true,
            description = {"Print KEY: VALUE from the configuration the server (Nimbus) runs with, as "
                    + "'storm remoteconfvalue' prints the cluster's."})
    static final class RemoteConfValue extends ClientConf {
        @Parameters(paramLabel = "KEY", index = "0", description = "The configuration key.")
        String key;
    }

    @Command(name = "version", mixinStandardHelpOptions = true, description = {"Print the Storm API version, as 'storm version', then Microburst's."})
    static final class Version {
    }

    @Command(name = "help", description = "Print the usage of the command or of one subcommand.")
    static final class Help {
        @Parameters(paramLabel = "SUBCOMMAND", arity = "0..1", description = "The subcommand to describe.")
        String subcommand;
    }
}
