package io.microburst.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.storm.blobstore.AtomicOutputStream;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.blobstore.ClientBlobStore;
import org.apache.storm.blobstore.InputStreamWithMeta;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * storm-client's own blob store client ({@code Utils.getClientBlobStore}, a {@code NimbusBlobStore}), as a topology
 * main under {@code microburst local} uses it: through the in-process Nimbus, to the cluster's blob store.
 */
class LocalNimbusBlobTest {

    private static String read(ClientBlobStore store, String key) throws Exception {
        try (InputStreamWithMeta in = store.getBlob(key)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            assertEquals(in.getFileLength(), out.size());
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void storeClientCreatesReadsUpdatesListsAndDeletes() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster();
             NimbusClient.LocalOverride override = new NimbusClient.LocalOverride(new LocalNimbus(cluster, Map.of()))) {
            Map<String, Object> conf = Utils.readStormConfig();
            ClientBlobStore store = Utils.getClientBlobStore(conf);
            SettableBlobMeta meta = new SettableBlobMeta(List.of(BlobStoreAclHandler.parseAccessControl("o::rwa")));
            // larger than a download chunk (64 KiB), so that reading takes several
            String big = "word ".repeat(40_000);
            try (AtomicOutputStream out = store.createBlob("big", meta)) {
                out.write(big.getBytes(StandardCharsets.UTF_8));
            }
            assertEquals(big, read(store, "big"));
            assertEquals("big", assertThrows(KeyAlreadyExistsException.class, () -> store.createBlob("big", meta))
                .get_msg());
            long first = store.getBlobMeta("big").get_version();

            try (AtomicOutputStream out = store.updateBlob("big")) {
                out.write("small".getBytes(StandardCharsets.UTF_8));
            }
            assertEquals("small", read(store, "big"));
            assertTrue(store.getBlobMeta("big").get_version() > first);

            List<String> keys = new ArrayList<>();
            for (Iterator<String> it = store.listKeys(); it.hasNext(); ) {
                keys.add(it.next());
            }
            assertEquals(List.of("big"), keys);
            assertEquals(1, store.getBlobReplication("big"));

            store.deleteBlob("big");
            assertEquals("big", assertThrows(KeyNotFoundException.class, () -> store.getBlobMeta("big")).get_msg());
            assertEquals("big", assertThrows(KeyNotFoundException.class, () -> store.updateBlob("big")).get_msg());
            assertEquals("big", assertThrows(KeyNotFoundException.class, () -> store.getBlob("big")).get_msg());
            store.close();
        }
    }
}
