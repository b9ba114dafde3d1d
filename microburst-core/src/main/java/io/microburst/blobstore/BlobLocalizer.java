package io.microburst.blobstore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the blobs a topology names in {@code topology.blobstore.map} into its working directory, and keeps them
 * current, as Storm's supervisor localizer does: each blob appears as {@code <dir>/<localname>} (the key when no
 * {@code localname} is given), a symbolic link to the version last fetched, which is a file, or with
 * {@code uncompress} true and a key naming a zip, jar, tar, tgz or tar.gz archive, a folder holding the unpacked
 * archive. Every {@code supervisor.localizer.update.blob.interval.secs} (Storm's default, 30) the versions are
 * compared with the store's and a newer one replaces the link at once (a reader opening the name sees the old or the
 * new version, never a part). Under Storm's local mode the same link is in the folder above {@code TopologyContext.getCodeDir()}; here
 * too (the code directory is {@code <dir>/code}).
 *
 * <p>Thread-safe. Updates run on one daemon thread of the localizer's own, never on a topology's threads.
 */
public final class BlobLocalizer implements AutoCloseable {
    /** Storm's name of the interval between two checks for newer versions. */
    public static final String UPDATE_INTERVAL_SECS = "supervisor.localizer.update.blob.interval.secs";
    private static final Logger LOG = LoggerFactory.getLogger(BlobLocalizer.class);
    private static final String VERSIONS = ".blobs";

    private final LocalBlobStore store;
    private final Set<Localized> live = ConcurrentHashMap.newKeySet();
    private ScheduledThreadPoolExecutor updater;

    public BlobLocalizer(LocalBlobStore store) {
        this.store = store;
    }

    /** The store blobs are fetched from. */
    public LocalBlobStore store() {
        return store;
    }

    /** One blob of a topology: where it goes, and the version last put there. */
    private static final class Entry {
        final String key;
        final String localName;
        final boolean uncompress;
        long version = -1;
        Path current;

        Entry(String key, String localName, boolean uncompress) {
            this.key = key;
            this.localName = localName;
            this.uncompress = uncompress;
        }
    }

    /**
     * Checks a topology's {@code topology.blobstore.map} as Nimbus checks it at submit: every key exists, options are
     * booleans, and local names stay inside the working directory.
     *
     * @throws InvalidTopologyException naming the missing key ("Key not found: key") or the bad option
     */
    public static void validate(Map<String, Object> topoConf, LocalBlobStore store) throws InvalidTopologyException {
        for (Entry e : entries(topoConf)) {
            if (!store.exists(e.key)) {
                throw new WrappedInvalidTopologyException("Key not found: " + e.key);
            }
        }
    }

    private static List<Entry> entries(Map<String, Object> topoConf) throws InvalidTopologyException {
        Object map = topoConf.get(Config.TOPOLOGY_BLOBSTORE_MAP);
        List<Entry> entries = new ArrayList<>();
        if (map == null) {
            return entries;
        }
        if (!(map instanceof Map<?, ?> blobs)) {
            throw new WrappedInvalidTopologyException(Config.TOPOLOGY_BLOBSTORE_MAP + " must be a map of blob key to options, not "
                + map);
        }
        for (Map.Entry<?, ?> blob : blobs.entrySet()) {
            String key = String.valueOf(blob.getKey());
            Map<?, ?> options = blob.getValue() instanceof Map<?, ?> m ? m : Map.of();
            boolean uncompress;
            try {
                uncompress = ObjectReader.getBoolean(options.get("uncompress"), false);
                ObjectReader.getBoolean(options.get("workerRestart"), false);
            } catch (IllegalArgumentException bad) {
                throw new WrappedInvalidTopologyException("Invalid blob conf option: " + bad.getMessage());
            }
            String localName = options.get("localname") == null ? key : String.valueOf(options.get("localname"));
            Path name = Path.of(localName).normalize();
            if (localName.isEmpty() || name.isAbsolute() || name.startsWith("..") || name.getNameCount() != 1
                || localName.equals(VERSIONS) || localName.equals("code") || localName.equals("pids")) {
                throw new WrappedInvalidTopologyException("Invalid local name '" + localName + "' for blob " + key + " in "
                    + Config.TOPOLOGY_BLOBSTORE_MAP + ": it must be a plain file name");
            }
            entries.add(new Entry(key, localName, uncompress));
        }
        return entries;
    }

