package io.microburst.blobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.storm.Config;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.generated.BeginDownloadResult;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.ListBlobsResult;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Nimbus blob calls over the local store, and the blobs a topology gets in its working directory. */
@Timeout(180)
class BlobStoreTest {
    @TempDir
    Path dir;

    private static SettableBlobMeta ownerAll() {
        return new SettableBlobMeta(List.of(BlobStoreAclHandler.parseAccessControl("o::rwa")));
    }

    private static void put(BlobStoreCalls calls, String session, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        // two chunks, as a client writing in pieces sends them
        calls.uploadBlobChunk(session, ByteBuffer.wrap(bytes, 0, bytes.length / 2));
        calls.uploadBlobChunk(session, ByteBuffer.wrap(bytes, bytes.length / 2, bytes.length - bytes.length / 2));
    }

    private static void create(BlobStoreCalls calls, String key, String text) throws Exception {
        String session = calls.beginCreateBlob(key, ownerAll());
        put(calls, session, text);
        calls.finishBlobUpload(session);
    }

    private static void update(BlobStoreCalls calls, String key, String text) throws Exception {
        String session = calls.beginUpdateBlob(key);
        put(calls, session, text);
        calls.finishBlobUpload(session);
    }

    private static String download(BlobStoreCalls calls, String key) throws Exception {
        BeginDownloadResult begin = calls.beginBlobDownload(key);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer chunk = calls.downloadBlobChunk(begin.get_session()); chunk.hasRemaining();
             chunk = calls.downloadBlobChunk(begin.get_session())) {
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            out.write(bytes);
        }
        assertEquals(begin.get_data_size(), out.size());
        return out.toString(StandardCharsets.UTF_8);
    }

    private BlobStoreCalls calls(Map<String, Object> conf) {
        return new BlobStoreCalls(new LocalBlobStore(dir.resolve("blobs"), conf), conf, key -> null);
    }

    @Test
    void createReadUpdateListAndDeleteAsNimbusDoes() throws Exception {
        // a small chunk size, so that downloads take several chunks
        BlobStoreCalls calls = calls(Map.of(Config.STORM_BLOBSTORE_INPUTSTREAM_BUFFER_SIZE_BYTES, 4));
        create(calls, "words", "the cow jumped");
        assertEquals("the cow jumped", download(calls, "words"));
        long first = calls.getBlobMeta("words").get_version();

        assertEquals("words", assertThrows(KeyAlreadyExistsException.class,
            () -> calls.beginCreateBlob("words", ownerAll())).get_msg());

        update(calls, "words", "over the moon");
        assertEquals("over the moon", download(calls, "words"));
        assertTrue(calls.getBlobMeta("words").get_version() > first);

        String cancelled = calls.beginUpdateBlob("words");
        put(calls, cancelled, "never stored");
        calls.cancelBlobUpload(cancelled);
        assertEquals("over the moon", download(calls, "words"));

        create(calls, "another", "x");
        ListBlobsResult listing = calls.listBlobs("");
        assertEquals(List.of("another", "words"), listing.get_keys());
        assertEquals(List.of(), calls.listBlobs(listing.get_session()).get_keys());
        assertEquals(1, calls.getBlobReplication("words"));
        assertTrue(calls.isRemoteBlobExists("words"));

        calls.deleteBlob("words");
        assertFalse(calls.isRemoteBlobExists("words"));
        for (ThrowingCall call : List.<ThrowingCall>of(() -> calls.getBlobMeta("words"),
            () -> calls.beginUpdateBlob("words"), () -> calls.beginBlobDownload("words"),
            () -> calls.deleteBlob("words"), () -> calls.setBlobMeta("words", ownerAll()),
            () -> calls.getBlobReplication("words"))) {
            assertEquals("words", assertThrows(KeyNotFoundException.class, call::run).get_msg());
        }
        assertEquals(List.of("another"), calls.listBlobs("").get_keys());
    }

    @Test
    void aCreateIsNotVisibleUntilFinishedAndBadKeysAreRefused() throws Exception {
        BlobStoreCalls calls = calls(Map.of());
        String session = calls.beginCreateBlob("pending", ownerAll());
        put(calls, session, "data");
        assertThrows(KeyNotFoundException.class, () -> calls.getBlobMeta("pending"));
        calls.finishBlobUpload(session);
        assertEquals("data", download(calls, "pending"));
        // a key may be named like the store's own folders
        create(calls, "uploads", "not an upload");
        assertEquals("not an upload", download(calls, "uploads"));
        assertEquals(List.of("pending", "uploads"), calls.listBlobs("").get_keys());

        String message = assertThrows(IllegalArgumentException.class,
            () -> calls.beginCreateBlob("../escape", ownerAll())).getMessage();
        assertTrue(message.contains("../escape") && message.contains("valid blob key"), message);
        assertThrows(IllegalStateException.class, () -> calls.uploadBlobChunk("no-such-session", ByteBuffer.allocate(1)));
        assertThrows(UnsupportedOperationException.class, () -> calls.updateBlobReplication("pending", 3));
    }

    @Test
    void blobsOutliveTheStoreObject() throws Exception {
        create(calls(Map.of()), "kept", "still here");
        assertEquals("still here", download(calls(Map.of()), "kept"));
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    /** Reads the blob the topology localized under {@code localname} at every tuple, and records what it saw. */
    public static class ReadsLocalizedFile extends BaseRichBolt {
        static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
        private transient Path file;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            // Storm's local mode puts the link next to the code directory (supervisor/stormdist/<id>/)
            file = Path.of(context.getCodeDir()).getParent().resolve("dictionary.txt");
        }

        @Override
        public void execute(Tuple input) {
            try {
                SEEN.add(Files.isDirectory(file) ? "dir:" + Files.readString(file.resolve("inner.txt"))
                    : Files.readString(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static void awaitSeen(String content) throws InterruptedException {
        while (!ReadsLocalizedFile.SEEN.contains(content)) {
            Thread.sleep(20);
        }
    }

    private static TopologyBuilder readingTopology() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout());
        b.setBolt("reader", new ReadsLocalizedFile()).shuffleGrouping("words");
        return b;
    }

    @Test
    void aTopologyReadsItsBlobAndSeesUpdates() throws Exception {
        ReadsLocalizedFile.SEEN.clear();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            BlobStoreCalls calls = cluster.blobStore();
            create(calls, "dictionary", "first");
            Config conf = new Config();
            conf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of("dictionary", Map.of("localname", "dictionary.txt")));
            conf.put(BlobLocalizer.UPDATE_INTERVAL_SECS, 1);
            cluster.submitTopology("reads-blob", conf, readingTopology().createTopology());
            awaitSeen("first");

            update(calls, "dictionary", "second");
            awaitSeen("second");

            String inUse = assertThrows(org.apache.storm.generated.IllegalStateException.class,
                () -> calls.deleteBlob("dictionary")).get_msg();
            assertTrue(inUse.contains("dictionary") && inUse.contains("reads-blob"), inUse);
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("reads-blob", now);
            while (!cluster.getTopologySummaries().isEmpty()) {
                Thread.sleep(20);
            }
            calls.deleteBlob("dictionary");
        }
    }

    @Test
    void aMissingKeyRefusesTheSubmitNamingIt() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            Config conf = new Config();
            conf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of("absent", Map.of("localname", "dictionary.txt")));
            InvalidTopologyException refused = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("no-blob", conf, readingTopology().createTopology()));
            assertEquals("Key not found: absent", refused.get_msg());
            assertTrue(cluster.getTopologySummaries().isEmpty());

            create(cluster.blobStore(), "dictionary", "x");
            conf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of("dictionary", Map.of("localname", "../outside")));
            String bad = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("bad-name", conf, readingTopology().createTopology())).get_msg();
            assertTrue(bad.contains("../outside") && bad.contains("dictionary"), bad);
        }
    }

    /** The archive formats Storm's localizer unpacks, named with its suffixes. */
    @ParameterizedTest
    @ValueSource(strings = {"dictionary.zip", "dictionary.jar", "dictionary.tar", "dictionary.tgz", "dictionary.tar.gz",
        "dictionary_tar_gz"})
    void anArchiveIsUnpackedWhenAsked(String key) throws Exception {
        ReadsLocalizedFile.SEEN.clear();
        byte[] archive = BlobLocalizer.Archive.of(key) == BlobLocalizer.Archive.ZIP
            ? zip(Map.of("inner.txt", "packed")) : tar(Map.of("inner.txt", "packed"), !key.endsWith("tar"));
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            BlobStoreCalls calls = cluster.blobStore();
            String session = calls.beginCreateBlob(key, ownerAll());
            calls.uploadBlobChunk(session, ByteBuffer.wrap(archive));
            calls.finishBlobUpload(session);
            Config conf = new Config();
            conf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of(key, Map.of("localname", "dictionary.txt", "uncompress", true)));
            cluster.submitTopology("reads-archive", conf, readingTopology().createTopology());
            awaitSeen("dir:packed");
        }
    }

    @Test
    void aTarKeepsFoldersAndTheExecuteBitAndRefusesEntriesOutsideItsFolder() throws Exception {
        Path archive = dir.resolve("good.tgz");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            TarArchiveEntry folder = new TarArchiveEntry("bin/");
            out.putArchiveEntry(folder);
            out.closeArchiveEntry();
            addFile(out, "bin/run.sh", "echo hi", 0755);
            addFile(out, "data/words.txt", "a b", 0644);
            TarArchiveEntry link = new TarArchiveEntry("escape", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("/etc/passwd");
            out.putArchiveEntry(link);
            out.closeArchiveEntry();
        }
        Files.write(archive, bytes.toByteArray());
        Path into = dir.resolve("good");
        BlobLocalizer.Archive.of("good.tgz").unpack(archive, into);
        assertTrue(Files.isExecutable(into.resolve("bin/run.sh")), "execute bit kept");
        assertFalse(Files.isExecutable(into.resolve("data/words.txt")), "no execute bit added");
        assertEquals("a b", Files.readString(into.resolve("data/words.txt")));
        assertFalse(Files.exists(into.resolve("escape"), java.nio.file.LinkOption.NOFOLLOW_LINKS), "link not created");

        Path evil = dir.resolve("evil.tar");
        Files.write(evil, tar(Map.of("../outside.txt", "x"), false));
        IOException refused = assertThrows(IOException.class,
            () -> BlobLocalizer.Archive.of("evil.tar").unpack(evil, dir.resolve("evil")));
        assertTrue(refused.getMessage().contains("../outside.txt"), refused.getMessage());
        assertFalse(Files.exists(dir.resolve("outside.txt")));
        assertEquals(BlobLocalizer.Archive.NONE, BlobLocalizer.Archive.of("notes.txt"));
    }

    private static byte[] zip(Map<String, String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                out.putNextEntry(new ZipEntry(f.getKey()));
                out.write(f.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static byte[] tar(Map<String, String> files, boolean gzip) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(gzip ? new GZIPOutputStream(bytes) : bytes)) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                addFile(out, f.getKey(), f.getValue(), 0644);
            }
        }
        return bytes.toByteArray();
    }

    private static void addFile(TarArchiveOutputStream out, String name, String text, int mode) throws IOException {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        entry.setMode(mode);
        out.putArchiveEntry(entry);
        out.write(content);
        out.closeArchiveEntry();
    }
}
