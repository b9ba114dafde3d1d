package io.microburst.state;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.rocksdb.NativeLibraryLoader;
import org.rocksdb.RocksDB;

/**
 * Loads RocksDB's native library once per process. RocksDB's own loader copies the library (15 MB) out of its jar into
 * a new file in the temporary folder at every start and deletes it when the JVM exits, so each process killed with
 * {@code kill -9} leaves its copy for ever (a server restarted after ten kills held ten). Here each process copies it
 * into a folder named by its pid, {@code java.io.tmpdir/microburst-rocksdb-USER/PID/}, after deleting the folders of
 * processes that are gone: whatever crashes, no more copies remain than processes using the store. A library that
 * RocksDB finds by itself ({@code java.library.path}, {@code ROCKSDB_SHAREDLIB_DIR}) is loaded as RocksDB loads it.
 *
 * <p>Threading: {@link #load()} runs in {@link RocksDbStore}'s class initialisation, once per JVM.
 */
final class RocksDbLibrary {
    private RocksDbLibrary() {
    }

    static void load() {
        if (System.getenv("ROCKSDB_SHAREDLIB_DIR") == null) {
            Path parent = Path.of(System.getProperty("java.io.tmpdir"),
                "microburst-rocksdb-" + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_"));
            try {
                Files.createDirectories(parent);
                deleteThoseOfEndedProcesses(parent);
                Path own = Files.createDirectories(parent.resolve(Long.toString(ProcessHandle.current().pid())));
                // deleted last at a normal exit, after the library file the loader marks for deletion
                own.toFile().deleteOnExit();
                // copies into own/, unless the library is on java.library.path; RocksDB's loader then skips its copy
                NativeLibraryLoader.getInstance().loadLibrary(own.toString());
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot load RocksDB's native library into " + parent + ": "
                    + e.getMessage(), e);
            }
        }
        RocksDB.loadLibrary();
    }

    private static void deleteThoseOfEndedProcesses(Path parent) throws IOException {
        try (Stream<Path> folders = Files.list(parent)) {
            for (Path folder : (Iterable<Path>) folders::iterator) {
                String name = folder.getFileName().toString();
                if (name.matches("\\d{1,18}") && ProcessHandle.of(Long.parseLong(name)).isEmpty()) {
                    deleteQuietly(folder);
                }
            }
        }
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException | UncheckedIOException e) {
            // another process deleting the same folder at the same time: one of the two gets it
        }
    }
}
