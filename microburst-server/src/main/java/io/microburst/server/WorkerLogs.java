package io.microburst.server;

import io.microburst.runtime.TopologyRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * One log file per running topology, where a Storm supervisor keeps a worker's: {@code ID/PORT/worker.log} under
 * {@code DIR/logs/workers-artifacts/} (PORT is the one port every topology reports, {@link TopologyRuntime#WORKER_PORT}),
 * each line starting with its time ({@code yyyy-MM-dd HH:mm:ss.SSS}) as in a worker's log, so that tools reading
 * worker logs through the logviewer read these. All topologies share the server's process and its loggers: an event
 * goes to a topology's file when the thread that logs it has that topology's class loader as context class loader,
 * which every thread running the topology's code has. It still goes to the server's own output too. Lines logged
 * before the topology has its id (while it is being submitted) are kept in memory, up to {@value #MAX_PENDING} bytes,
 * and written first.
 */
final class WorkerLogs implements AutoCloseable {
    static final String WORKER_LOG = "worker.log";
    private static final int MAX_PENDING = 1 << 20;
    private static final String LAYOUT = "%d{yyyy-MM-dd HH:mm:ss.SSS} %t %c{1.} [%p] %msg%n";

    private final Path root;
    private final Map<ClassLoader, Sink> sinks = new ConcurrentHashMap<>();
    private final LoggerContext context;
    private final Route route;

    WorkerLogs(Path root) throws IOException {
        this.root = Files.createDirectories(root).toRealPath();
        this.context = (LoggerContext) LogManager.getContext(false);
        PatternLayout layout = PatternLayout.newBuilder().withPattern(LAYOUT).withConfiguration(context.getConfiguration())
            .build();
        this.route = new Route(layout);
        route.start();
        Configuration config = context.getConfiguration();
        config.getRootLogger().addAppender(route, null, null);
        context.updateLoggers();
    }

    /** The folder holding {@code ID/PORT/worker.log} for every topology started here. */
    Path root() {
        return root;
    }

    /** Starts collecting what threads with this context class loader log; call before the topology is submitted. */
    void begin(ClassLoader loader) {
        sinks.put(loader, new Sink());
    }

    /** The topology of {@code loader} got its id: its lines go to {@code ID/PORT/worker.log} from now on. */
    void started(ClassLoader loader, String stormId) throws IOException {
        Sink sink = sinks.get(loader);
        if (sink != null) {
            sink.open(root.resolve(stormId).resolve(String.valueOf(TopologyRuntime.WORKER_PORT)).resolve(WORKER_LOG));
        }
    }

    /** The topology of {@code loader} is gone (or never started): its file is closed and kept. */
    void end(ClassLoader loader) {
        Sink sink = sinks.remove(loader);
        if (sink != null) {
            sink.close();
        }
    }

    /**
     * The log file a logviewer request names ({@code ID/PORT/worker.log}, relative to {@link #root()}), or null when
     * there is no such file under the root.
     */
    Path file(String relative) {
        if (relative == null || relative.isBlank()) {
            return null;
        }
        Path file = root.resolve(relative).normalize();
        if (!file.startsWith(root) || file.equals(root) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        return file;
    }

    @Override
    public void close() {
        context.getConfiguration().getRootLogger().removeAppender(route.getName());
        context.updateLoggers();
        route.stop();
        for (ClassLoader loader : sinks.keySet()) {
            end(loader);
        }
    }

    private final class Route extends AbstractAppender {
        Route(PatternLayout layout) {
            super("microburst-worker-logs", null, layout, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Sink sink = loader == null ? null : sinks.get(loader);
            if (sink != null) {
                try {
                    sink.write(getLayout().toByteArray(event));
                } catch (IOException e) {
                    error("Cannot write a topology's worker log: " + e, event, e);
                }
            }
        }
    }

    /** A topology's file, or the lines waiting for it. */
    private static final class Sink {
        private ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private OutputStream out;
        private boolean closed;

        synchronized void write(byte[] line) throws IOException {
            if (out != null) {
                out.write(line);
            } else if (!closed && pending.size() + line.length <= MAX_PENDING) {
                pending.write(line, 0, line.length);
            }
        }

        synchronized void open(Path file) throws IOException {
            if (closed || out != null) {
                return;
            }
            Files.createDirectories(file.getParent());
            out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            pending.writeTo(out);
            pending = null;
        }

        synchronized void close() {
            closed = true;
            pending = null;
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // the lines written so far are in the file
                }
                out = null;
            }
        }
    }
}
