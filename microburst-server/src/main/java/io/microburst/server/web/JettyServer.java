package io.microburst.server.web;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty server under each of the server's HTTP faces (the web UI, DRPC over HTTP, the logviewer): one connector on
 * {@code host:port} (port 0: any free one), daemon threads named after the face, started by the constructor and stopped
 * again when it cannot start (a port already taken, say). Every request passes {@link OriginGuard} first, so no port
 * answers a request a web page of another site made a browser send (DNS rebinding, cross-site requests); requests
 * Jetty refuses itself (path tricks, oversized or broken headers) get {@link ErrorAnswers}' one line. Public only so
 * that the faces outside this package share it.
 */
public final class JettyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JettyServer.class);

    private final String name;
    private final Server server;
    private final ServerConnector connector;

    /**
     * @param name what it serves, for its log lines ("web server", "logviewer")
     * @param threadName its threads' name
     * @param maxThreads the most threads it runs requests on
     * @param minThreads the threads it keeps while idle
     * @param host the address to listen on
     * @param port the port, 0 for any free one
     * @param allowed host names accepted besides the address it serves
     * @param handler what answers the requests
     * @param jsonErrors whether refusals are Storm's JSON error shape (else one line of text)
     */
    public JettyServer(String name, String threadName, int maxThreads, int minThreads, String host, int port,
                       AllowedHosts allowed, Handler handler, boolean jsonErrors) throws Exception {
        this.name = name;
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, minThreads);
        threads.setName(threadName);
        threads.setDaemon(true);
        this.server = new Server(threads);
        this.connector = new ServerConnector(server, 1, 1);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new OriginGuard(allowed, handler));
        server.setErrorHandler(new ErrorAnswers(jsonErrors));
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception stopping) {
                e.addSuppressed(stopping);
            }
            throw e;
        }
    }

    /** The port it listens on. */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("Stopping the {} failed: {}", name, e.toString());
        }
    }
}
