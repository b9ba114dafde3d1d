package io.microburst.server;

import io.microburst.server.web.AllowedHosts;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.utils.ObjectReader;

/**
 * DRPC as Storm's DRPC daemon serves it: the Thrift ports ({@link DrpcService}) and, unless {@code drpc.http.port} is
 * negative, HTTP ({@link DrpcHttp}). {@link #close()} stops the service before HTTP, so that requests still waiting
 * fail with {@code SERVER_SHUTDOWN} (503 over HTTP) before the HTTP server stops. Any thread.
 */
final class DrpcDaemon implements AutoCloseable {
    private final DrpcService service;
    private final DrpcHttp http;

    private DrpcDaemon(DrpcService service, DrpcHttp http) {
        this.service = service;
        this.http = http;
    }

    /**
     * Starts DRPC on the server's address; on an address other than a loopback one, only with authenticating DRPC
     * transports.
     *
     * @param host the host topologies are told to fetch requests from
     * @throws IllegalArgumentException if the address is not a loopback one and a DRPC transport does not authenticate
     * @throws IOException if DRPC cannot be served
     */
    static DrpcDaemon start(Map<String, Object> conf, InetAddress address, String bind, String host,
                            AllowedHosts allowedHosts) throws IOException {
        if (!address.isLoopbackAddress()) {
            for (ThriftConnectionType type : List.of(ThriftConnectionType.DRPC, ThriftConnectionType.DRPC_INVOCATIONS)) {
                if (!ServerConfig.authenticates(type.getTransportPlugin(conf))) {
                    throw new IllegalArgumentException("Refusing to serve DRPC on " + bind + " without authentication: "
                        + "configure an authenticating transport in " + Config.DRPC_THRIFT_TRANSPORT_PLUGIN + " and "
                        + Config.DRPC_INVOCATIONS_THRIFT_TRANSPORT_PLUGIN + " (or " + Config.STORM_THRIFT_TRANSPORT_PLUGIN
                        + "), or keep " + ServerConfig.BIND + " on a loopback address");
                }
            }
        }
        DrpcService service = null;
        try {
            service = new DrpcService(conf, host);
            int httpPort = ServerConfig.drpcHttpPort(conf);
            DrpcHttp http = httpPort < 0 ? null : new DrpcHttp(service, httpPort,
                ObjectReader.getInt(conf.get(Config.DRPC_WORKER_THREADS), 64), allowedHosts,
                ServerConfig.httpMaxBodyBytes(conf));
            return new DrpcDaemon(service, http);
        } catch (Exception e) {
            if (service != null) {
                service.close();
            }
            if (e instanceof IllegalArgumentException refused) {
                throw refused;
            }
            throw new IOException("cannot serve DRPC on " + bind + ": " + e, e);
        }
    }

    /**
     * Writes where DRPC is served into {@code conf}, as a Storm cluster's configuration names its DRPC servers:
     * topologies fetch their requests here.
     */
    void advertise(Map<String, Object> conf, String host) {
        conf.put(Config.DRPC_SERVERS, List.of(host));
        conf.put(Config.DRPC_PORT, port());
        conf.put(Config.DRPC_INVOCATIONS_PORT, invocationsPort());
        conf.put(ServerConfig.DRPC_HTTP_PORT, httpPort());
    }

    int port() {
        return service.port();
    }

    int invocationsPort() {
        return service.invocationsPort();
    }

    /** The HTTP port, or -1 when not served. */
    int httpPort() {
        return http == null ? -1 : http.port();
    }

    @Override
    public void close() {
        service.close();
        if (http != null) {
            http.close();
        }
    }
}
