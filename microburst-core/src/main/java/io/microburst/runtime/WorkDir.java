package io.microburst.runtime;

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
import java.util.Comparator;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * A topology's working directory, as a Storm worker has one: {@code code/} holds the topology's {@code resources}
 * folder (multi-lang scripts are started there) and {@code pids/} receives the pid files of multi-lang subprocesses.
 * It is deleted when the topology stops.
 */
final class WorkDir implements AutoCloseable {
    private static final String RESOURCES = "resources";
    private final Path root;
    private final Path code;
    private final Path pids;

    private WorkDir(Path root) throws IOException {
        this.root = root;
        this.code = Files.createDirectories(root.resolve("code"));
        this.pids = Files.createDirectories(root.resolve("pids"));
    }

    /** Creates the directory and copies the {@code resources} folder visible to {@code loader}, if there is one. */
    static WorkDir create(String topologyName, ClassLoader loader) {
        try {
            WorkDir dir = new WorkDir(Files.createTempDirectory("microburst-" + topologyName.replaceAll("[^A-Za-z0-9_-]",
                "_") + "-"));
            dir.copyResources(loader);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a working directory for topology '" + topologyName + "'", e);
        }
    }

    private void copyResources(ClassLoader loader) throws IOException {
        URL url = loader.getResource(RESOURCES);
        if (url == null) {
            return;
        }
        Path target = code.resolve(RESOURCES);
        if ("file".equals(url.getProtocol())) {
            Path source;
            try {
                source = Paths.get(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("Bad resources location " + url, e);
            }
            try (Stream<Path> files = Files.walk(source)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Path to = target.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        } else if ("jar".equals(url.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) url.openConnection();
            connection.setUseCaches(false);
            try (JarFile jar = connection.getJarFile()) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry e = entries.nextElement();
                    if (!e.getName().startsWith(RESOURCES + "/")) {
                        continue;
                    }
                    Path to = code.resolve(e.getName()).normalize();
                    if (!to.startsWith(code)) {
                        continue; // an entry naming a path outside the directory is skipped
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(to);
                    } else {
                        Files.createDirectories(to.getParent());
                        try (InputStream in = jar.getInputStream(e)) {
                            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            }
        }
    }

    String codeDir() {
        return code.toString();
    }

    String pidDir() {
        return pids.toString();
    }

    @Override
    public void close() {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
