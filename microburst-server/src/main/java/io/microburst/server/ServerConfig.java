package io.microburst.server;

import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * Configuration keys of {@code microburst server}, read from the same map as Storm's own keys (storm.yaml, then
 * {@code -c} overrides). Storm's keys it honours: {@code nimbus.thrift.port}, {@code nimbus.thrift.max_buffer_size},
 * {@code nimbus.thrift.threads}, {@code ui.port} (pages, REST API, metrics), {@code logviewer.port} (worker logs), {@code nimbus.thrift.transport} / {@code storm.thrift.transport} (authentication).
 */
public final class ServerConfig {
    /** String, default {@value #DEFAULT_DIR}: where submitted topologies (jar, configuration, status) are kept. */
    public static final String DIR = "microburst.server.dir";
    /**
     * String, default {@value #DEFAULT_BIND}: the address the Thrift service listens on. Any other than a loopback
     * address requires authentication to be configured, or the server refuses to start.
     */
    public static final String BIND = "microburst.server.bind";
    /** Long, default 256 MiB: the largest topology jar an upload may send. */
    public static final String UPLOAD_MAX_BYTES = "microburst.server.upload.max.bytes";

    /** Storm's key for the UI's port (storm-server's DaemonConfig), here also the REST API's and the metrics'. */
    public static final String UI_PORT = "ui.port";
    /**
     * Storm's key for the logviewer's port (8000 in Storm's defaults): here the topologies' worker logs
     * ({@link LogViewer}); when the port is taken the server runs without it and says so.
     */
    public static final String LOGVIEWER_PORT = "logviewer.port";

    public static final String DEFAULT_DIR = "microburst-data";
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final long DEFAULT_UPLOAD_MAX_BYTES = 256L << 20;

    private ServerConfig() {
    }

    static Path dir(Map<String, Object> conf) {
        return Path.of(ObjectReader.getString(conf.get(DIR), DEFAULT_DIR));
    }

    static String bind(Map<String, Object> conf) {
        return ObjectReader.getString(conf.get(BIND), DEFAULT_BIND);
    }

    static long uploadMaxBytes(Map<String, Object> conf) {
        Object value = conf.get(UPLOAD_MAX_BYTES);
        return value == null ? DEFAULT_UPLOAD_MAX_BYTES : ((Number) value).longValue();
    }

    static int uiPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(UI_PORT), 8080);
    }

    static int logViewerPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(LOGVIEWER_PORT), 8000);
    }

    static int thriftPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(Config.NIMBUS_THRIFT_PORT), 6627);
    }
}
