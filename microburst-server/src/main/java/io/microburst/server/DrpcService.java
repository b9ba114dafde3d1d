package io.microburst.server;

import io.microburst.drpc.InProcessDrpc;
import java.lang.reflect.Field;
import java.security.Principal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.DRPCRequest;
import org.apache.storm.generated.DistributedRPC;
import org.apache.storm.generated.DistributedRPCInvocations;
import org.apache.storm.security.auth.IAuthorizer;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.ThriftServer;
import org.apache.storm.security.auth.authorizer.DRPCAuthorizerBase;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.ServiceRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's DRPC service, as Storm's DRPC daemon serves it: clients ({@code DRPCClient}, {@code storm drpc-client})
 * call functions on {@code drpc.port}, topologies' {@code DRPCSpout}s fetch the requests and return the results on
 * {@code drpc.invocations.port}, and {@link DrpcHttp} serves the same calls over HTTP. Requests wait at most
 * {@code drpc.request.timeout.secs} and fail with Storm's exception types; {@code drpc.authorizer} (an
 * {@link IAuthorizer}, e.g. Storm's {@code DRPCSimpleACLAuthorizer}) decides who may call, fetch and return which
 * function, as in Storm.
 *
 * <p>Topologies run in the server's process in Storm's local mode, where storm-client's {@code ReturnResults} and
 * Trident's {@code ReturnResultsReducer} look their DRPC server up in storm-client's {@link ServiceRegistry} under the
 * host their spout fetched from: so the service is registered there under the host it gives topologies in
 * {@code drpc.servers}. Calls arriving that way come from topology code inside the server and are not authorized again.
 */
