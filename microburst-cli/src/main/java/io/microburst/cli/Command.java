package io.microburst.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

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
     * @param watch whether a change of the jar reloads the topology (upgraded, with its handover)
     */
    record Local(Optional<Duration> duration, Map<String, Object> confOverrides, Path jar, String mainClass,
                 List<String> mainArgs, boolean watch) implements Command {
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

    /**
     * {@code microburst server}: serve Storm's Nimbus Thrift service backed by Microburst until stopped.
     *
     * @param conf overrides of Storm's configuration (storm.yaml), including the server's own keys
     */
    record Server(Map<String, Object> conf) implements Command {
        public Server {
            conf = Map.copyOf(conf);
        }
    }

    /** What an {@link Admin} command asks of the server, as Storm's command of the same name. */
    enum AdminVerb { LIST, ACTIVATE, DEACTIVATE, REBALANCE, ROLLBACK }

    /**
     * {@code microburst list|activate|deactivate|rebalance} against a Nimbus (a {@code microburst server} or a
     * Storm cluster), found through {@code nimbus.seeds} and {@code nimbus.thrift.port}.
     *
     * @param conf client configuration overrides
     * @param topology the topology's name; empty for LIST
     * @param waitSecs Storm's wait_secs for REBALANCE; empty for the topology's message timeout
     * @param executors new executor counts per component, for REBALANCE
     * @param rebalance the rest of Storm's rebalance options ({@link RebalanceExtras#NONE} for the other verbs)
     */
    record Admin(AdminVerb verb, Map<String, Object> conf, String topology, OptionalInt waitSecs,
                 Map<String, Integer> executors, RebalanceExtras rebalance) implements Command {
        public Admin {
            conf = Map.copyOf(conf);
            executors = Map.copyOf(executors);
        }
    }

    /**
     * {@code microburst kill NAME...}, as Storm's {@code storm kill}: each topology killed in order with the same wait.
     *
     * @param conf client configuration overrides
     * @param topologies the names, in the order given (at least one)
     * @param waitSecs Storm's wait_secs; empty for each topology's message timeout
     * @param ignoreErrors {@code -i}: go on past an invalid name or a failed kill, and fail at the end
     */
    record Kill(Map<String, Object> conf, List<String> topologies, OptionalInt waitSecs, boolean ignoreErrors)
        implements Command {
        public Kill {
            conf = Map.copyOf(conf);
            topologies = List.copyOf(topologies);
        }
    }

    /**
     * Storm's rebalance options besides the wait and the executor counts.
     *
     * @param numWorkers {@code -n}: Storm's number of workers, passed on (a microburst server does not use it)
     * @param resources {@code -r}: resource overrides per component, as Storm's {@code topology_resources_overrides}
     * @param topologyConf {@code -t}: configuration overrides, as Storm's {@code topology_conf_overrides}
     */
    record RebalanceExtras(OptionalInt numWorkers, Map<String, Map<String, Double>> resources,
                           Map<String, Object> topologyConf) {
        public static final RebalanceExtras NONE = new RebalanceExtras(OptionalInt.empty(), Map.of(), Map.of());

        public RebalanceExtras {
            resources = Map.copyOf(resources);
            topologyConf = Map.copyOf(topologyConf);
        }
    }

    /**
     * {@code microburst monitor}: prints a component's throughput every interval, as {@code storm monitor} does.
     *
     * @param component the component to watch; empty to list the components, as Storm's
     * @param stream the stream counted
     * @param watch {@code emitted} or {@code transferred}
     * @param samples how many lines to print; empty for until interrupted
     */
    record Monitor(Map<String, Object> conf, String topology, Optional<String> component, String stream,
                   String watch, int intervalSecs, OptionalInt samples) implements Command {
        public Monitor {
            conf = Map.copyOf(conf);
        }
    }

    /**
     * {@code microburst submit}: runs a topology jar's main so that its {@code StormSubmitter} uploads and submits to the
     * configured Nimbus, as {@code storm jar} does.
     */
    record Submit(Map<String, Object> conf, Path jar, String mainClass, List<String> mainArgs) implements Command {
        public Submit {
            conf = Map.copyOf(conf);
            mainArgs = List.copyOf(mainArgs);
        }
    }

    /** What a {@link Blob} command does, as the {@code storm blobstore} action of the same name. */
    enum BlobAction { LIST, CAT, CREATE, UPDATE, DELETE, SET_ACL, READ_REPLICATION, UPDATE_REPLICATION }

    /**
     * {@code microburst blobstore ACTION}: one action on the blob store of the configured Nimbus, through storm-client's
     * {@code ClientBlobStore}, as {@code storm blobstore} does.
     *
     * @param keys the keys named (one, except for LIST, which may have none, and DELETE)
     * @param file the file to read (CREATE, UPDATE) or write (CAT); empty for stdin or stdout
     * @param acl access controls in Storm's text form ({@code u:alice:rwa}), already checked; empty for the default
     *     (CREATE) or for keeping the current list (SET_ACL)
     * @param replication the replication factor for CREATE (-1: the store's) and UPDATE_REPLICATION
     */
    record Blob(BlobAction action, Map<String, Object> conf, List<String> keys, Optional<Path> file, List<String> acl,
                int replication) implements Command {
        public Blob {
            conf = Map.copyOf(conf);
            keys = List.copyOf(keys);
            acl = List.copyOf(acl);
        }
    }

    /** A logger's new level for {@link SetLogLevel}; {@code timeoutSecs} 0 keeps it until changed. */
    record LevelChange(String level, int timeoutSecs) {
    }

    /**
     * {@code microburst set_log_level}: Storm's {@code setLogConfig} for a running topology.
     *
     * @param set loggers to set, by name ({@code ROOT} for the root logger)
     * @param remove loggers to put back to their level before the change
     */
    record SetLogLevel(Map<String, Object> conf, String topology, Map<String, LevelChange> set, List<String> remove)
        implements Command {
        public SetLogLevel {
            conf = Map.copyOf(conf);
            set = Map.copyOf(set);
            remove = List.copyOf(remove);
        }
    }

    /** {@code microburst get-errors}: each component's latest error, as JSON, as {@code storm get-errors}. */
    record GetErrors(Map<String, Object> conf, String topology) implements Command {
        public GetErrors {
            conf = Map.copyOf(conf);
        }
    }

    /**
     * {@code microburst localconfvalue|remoteconfvalue}: one configuration value, from this machine's Storm configuration
     * or from the configuration the Nimbus runs with.
     */
    record ConfValue(Map<String, Object> conf, String key, boolean remote) implements Command {
        public ConfValue {
            conf = Map.copyOf(conf);
        }
    }

    /** One DRPC call of {@link DrpcCalls}. */
    record DrpcCall(String function, String argument) {
    }

    /** {@code microburst drpc-client}: DRPC calls, in order, against the configured DRPC servers. */
    record DrpcCalls(Map<String, Object> conf, List<DrpcCall> calls) implements Command {
        public DrpcCalls {
            conf = Map.copyOf(conf);
            calls = List.copyOf(calls);
        }
    }
}
