package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerClassLoader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * {@code microburst server}: starts a {@link MicroburstServer}, says where it listens, and serves until the JVM is
 * asked to stop (Ctrl-C, SIGTERM), when a shutdown hook closes it gracefully (spouts deactivated, tuples in flight
 * processed: {@link MicroburstServer#closeGracefully()}); the topologies stay stored for the next start.
 * The server runs inside a {@link ServerClassLoader}, as {@code microburst local} runs inside its topology's loader,
 * so that storm-client's lookups of user classes by name find the classes of the topologies' jars.
 */
public final class ServerRun {
    private final Command.Server command;
    private final PrintStream out;

    public ServerRun(Command.Server command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    /** Serves until the JVM stops; returns only if interrupted. */
    public int run() throws Exception {
        ServerClassLoader loader = ServerClassLoader.ofClassPath();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class<?> inside = Class.forName(ServerRun.class.getName(), true, loader);
            Method serve = inside.getMethod("serveInServerLoader", Map.class, PrintStream.class);
            return (Integer) serve.invoke(null, command.conf(), out);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * The server, called by {@link #run()} through the server's class loader, in which this class is then loaded: its
     * parameters are JDK types only, since Microburst's and Storm's classes differ between the loaders.
     */
    public static int serveInServerLoader(Map<String, Object> conf, PrintStream out) throws Exception {
        // As Storm's daemons and workers: Storm's packages log at INFO. Topology code often lives there too
        // (storm-starter, Storm's own integration tests), and its lines belong in the topology's worker log.
        Configurator.setLevel("org.apache.storm", Level.INFO);
        MicroburstServer server = MicroburstServer.start(conf);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("microburst server: stopping: spouts deactivated, waiting up to " + server.stopWaitSecs()
                + " s for the tuples in flight");
            boolean drained = server.closeGracefully();
            out.println("microburst server: stopped" + (drained ? "; every tuple in flight was processed"
                : "; tuples were still in flight (reliable spouts replay them after the next start)")
                + "; the topologies stay stored for the next start");
            stopped.countDown();
        }, "microburst-server-shutdown"));
        out.println("microburst server: Nimbus Thrift on " + server.host() + ":" + server.thriftPort()
            + ", pages, Storm UI REST API and /metrics on " + server.pagesUrl() + ", "
            + (server.logViewerUrl() == null ? "no logviewer" : "worker logs on " + server.logViewerUrl() + "api/v1/")
            + ", topologies stored in " + server.dataDir());
        if (server.drpcPort() >= 0) {
            out.println("microburst server: DRPC on " + server.host() + ":" + server.drpcPort() + ", invocations on "
                + server.host() + ":" + server.drpcInvocationsPort()
                + (server.drpcHttpPort() >= 0 ? ", HTTP on http://127.0.0.1:" + server.drpcHttpPort() + "/drpc/" : ""));
        }
        stopped.await();
        return 0;
    }
}