final class DrpcService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DrpcService.class);

    private final InProcessDrpc drpc;
    private final IAuthorizer authorizer;
    private final ThriftServer calls;
    private final ThriftServer invocations;
    private final Thread callsThread;
    private final Thread invocationsThread;
    private final String registeredHost;
    private final Invocations registered;

    /**
     * Starts the two Thrift services; returns once both accept connections.
     *
     * @param conf the server's configuration; Storm's DRPC keys are read from it
     * @param host the host topologies are told to fetch requests from ({@code drpc.servers})
     */
    DrpcService(Map<String, Object> conf, String host) throws InterruptedException {
        int timeoutSecs = ObjectReader.getInt(conf.get(ServerConfig.DRPC_REQUEST_TIMEOUT_SECS), 600);
        this.authorizer = authorizer(conf);
        this.drpc = new InProcessDrpc(timeoutSecs);
        Map<String, Object> thriftConf = new HashMap<>(conf);
        for (ThriftConnectionType type : List.of(ThriftConnectionType.DRPC, ThriftConnectionType.DRPC_INVOCATIONS)) {
            if (!ServerConfig.authenticates(type.getTransportPlugin(conf))) {
                thriftConf.put(type == ThriftConnectionType.DRPC ? Config.DRPC_THRIFT_TRANSPORT_PLUGIN
                    : Config.DRPC_INVOCATIONS_THRIFT_TRANSPORT_PLUGIN, BoundTransportPlugin.class.getName());
            }
        }
        this.invocations = new ThriftServer(thriftConf, new DistributedRPCInvocations.Processor<>(new Invocations(true)),
            ThriftConnectionType.DRPC_INVOCATIONS);
        this.invocationsThread = serve(invocations, "microburst-drpc-invocations");
        ThriftServer started = null;
        Thread startedThread = null;
        try {
            started = new ThriftServer(thriftConf, new DistributedRPC.Processor<>(this::executeAuthorized),
                ThriftConnectionType.DRPC);
            startedThread = serve(started, "microburst-drpc");
            awaitServing(invocations, invocationsThread, "invocations");
            awaitServing(started, startedThread, "calls");
        } catch (RuntimeException | InterruptedException e) {
            invocations.stop();
            if (started != null) {
                started.stop();
            }
            drpc.close();
            throw e;
        }
        this.calls = started;
        this.callsThread = startedThread;
        this.registeredHost = host;
        this.registered = new Invocations(false);
        registry(host, registered, true);
    }

    private static IAuthorizer authorizer(Map<String, Object> conf) {
        Object name = conf.get(ServerConfig.DRPC_AUTHORIZER);
        if (name == null) {
            return null;
        }
        try {
            return StormCommon.mkAuthorizationHandler((String) name, conf);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException(ServerConfig.DRPC_AUTHORIZER + ": cannot create the authorizer " + name
                + ": " + e, e);
        }
    }

    private static Thread serve(ThriftServer server, String name) {
        Thread thread = new Thread(server::serve, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void awaitServing(ThriftServer server, Thread thread, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.isServing()) {
            if (System.nanoTime() - deadline > 0 || !thread.isAlive()) {
                throw new IllegalStateException("the DRPC " + what + " service did not start on port "
                    + server.getPort());
            }
            Thread.sleep(10);
        }
    }

    /**
     * Makes this service the one that storm-client's local-mode result path finds under {@code host}. storm-client
     * registers services only under ids it makes up, so the entry is put in its table directly.
     */
    @SuppressWarnings("unchecked")
    private static void registry(String host, Object service, boolean add) {
        try {
            Field lock = ServiceRegistry.class.getDeclaredField("_lock");
            Field services = ServiceRegistry.class.getDeclaredField("_services");
            lock.setAccessible(true);
            services.setAccessible(true);
            synchronized (lock.get(null)) {
                Map<String, Object> table = (Map<String, Object>) services.get(null);
                if (add) {
                    table.put(host, service);
                } else {
                    table.remove(host, service);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("Cannot register the DRPC service for topologies under {}: their ReturnResults bolts will not "
                + "find it ({})", host, e.toString());
        }
    }

    /** The port clients call functions on. */
    int port() {
        return calls.getPort();
    }

    /** The port topologies' spouts fetch requests from and return results to. */
    int invocationsPort() {
        return invocations.getPort();
    }

    /** Calls {@code function}, authorized as the current request's caller, and waits for its result. */
    String executeAuthorized(String function, String args) throws DRPCExecutionException, AuthorizationException {
        if (function == null) {
            throw new IllegalArgumentException("The DRPC function of a request cannot be null");
        }
        authorize("execute", function);
        return drpc.execute(function, args);
    }

    private void authorize(String operation, String function) throws AuthorizationException {
        if (authorizer == null) {
            return;
        }
        ReqContext context = ReqContext.context();
        if (!authorizer.permit(context, operation, Map.of(DRPCAuthorizerBase.FUNCTION_NAME, function))) {
            Principal principal = context.principal();
            throw new AuthorizationException("DRPC " + operation + " of function '" + function + "' is not authorized for "
                + (principal == null ? "an unauthenticated caller" : "user '" + principal.getName() + "'"));
        }
    }

    /** What topologies call: Storm's invocations service, authorized unless called from inside the server. */
    private final class Invocations implements DistributedRPCInvocations.Iface {
        private final boolean authorized;

        Invocations(boolean authorized) {
            this.authorized = authorized;
        }

        @Override
        public void result(String id, String result) throws AuthorizationException {
            String function = drpc.functionOf(id);
            if (function != null) {
                check("result", function);
                drpc.result(id, result);
            }
        }

        @Override
        public DRPCRequest fetchRequest(String function) throws AuthorizationException {
            if (function == null) {
                throw new IllegalArgumentException("fetchRequest: the DRPC function cannot be null");
            }
            check("fetchRequest", function);
            return drpc.fetchRequest(function);
        }

        @Override
        public void failRequest(String id) throws AuthorizationException {
            failRequestV2(id, null);
        }

        @Override
        public void failRequestV2(String id, DRPCExecutionException e) throws AuthorizationException {
            String function = drpc.functionOf(id);
            if (function != null) {
                check("failRequest", function);
                drpc.failRequestV2(id, e);
            }
        }

        private void check(String operation, String function) throws AuthorizationException {
            if (authorized) {
                authorize(operation, function);
            }
        }
    }

    /** Stops serving; requests still waiting fail with {@code SERVER_SHUTDOWN}. */
    @Override
    public void close() {
        registry(registeredHost, registered, false);
        drpc.close();
        calls.stop();
        invocations.stop();
        for (Thread thread : List.of(callsThread, invocationsThread)) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
