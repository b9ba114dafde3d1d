package io.microburst.runtime.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * A topology's working directory, as a Storm worker has one: {@code code/} holds the contents of the topology's
 * {@code resources} folder, as Storm's supervisor extracts a topology jar's top-level {@code resources/} into the
 * directory that {@code TopologyContext.getCodeDir()} names, which is where multi-lang subprocesses start; so
 * {@code new ShellBolt("python3", "splitsentence.py")} finds the jar's {@code resources/splitsentence.py}.
 * {@code pids/} receives the pid files of multi-lang subprocesses. It is deleted when the topology stops, or when
 * the JVM exits (a shutdown hook) if the topology never stopped.
 *
 * <p>Threading: created and closed by the topology's lifecycle; its paths are read from any thread.
 */
final class WorkDir implements AutoCloseable {
    private static final String RESOURCES = "resources";
    private final Path root;
    private final Path code;
    private final Path pids;

    /** Directories of topologies still running; whatever is left when the JVM exits is deleted then. */
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_ADDED = new AtomicBoolean();

    private WorkDir(Path root) throws IOException {
        this.root = root;
        if (HOOK_ADDED.compareAndSet(false, true)) {
            Thread hook = new Thread(() -> LIVE.forEach(WorkDir::delete), "microburst-workdir-cleanup");
            // Not the first topology's class loader, which a hook would otherwise keep until the JVM exits.
            hook.setContextClassLoader(WorkDir.class.getClassLoader());
            Runtime.getRuntime().addShutdownHook(hook);
        }
        LIVE.add(root);
        this.code = Files.createDirectories(root.resolve("code"));
        this.pids = Files.createDirectories(root.resolve("pids"));
    }

    /**
     * Creates the directory, in {@code parent} ({@code microburst.work.dir}) or when null in the JVM's temporary folder,
     * and copies into {@code code/} the top-level {@code resources/} folder of the submitted
     * topology jar (the {@code storm.jar} system property, as StormSubmitter reads it; read entry by entry, so a jar
     * without directory entries counts too), then of every jar and folder {@code loader} sees, in class path order;
     * where two hold the same file, the first one's is kept, as the first class of a name wins.
     */
    static WorkDir create(String topologyName, ClassLoader loader, String parent) {
        try {
            String prefix = "microburst-" + topologyName.replaceAll("[^A-Za-z0-9_-]", "_") + "-";
            WorkDir dir = new WorkDir(parent == null ? Files.createTempDirectory(prefix)
                : Files.createTempDirectory(Files.createDirectories(Paths.get(parent)), prefix));
            String submitted = System.getProperty("storm.jar");
            if (submitted != null && Files.isRegularFile(Paths.get(submitted))) {
                dir.copyJarResources(Paths.get(submitted));
            }
            for (URL url : Collections.list(loader.getResources(RESOURCES))) {
                dir.copyResources(url);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a working directory for topology '" + topologyName + "'", e);
        }
    }

    private void copyJarResources(Path jarPath) throws IOException {
        try (JarFile jar = new JarFile(jarPath.toFile())) {
            copyJar(jar);
        }
    }

    private void copyResources(URL url) throws IOException {
        if ("file".equals(url.getProtocol())) {
            Path source;
            try {
                source = Paths.get(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("Bad resources location " + url, e);
            }
            if (!Files.isDirectory(source)) {
                return;
            }
            try (Stream<Path> files = Files.walk(source)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Path to = code.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else if (!Files.exists(to)) {
                        Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        } else if ("jar".equals(url.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) url.openConnection();
            connection.setUseCaches(false);
            try (JarFile jar = connection.getJarFile()) {
                copyJar(jar);
            }
        }
    }

    private void copyJar(JarFile jar) throws IOException {
        for (JarEntry e : Collections.list(jar.entries())) {
            if (!e.getName().startsWith(RESOURCES + "/")) {
                continue;
            }
            Path to = code.resolve(e.getName().substring(RESOURCES.length() + 1)).normalize();
            if (!to.startsWith(code)) {
                continue; // an entry naming a path outside the directory is skipped
            }
            if (e.isDirectory()) {
                Files.createDirectories(to);
            } else if (!Files.exists(to)) {
                Files.createDirectories(to.getParent());
                try (InputStream in = jar.getInputStream(e)) {
                    Files.copy(in, to);
                }
            }
        }
    }

    Path root() {
        return root;
    }

    String codeDir() {
        return code.toString();
    }

    String pidDir() {
        return pids.toString();
    }

    @Override
    public void close() {
        LIVE.remove(root);
        delete(root);
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
