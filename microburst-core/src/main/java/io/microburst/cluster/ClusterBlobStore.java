package io.microburst.cluster;

import io.microburst.blobstore.BlobLocalizer;
import io.microburst.blobstore.BlobStoreCalls;
import io.microburst.blobstore.LocalBlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A cluster's blob store, with the Nimbus blob calls ({@code beginCreateBlob}, {@code uploadBlobChunk} ...) that
 * {@code NimbusBlobStore} uses, and the localizer that links the blobs a topology's {@code topology.blobstore.map}
 * names into its working directory, kept current. Made at first use: in the folder the cluster configuration names
 * ({@code microburst.blobstore.dir}, kept across runs), else in a temporary folder that {@link #close()} deletes.
 *
 * <p>Threading: any thread; made under the cluster's {@link OpenGuard}, closed by the thread that closes the cluster.
 */
public final class ClusterBlobStore {
    private final Map<String, Object> clusterConf;
    private final Object configuredDir;
    private final OpenGuard open;
    /** Guarded by {@link #open}, as the three below. */
    private BlobStoreCalls calls;
    private BlobLocalizer localizer;
    /** The folder made for the blobs when none was configured, else null. */
    private Path tempDir;

    /** {@code configuredDir}: the folder setting of the cluster configuration, or null for a temporary folder. */
    public ClusterBlobStore(Map<String, Object> clusterConf, Object configuredDir, OpenGuard open) {
        this.clusterConf = clusterConf;
        this.configuredDir = configuredDir;
        this.open = open;
    }

    /** The blob store with Nimbus's blob calls, made at the first call. */
    public BlobStoreCalls calls() {
        synchronized (open) {
            open.check();
            if (calls == null) {
                Path root;
                try {
                    if (configuredDir != null) {
                        root = Path.of(configuredDir.toString());
                    } else {
                        tempDir = Files.createTempDirectory("microburst-blobs-");
                        root = tempDir;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot create a folder for the blob store", e);
                }
                localizer = new BlobLocalizer(new LocalBlobStore(root, clusterConf));
                calls = new BlobStoreCalls(localizer.store(), clusterConf, localizer::userOf);
            }
            return calls;
        }
    }

    /** The localizer over the blob store, made with it. */
    public BlobLocalizer localizer() {
        synchronized (open) {
            calls();
            return localizer;
        }
    }

    /** Stops the localizer and deletes a temporary folder; call once the topologies are stopped. */
    public void close() {
        synchronized (open) {
            if (localizer != null) {
                localizer.close();
            }
            if (tempDir != null) {
                try (Stream<Path> paths = Files.walk(tempDir)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // a temporary folder left behind is harmless
                }
            }
        }
    }
}
