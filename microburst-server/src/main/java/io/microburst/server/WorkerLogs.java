package io.microburst.server;

import io.microburst.runtime.topology.TopologyRuntime;
import io.microburst.server.logviewer.LogFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.appender.RollingFileAppender;
import org.apache.logging.log4j.core.appender.rolling.DefaultRolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.SizeBasedTriggeringPolicy;
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
 * and written first. The file rolls as a Storm worker's does (its {@code log4j2/worker.xml}): past a size (100 MB by
 * default) it becomes {@code worker.log.1.gz}, the older ones moving up to {@code worker.log.9.gz} and the oldest
 * dropped; log4j2's own rolling appender does it, one per topology.
 */
final class WorkerLogs implements LogFolder, AutoCloseable {
    static final String WORKER_LOG = "worker.log";
    private static final int MAX_PENDING = 1 << 20;
    private static final String LAYOUT = "%d{yyyy-MM-dd HH:mm:ss.SSS} %t %c{1.} [%p] %msg%n";
    /** How many rolled files a worker log keeps, as Storm's worker.xml ({@code DefaultRolloverStrategy max="9"}). */
    static final int ROLLED_FILES = 9;
    /** Storm's worker.xml rolls a worker's log past 100 MB ({@code SizeBasedTriggeringPolicy size="100 MB"}). */
    static final long DEFAULT_MAX_BYTES = 100L << 20;

    private final Path root;
    private final long maxBytes;
    private final Map<ClassLoader, Sink> sinks = new ConcurrentHashMap<>();
    private final LoggerContext context;
    private final Route route;

    WorkerLogs(Path root) throws IOException {
        this(root, DEFAULT_MAX_BYTES);
    }

    /** @param maxBytes the size past which a worker log rolls */
    WorkerLogs(Path root, long maxBytes) throws IOException {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException(ServerConfig.WORKER_LOG_MAX_BYTES + " must be more than 0: " + maxBytes);
        }
        this.root = Files.createDirectories(root).toRealPath();
        this.maxBytes = maxBytes;
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
    @Override
    public Path root() {
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
            Path file = root.resolve(stormId).resolve(String.valueOf(TopologyRuntime.WORKER_PORT)).resolve(WORKER_LOG);
            Files.createDirectories(file.getParent());
            sink.open(rollingFile(stormId, file));
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
     * there is no such file under the root: a name that climbs out ({@code ..}, absolute), a link, or a file reached
     * through a linked folder that leads outside the root is no such file.
     */
    @Override
    public Path file(String relative) {
        if (relative == null || relative.isBlank()) {
            return null;
        }
        try {
            Path file = root.resolve(relative).normalize();
            if (!file.startsWith(root) || file.equals(root) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !file.toRealPath().startsWith(root)) {
                return null; // outside, or reached through a link that leads out of the folder
            }
            return file;
        } catch (IOException | InvalidPathException e) {
            return null; // gone meanwhile, or no path at all (a NUL in the name)
        }
    }

    private RollingFileAppender rollingFile(String stormId, Path file) {
        Configuration config = context.getConfiguration();
        RollingFileAppender appender = RollingFileAppender.newBuilder()
            .setName("microburst-worker-log-" + stormId)
            .setConfiguration(config)
            .setLayout(route.getLayout())
            .withFileName(file.toString())
            // a % in the topology's name or the directory is literal, not a pattern conversion
            .withFilePattern(file.toString().replace("%", "%%") + ".%i.gz")
            .withAppend(true)
            .withPolicy(SizeBasedTriggeringPolicy.createPolicy(Long.toString(maxBytes)))
            .withStrategy(DefaultRolloverStrategy.newBuilder().withMax(Integer.toString(ROLLED_FILES))
                .withConfig(config).build())
            .build();
        appender.start();
        return appender;
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
                sink.append(event, getLayout());
            }
        }
    }

    /** A topology's file, or the lines waiting for it. */
    private static final class Sink {
        private List<LogEvent> pending = new ArrayList<>();
        private int pendingBytes;
        private RollingFileAppender file;
        private boolean closed;

        synchronized void append(LogEvent event, Layout<?> layout) {
            if (file != null) {
                file.append(event);
            } else if (!closed) {
                int bytes = layout.toByteArray(event).length;
                if (pendingBytes + bytes <= MAX_PENDING) {
                    pending.add(event.toImmutable());
                    pendingBytes += bytes;
                }
            }
        }

        /** Writes the waiting lines to {@code appender} (started), which takes the rest; stops it if closed already. */
        synchronized void open(RollingFileAppender appender) {
            if (closed || file != null) {
                appender.stop();
                return;
            }
            file = appender;
            pending.forEach(appender::append);
            pending = null;
        }

        synchronized void close() {
            closed = true;
            pending = null;
            if (file != null) {
                // waits for the compression of a file it just rolled
                file.stop(10, TimeUnit.SECONDS);
                file = null;
            }
        }
    }
}