    /**
     * Puts every blob of the topology into {@code dir} and keeps them current until the returned handle is closed.
     *
     * @param topologyId the topology's id, which {@link #userOf} answers
     * @param running whether the topology still runs: once false, its blobs are no longer updated
     * @throws InvalidTopologyException if a key is missing or the map is not valid
     */
    public Localized localize(String topologyId, Map<String, Object> topoConf, Path dir,
                              java.util.function.BooleanSupplier running) throws InvalidTopologyException {
        List<Entry> entries = entries(topoConf);
        Localized localized = new Localized(topologyId, dir, entries, running);
        if (entries.isEmpty()) {
            return localized;
        }
        for (Entry e : entries) {
            try {
                localized.refresh(e);
            } catch (KeyNotFoundException missing) {
                throw new WrappedInvalidTopologyException("Key not found: " + e.key);
            } catch (AuthorizationException | IOException | UncheckedIOException failed) {
                InvalidTopologyException invalid = new WrappedInvalidTopologyException("Cannot localize blob " + e.key
                    + " as " + e.localName + ": " + failed.getMessage());
                invalid.initCause(failed);
                throw invalid;
            }
        }
        long periodSecs = Math.max(1, ObjectReader.getInt(topoConf.get(UPDATE_INTERVAL_SECS), 30));
        live.add(localized);
        localized.schedule(updater(), periodSecs);
        return localized;
    }

    /** The id of a running topology that localizes {@code key}, or null. */
    public String userOf(String key) {
        for (Localized l : live) {
            if (!l.running.getAsBoolean()) {
                l.close();
                continue;
            }
            for (Entry e : l.entries) {
                if (e.key.equals(key)) {
                    return l.topologyId;
                }
            }
        }
        return null;
    }

