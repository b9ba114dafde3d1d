package io.microburst.server.web;

import java.util.Map;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;

/**
 * Where the Storm UI REST API's links find the logviewer, decided from the server's configuration as Storm's UI decides
 * it: over HTTPS on {@code logviewer.https.port} when that is set (above 0 here, where 0 means no HTTPS), else over
 * HTTP on {@code logviewer.port} (Storm's default 8000). The server puts the ports in use into its configuration once
 * the logviewer listens. Immutable; any thread.
 *
 * @param scheme {@code http} or {@code https}, as Storm's {@code logviewerScheme}
 * @param port the port links name, as Storm's {@code logviewerPort}
 */
record LogviewerAddress(String scheme, int port) {
    /** Storm's default {@code logviewer.port}. */
    private static final int DEFAULT_PORT = 8000;

    /** The logviewer that {@code nimbusConf} (as {@code getNimbusConf} answers it) describes. */
    static LogviewerAddress of(Map<String, Object> nimbusConf) {
        int https = ObjectReader.getInt(nimbusConf.get(TlsSettings.key(TlsSettings.LOGVIEWER, "port")), 0);
        return https > 0 ? new LogviewerAddress("https", https)
            : new LogviewerAddress("http", ObjectReader.getInt(nimbusConf.get("logviewer.port"), DEFAULT_PORT));
    }

    /** {@code SCHEME://HOST:PORT} followed by {@code pathAndQuery}. */
    String url(String host, String pathAndQuery) {
        return scheme + "://" + host + ":" + port + pathAndQuery;
    }

    /** The logviewer's page for a file under its root, as Storm's UI links it. */
    String logLink(String host, String file) {
        return url(host, "/api/v1/log?file=" + Utils.urlEncodeUtf8(file));
    }

    /** The worker log of a topology's worker, {@code ID/PORT/worker.log} on the logviewer. */
    String workerLogLink(String host, String topologyId, int port) {
        return logLink(host, topologyId + "/" + port + "/worker.log");
    }
}
