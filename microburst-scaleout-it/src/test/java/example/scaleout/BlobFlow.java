package example.scaleout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.blobstore.AtomicOutputStream;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.blobstore.ClientBlobStore;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * A topology main that uses the blob store as a Storm user does, through {@code Utils.getClientBlobStore} (Nimbus's
 * blob calls): errors for a missing key, create, read, a refused submit, a topology whose
 * {@code topology.blobstore.map} puts the blob next to its code directory, an update the running bolt reads, a
 * refused delete while the topology uses the blob, then kill and delete. Every step prints one {@code BLOBFLOW} line,
 * which the scale-out test compares between Microburst and a Storm cluster. The bolt may run in another process (a
 * Storm worker): it records each content it read as a file under the directory given as the first argument.
 */
public final class BlobFlow {
    private static final String KEY = "blobflow-dictionary";
    private static final String LOCAL_NAME = "dictionary.txt";
    private static final long WAIT_MS = TimeUnit.SECONDS.toMillis(150);

    private BlobFlow() {
    }

    private static void say(String line) {
        System.out.println("BLOBFLOW " + line);
        System.out.flush();
    }

    /** Emits a tuple every 20 ms. */
    public static class Ticks extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            Utils.sleep(20);
            collector.emit(new Values("tick"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("tick"));
        }
    }

    /** Reads the localized blob at every tuple, next to its code directory, and records each content it read. */
    public static class ReadsBlob extends BaseRichBolt {
        private final String seenDir;
        private transient Path file;
        private transient Set<String> seen;

        public ReadsBlob(String seenDir) {
            this.seenDir = seenDir;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            file = Path.of(context.getCodeDir()).getParent().resolve(LOCAL_NAME);
            seen = new HashSet<>();
        }

        @Override
        public void execute(Tuple input) {
            try {
                if (Files.exists(file)) {
                    String content = Files.readString(file, StandardCharsets.UTF_8);
                    if (seen.add(content)) {
                        Files.writeString(seenFile(seenDir, content), content, StandardCharsets.UTF_8);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static Path seenFile(String dir, String content) {
        return Path.of(dir, "seen-" + content.replaceAll("[^A-Za-z0-9]", "_"));
    }

    private static void write(AtomicOutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.close();
    }

    private static String read(ClientBlobStore store, String key) throws Exception {
        try (InputStream in = store.getBlob(key)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** The simple name of the exception (or of its first cause that is one of Storm's Thrift errors) and message. */
    private static String error(Throwable t) {
        Throwable shown = t;
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getClass().getName().startsWith("org.apache.storm.generated.")) {
                shown = c;
                break;
            }
        }
        String message = shown.getMessage();
        try {
            // Storm's Thrift errors carry their text in msg
            message = String.valueOf(shown.getClass().getMethod("get_msg").invoke(shown));
        } catch (ReflectiveOperationException notThrift) {
            // an exception of another kind: its message
        }
        // a topology id ends with the submission's sequence number and time, which differ from run to run
        message = message == null ? "" : message.replaceAll("-\\d+-\\d+\\b", "-<n>-<time>");
        return shown.getClass().getSimpleName() + ": " + message;
    }

    private interface Step {
        Object run() throws Exception;
    }

    private static void expectError(String what, Step step) {
        try {
            say(what + " -> no error: " + step.run());
        } catch (Exception e) {
            say(what + " -> " + error(e));
        }
    }

    private static boolean await(String seenDir, String content) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!Files.exists(seenFile(seenDir, content))) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Arguments: the directory the bolt records what it read in, and the topology's name. */
    public static void main(String[] args) throws Exception {
        String seenDir = Files.createDirectories(Path.of(args[0])).toString();
        String name = args[1];
        Map<String, Object> conf = Utils.readStormConfig();
        ClientBlobStore store = Utils.getClientBlobStore(conf);

        expectError("getBlobMeta of a missing key", () -> store.getBlobMeta("blobflow-missing"));
        expectError("updateBlob of a missing key", () -> store.updateBlob("blobflow-missing"));
        expectError("getBlob of a missing key", () -> store.getBlob("blobflow-missing"));
        expectError("deleteBlob of a missing key", () -> {
            store.deleteBlob("blobflow-missing");
            return "deleted";
        });

        SettableBlobMeta meta = new SettableBlobMeta(List.of(BlobStoreAclHandler.parseAccessControl("o::rwa")));
        write(store.createBlob(KEY, meta), "first version");
        say("created, reads back: " + read(store, KEY));
        expectError("createBlob of an existing key", () -> store.createBlob(KEY, meta));
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = store.listKeys(); it.hasNext(); ) {
            String key = it.next();
            // a Storm cluster's Nimbus also lists the blobs it keeps for each topology (its jar, code and
            // configuration, named after the topology's id) for a while after the kill
            if (key.startsWith(KEY)) {
                keys.add(key);
            }
        }
        say("listed: " + keys);
        say("replication: " + store.getBlobReplication(KEY));

        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ticks", new Ticks());
        builder.setBolt("reader", new ReadsBlob(seenDir)).shuffleGrouping("ticks");
        Config topoConf = new Config();
        topoConf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of("blobflow-missing", Map.of("localname", LOCAL_NAME)));
        expectError("submit naming a missing key", () -> {
            StormSubmitter.submitTopology(name + "-refused", topoConf, builder.createTopology());
            return "submitted";
        });

        topoConf.put(Config.TOPOLOGY_BLOBSTORE_MAP, Map.of(KEY, Map.of("localname", LOCAL_NAME)));
        StormSubmitter.submitTopology(name, topoConf, builder.createTopology());
        say("the bolt read the first version: " + await(seenDir, "first version"));

        write(store.updateBlob(KEY), "second version");
        say("after the update, reads back: " + read(store, KEY));
        say("the bolt read the second version: " + await(seenDir, "second version"));

        expectError("deleteBlob while the topology uses it", () -> {
            store.deleteBlob(KEY);
            return "deleted";
        });

        try (NimbusClient nimbus = NimbusClient.getConfiguredClient(conf)) {
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.getClient().killTopologyWithOpts(name, now);
            long deadline = System.currentTimeMillis() + WAIT_MS;
            boolean gone = false;
            while (!gone && System.currentTimeMillis() < deadline) {
                gone = true;
                for (TopologySummary t : nimbus.getClient().getClusterInfo().get_topologies()) {
                    gone &= !t.get_name().equals(name);
                }
                Thread.sleep(20);
            }
            say("killed: " + gone);
        }
        // Storm's Nimbus refuses the delete until its topology state is gone as well; retried, as a user would
        String deleted = "not deleted";
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (deleted.equals("not deleted") && System.currentTimeMillis() < deadline) {
            try {
                store.deleteBlob(KEY);
                deleted = "deleted";
            } catch (RuntimeException stillInUse) {
                Thread.sleep(100);
            }
        }
        say("after the kill: " + deleted);
        expectError("getBlobMeta after the delete", () -> store.getBlobMeta(KEY));
        store.close();
        say("done");
    }
}
