package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.blobstore.AtomicOutputStream;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.blobstore.InputStreamWithMeta;
import org.apache.storm.blobstore.NimbusBlobStore;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storm blobstore} against the server: storm-client's {@code NimbusBlobStore} over Thrift creates, reads,
 * updates, lists and deletes blobs, with Nimbus's errors, and the blobs are still there after a restart.
 */
class ServerBlobStoreTest {
    @TempDir
    Path dir;

    private static NimbusBlobStore client(MicroburstServer server) {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        NimbusBlobStore store = new NimbusBlobStore();
        store.prepare(conf);
        return store;
    }

    private static String read(NimbusBlobStore store, String key) throws Exception {
        try (InputStreamWithMeta in = store.getBlob(key)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    private static List<String> keys(NimbusBlobStore store) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = store.listKeys(); it.hasNext(); ) {
            keys.add(it.next());
        }
        return keys;
    }

    @Test
    void blobsOverThriftSurviveARestart() throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        SettableBlobMeta meta = new SettableBlobMeta(List.of(BlobStoreAclHandler.parseAccessControl("o::rwa")));
        try (MicroburstServer server = MicroburstServer.start(conf); NimbusBlobStore store = client(server)) {
            try (AtomicOutputStream out = store.createBlob("dictionary", meta)) {
                out.write("first".getBytes(StandardCharsets.UTF_8));
            }
            assertEquals("dictionary", assertThrows(KeyAlreadyExistsException.class,
                () -> store.createBlob("dictionary", meta)).get_msg());
            try (AtomicOutputStream out = store.updateBlob("dictionary")) {
                out.write("second".getBytes(StandardCharsets.UTF_8));
            }
            try (AtomicOutputStream out = store.createBlob("scratch", meta)) {
                out.write("x".getBytes(StandardCharsets.UTF_8));
            }
            store.deleteBlob("scratch");
            assertEquals("scratch", assertThrows(KeyNotFoundException.class, () -> store.getBlobMeta("scratch"))
                .get_msg());
        }
        try (MicroburstServer restarted = MicroburstServer.start(conf); NimbusBlobStore store = client(restarted)) {
            assertEquals(List.of("dictionary"), keys(store));
            assertEquals("second", read(store, "dictionary"));
        }
    }
}
