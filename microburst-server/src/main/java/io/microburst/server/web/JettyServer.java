package io.microburst.server.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty server under each of the server's HTTP faces (the web UI, DRPC over HTTP, the logviewer): one connector on
 * {@code host:port} (port 0: any free one), daemon threads named after the face, started by the constructor and stopped
 * again when it cannot start (a port already taken, say). Every request passes {@link OriginGuard} first, so no port
 * answers a request a web page of another site made a browser send (DNS rebinding, cross-site requests); requests
 * Jetty refuses itself (path tricks, oversized or broken headers) get {@link ErrorAnswers}' one line. With
 * {@link TlsSettings} a second connector serves the same handler over HTTPS; plain HTTP beside it on an address beyond
 * loopback only redirects there ({@link HttpsRedirect}). Public only so that the faces outside this package share it.
 */
public final class JettyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JettyServer.class);

    private final String name;
    private final Server server;
    private final ServerConnector connector;
    private final ServerConnector tlsConnector;

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
        this(name, threadName, maxThreads, minThreads, host, port, null, allowed, handler, jsonErrors);
    }

    /**
     * As above, with HTTPS.
     *
     * @param port the plain HTTP port, 0 for any free one, -1 for none
     * @param tls HTTPS on the same address, or null for none
     */
    public JettyServer(String name, String threadName, int maxThreads, int minThreads, String host, int port,
                       TlsSettings tls, AllowedHosts allowed, Handler handler, boolean jsonErrors) throws Exception {
        this.name = name;
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, minThreads);
        threads.setName(threadName);
        threads.setDaemon(true);
        this.server = new Server(threads);
        this.connector = port < 0 ? null : new ServerConnector(server, 1, 1);
        if (connector != null) {
            connector.setHost(host);
            connector.setPort(port);
            server.addConnector(connector);
        }
        this.tlsConnector = tls == null ? null : tlsConnector(server, host, tls);
        Handler served = tls != null && connector != null && !isLoopback(host) ? new HttpsRedirect(tls.port(), handler)
            : handler;
        server.setHandler(new OriginGuard(allowed, served));
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

    private static ServerConnector tlsConnector(Server server, String host, TlsSettings tls) {
        HttpConfiguration config = new HttpConfiguration();
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // OriginGuard checks Host against the names the operator allowed, which the certificate need not list (an
        // address, the name a proxy forwards); Jetty's own check would refuse those with a bare 400.
        secure.setSniHostCheck(false);
        config.addCustomizer(secure);
        ServerConnector tlsConnector = new ServerConnector(server, 1, 1,
            new SslConnectionFactory(tls.contextFactory(), HttpVersion.HTTP_1_1.asString()),
            new HttpConnectionFactory(config));
        tlsConnector.setHost(host);
        tlsConnector.setPort(tls.port());
        server.addConnector(tlsConnector);
        return tlsConnector;
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The plain HTTP port it listens on, or -1 when it serves HTTPS only. */
    public int port() {
        return connector == null ? -1 : connector.getLocalPort();
    }

    /** The HTTPS port it listens on, or -1 without HTTPS. */
    public int httpsPort() {
        return tlsConnector == null ? -1 : tlsConnector.getLocalPort();
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
