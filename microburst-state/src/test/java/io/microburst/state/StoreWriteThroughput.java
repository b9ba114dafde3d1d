package io.microburst.state;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.state.KeyValueState;

/**
 * A small measured run of the store's write throughput, run by hand (not a test): checkpoints of a given number of
 * changed keys (Long to Long, as a counting bolt writes), each a prepare and a commit, both synced to disk.
 *
 * <pre>java -cp ... io.microburst.state.StoreWriteThroughput [keysPerCheckpoint] [seconds] [directory]</pre>
 */
public final class StoreWriteThroughput {
    private StoreWriteThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("state-throughput");
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + dir + "\"}");
        KeyValueState<Long, Long> state = new RocksDbKeyValueStateProvider().newKeyValueState("bench-1", conf, null);
        long txid = 0;
        long next = 0;
        long warmUpEnd = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < warmUpEnd) {
            next = checkpoint(state, ++txid, next, keys);
        }
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long checkpoints = 0;
        while (System.nanoTime() < end) {
            next = checkpoint(state, ++txid, next, keys);
            checkpoints++;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf("%d keys per checkpoint (prepare + commit, synced): %.0f checkpoints/s, %.0f keys/s,"
                        + " %.2f ms per checkpoint, directory %s%n", keys, checkpoints / elapsed,
                checkpoints * keys / elapsed, 1000 * elapsed / checkpoints, dir);
    }

    private static long checkpoint(KeyValueState<Long, Long> state, long txid, long next, int keys) {
        for (int i = 0; i < keys; i++) {
            long key = next++ % 1_000_000;
            state.put(key, state.get(key, 0L) + 1);
        }
        state.prepareCommit(txid);
        state.commit(txid);
        return next;
    }
}