    private synchronized ScheduledThreadPoolExecutor updater() {
        if (updater == null) {
            updater = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "microburst-blob-localizer");
                t.setDaemon(true);
                return t;
            });
            updater.setRemoveOnCancelPolicy(true);
        }
        return updater;
    }

    /** Stops updating every topology's blobs. */
    @Override
    public synchronized void close() {
        live.forEach(Localized::close);
        if (updater != null) {
            updater.shutdownNow();
            updater = null;
        }
    }

    /** The blobs of one running topology; {@link #close()} stops their updates (the files go with the directory). */
    public final class Localized implements AutoCloseable {
        private final String topologyId;
        private final Path dir;
        private final List<Entry> entries;
        private final java.util.function.BooleanSupplier running;
        private volatile ScheduledFuture<?> updates;
        private volatile boolean closed;

        private Localized(String topologyId, Path dir, List<Entry> entries, java.util.function.BooleanSupplier running) {
            this.topologyId = topologyId;
            this.dir = dir;
            this.entries = entries;
            this.running = running;
        }

        private void schedule(ScheduledThreadPoolExecutor executor, long periodSecs) {
            updates = executor.scheduleWithFixedDelay(this::refreshAll, periodSecs, periodSecs, TimeUnit.SECONDS);
        }

        private void refreshAll() {
            if (!running.getAsBoolean()) {
                close();
                return;
            }
            for (Entry e : entries) {
                if (closed) {
                    return;
                }
                try {
                    refresh(e);
                } catch (Exception | Error failed) {
                    LOG.warn("Could not update blob {} of topology {} ({}); will retry", e.key, topologyId,
                        failed.toString());
                }
            }
        }

        /** Fetches the blob when the store holds a newer version than the one in place. */
        private synchronized void refresh(Entry e) throws KeyNotFoundException, AuthorizationException, IOException {
            if (closed || e.version == store.meta(e.key).get_version()) {
                return;
            }
            Path versions = Files.createDirectories(dir.resolve(VERSIONS));
            LocalBlobStore.Opened opened = store.open(e.key);
            Path target = versions.resolve(e.localName + "." + opened.version());
            Path download = versions.resolve(e.localName + "." + opened.version() + ".part");
            try (InputStream in = opened.in()) {
                Files.copy(in, download, StandardCopyOption.REPLACE_EXISTING);
            }
            deleteTree(target);
            Archive archive = e.uncompress ? Archive.of(e.key) : Archive.NONE;
            if (archive != Archive.NONE) {
                archive.unpack(download, target);
                Files.delete(download);
            } else {
                if (e.uncompress) {
                    LOG.warn("Blob {} is localized as is: only zip, jar, tar, tgz and tar.gz archives are unpacked",
                        e.key);
                }
                Files.move(download, target, StandardCopyOption.ATOMIC_MOVE);
            }
            Path link = versions.resolve(e.localName + ".link");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
            Files.move(link, dir.resolve(e.localName), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            Path previous = e.current;
            e.version = opened.version();
            e.current = target;
            if (previous != null && !previous.equals(target)) {
                deleteTree(previous);
            }
            LOG.info("Blob {} version {} localized as {} for topology {}", e.key, e.version,
                dir.resolve(e.localName), topologyId);
        }

        /** Stops updates of this topology's blobs. */
        @Override
        public void close() {
            closed = true;
            live.remove(this);
            ScheduledFuture<?> u = updates;
            if (u != null) {
                u.cancel(false);
            }
            synchronized (this) {
                // waits for an update in progress to end
            }
        }
    }

    /** How a key's name says its blob is packed, with Storm's localizer's suffixes ({@code .tgz} or {@code _tgz}...). */
    enum Archive {
        NONE, ZIP, TAR, TAR_GZ;

        static Archive of(String key) {
            String name = key.toLowerCase(Locale.ROOT);
            if (endsWith(name, "zip") || endsWith(name, "jar")) {
                return ZIP;
            }
            if (endsWith(name, "tar.gz") || endsWith(name, "tar_gz") || endsWith(name, "tgz")) {
                return TAR_GZ;
            }
            return endsWith(name, "tar") ? TAR : NONE;
        }

        private static boolean endsWith(String name, String suffix) {
            return name.endsWith("." + suffix) || name.endsWith("_" + suffix);
        }

        /** Unpacks the archive into a new folder; an entry that would land outside it fails the whole unpack. */
        void unpack(Path archive, Path into) throws IOException {
            Files.createDirectories(into);
            switch (this) {
                case ZIP -> unzip(archive, into);
                case TAR -> untar(Files.newInputStream(archive), into);
                case TAR_GZ -> untar(new GZIPInputStream(Files.newInputStream(archive)), into);
                default -> throw new IllegalStateException("not an archive: " + archive);
            }
        }
    }

    private static void unzip(Path archive, Path into) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path to = inside(into, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(zip, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * Regular files and folders, with the owner's execute bit kept (a packed script stays runnable); links and devices
     * are skipped with a warning rather than created, so nothing in the archive points outside the folder.
     */
    private static void untar(InputStream in, Path into) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path to = inside(into, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(to);
                } else if (entry.isFile() && !entry.isSymbolicLink() && !entry.isLink()) {
                    Files.createDirectories(to.getParent());
                    Files.copy(tar, to, StandardCopyOption.REPLACE_EXISTING);
                    if ((entry.getMode() & 0100) != 0) {
                        to.toFile().setExecutable(true, true);
                    }
                } else {
                    LOG.warn("Archive entry {} is not a file or folder: skipped", entry.getName());
                }
            }
        }
    }

    private static Path inside(Path into, String entryName) throws IOException {
        Path to = into.resolve(entryName).normalize();
        if (!to.startsWith(into)) {
            throw new IOException("Archive entry " + entryName + " points outside " + into);
        }
        return to;
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
