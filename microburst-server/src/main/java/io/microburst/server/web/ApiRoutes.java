package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.util.Fields;

/**
 * The paths of Storm's UI REST API v1 (and Microburst's {@code topology/ID/runtime}), each mapped to the endpoint
 * family that answers it: {@link ClusterApi}, {@link TopologyApi}, {@link ComponentApi}, {@link StreamMetricsApi},
 * {@link Visualization}, {@link TopologyActions}, {@link ProfilingApi}, {@link RuntimeApi}. A path it does not know
 * answers null, for the caller's 404. Thread-safe: the families are.
 */
final class ApiRoutes {
    private static final String ID = "([^/]+)";
    private static final String TOPOLOGY = "/api/v1/topology/" + ID;
    /** Storm's profiling operations are GETs that act: they need the token as POSTs do. */
    private static final Pattern PROFILING = Pattern.compile(TOPOLOGY + "/profiling/(start|stop|dumpprofile|dumpjstack"
        + "|dumpheap|restartworker)/" + ID + "(?:/" + ID + ")?");
    private static final Pattern OWNER = Pattern.compile("/api/v1/owner-resources/" + ID);
    private static final Pattern WORKERS = Pattern.compile("/api/v1/topology-workers/" + ID);
    private static final Pattern COMPONENT = Pattern.compile(TOPOLOGY + "/component/" + ID);
    private static final Pattern SUBPAGE = Pattern.compile(TOPOLOGY
        + "/(metrics|lag|visualization-init|visualization|runtime|logconfig)");
    private static final Pattern PAGE = Pattern.compile(TOPOLOGY);
    private static final Pattern ACTION = Pattern.compile(TOPOLOGY + "/(activate|deactivate|logconfig)");
    private static final Pattern WAITED = Pattern.compile(TOPOLOGY + "/(kill|rebalance)/" + ID);
    private static final Pattern DEBUG = Pattern.compile(TOPOLOGY + "(?:/component/" + ID + ")?/debug/" + ID + "/" + ID);

    private final ClusterApi cluster;
    private final TopologyApi topologies;
    private final ComponentApi components;
    private final StreamMetricsApi streams;
    private final Visualization visualization;
    private final TopologyActions actions;
    private final ProfilingApi profiling;
    private final RuntimeApi runtime;

    /**
     * @param artifacts the folder the logviewer serves ({@code ID/PORT/worker.log}), where dumps are written
     * @param debug the server's debug sampling, which Nimbus' {@code debug} shares
     */
    ApiRoutes(org.apache.storm.generated.Nimbus.Iface nimbus, MicroburstCluster microburst, Path artifacts,
              DebugSampling debug) {
        MachineResources machine = new MachineResources();
        Profiler profiler = debug.profiler();
        ConfViews confs = new ConfViews(nimbus);
        this.cluster = new ClusterApi(nimbus, machine, confs);
        this.topologies = new TopologyApi(nimbus, machine, debug, confs, new EmittedTotals(microburst),
            microburst.getUpgradeHistory());
        this.components = new ComponentApi(nimbus, debug, profiler, confs);
        this.streams = new StreamMetricsApi(nimbus);
        this.visualization = new Visualization(nimbus);
        this.actions = new TopologyActions(nimbus);
        this.profiling = new ProfilingApi(nimbus, profiler);
        this.runtime = new RuntimeApi(microburst);
    }

    /** Whether a GET changes state (Storm's profiling operations), so that it needs the token. */
    static boolean acts(String path) {
        return PROFILING.matcher(path).matches();
    }

    /** Whether a POST names one of Storm's operations. */
    static boolean isAction(String path) {
        return ACTION.matcher(path).matches() || WAITED.matcher(path).matches() || DEBUG.matcher(path).matches();
    }

    /** The answer to a GET of {@code path}, or null when the API has no such path. */
    Map<String, Object> get(String path, Fields query) throws Exception {
        Function<String, String> q = query::getValue;
        String window = q.apply("window");
        String sys = q.apply("sys");
        Matcher m;
        switch (path) {
            case "/api/v1/cluster/configuration":
                return cluster.configuration();
            case "/api/v1/cluster/summary":
                return cluster.summary();
            case "/api/v1/nimbus/summary":
                return cluster.nimbusSummary();
            case "/api/v1/supervisor/summary":
                return cluster.supervisorSummary();
            case "/api/v1/supervisor":
                return cluster.supervisor(q.apply("id"), q.apply("host"), topologies);
            case "/api/v1/history/summary":
                return cluster.history();
            case "/api/v1/owner-resources":
                return cluster.ownerResources(null);
            case "/api/v1/topology/summary":
                return topologies.summary();
            default:
                break;
        }
        if ((m = OWNER.matcher(path)).matches()) {
            return cluster.ownerResources(m.group(1));
        } else if ((m = WORKERS.matcher(path)).matches()) {
            return topologies.workerHosts(m.group(1));
        } else if ((m = PROFILING.matcher(path)).matches()) {
            return profiling.act(m.group(1), m.group(2), m.group(3), m.group(4));
        } else if ((m = COMPONENT.matcher(path)).matches()) {
            return components.component(m.group(1), m.group(2), window, sys);
        } else if ((m = SUBPAGE.matcher(path)).matches()) {
            String id = m.group(1);
            return switch (m.group(2)) {
                case "metrics" -> streams.metrics(id, window, sys);
                case "lag" -> streams.lag(id);
                case "visualization-init" -> visualization.init(id, window, sys);
                case "visualization" -> visualization.of(id, window, sys);
                case "runtime" -> runtime.of(id);
                default -> actions.logConfig(id);
            };
        } else if ((m = PAGE.matcher(path)).matches()) {
            return topologies.topology(m.group(1), window, sys);
        }
        return null;
    }

    /** The answer to a POST of one of Storm's operations ({@link #isAction}); {@code body} reads the request body. */
    Map<String, Object> post(String path, BodyReader body) throws Exception {
        Matcher m;
        if ((m = ACTION.matcher(path)).matches()) {
            return switch (m.group(2)) {
                case "activate" -> actions.activate(m.group(1), true);
                case "deactivate" -> actions.activate(m.group(1), false);
                default -> actions.setLogConfig(m.group(1), body.read());
            };
        } else if ((m = WAITED.matcher(path)).matches()) {
            int wait = waitSecs(m.group(3));
            return "kill".equals(m.group(2)) ? actions.kill(m.group(1), wait)
                : actions.rebalance(m.group(1), wait, body.read());
        } else if ((m = DEBUG.matcher(path)).matches()) {
            return actions.debug(m.group(1), m.group(2), m.group(3), m.group(4));
        }
        return null;
    }

    /** Reads a request's body as text. */
    interface BodyReader {
        String read() throws Exception;
    }

    private static int waitSecs(String wait) {
        if (!wait.matches("\\d{1,9}")) {
            throw new IllegalArgumentException("the wait time must be a whole number of seconds, 0 or more: '" + wait + "'");
        }
        return Integer.parseInt(wait);
    }
}
