package io.microburst.server.upgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.spout.IBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * The two alternating versions of a Trident word count (as storm-starter's {@code TridentWordCount}: split, group by
 * word, {@code persistentAggregate} with {@code Count}) on {@link MemoryMapState}. Both versions use one state factory
 * (one state id), so the counts carry from version to version in this process; the aggregate keeps its parallelism (a
 * memory map state is per partition), the split's changes. The spout is transactional: a batch id always holds the
 * same sentences, whichever version emits it, and each acked batch is recorded per version.
 */
final class TridentWordCountVersions {
    static final int SENTENCES_PER_BATCH = 10;
    /** The sentence ids of each batch id, fixed once emitted. */
    static final Map<Long, List<Integer>> BATCHES = new ConcurrentHashMap<>();
    static final AtomicInteger NEXT = new AtomicInteger();
    static volatile boolean emitting = true;

    private TridentWordCountVersions() {
    }

    static StormTopology topology(MemoryMapState.Factory state, boolean second) {
        TridentTopology topology = new TridentTopology();
        topology.newStream("sentences", new SentenceBatches())
            .parallelismHint(1) // one spout task: each task of a batch spout emits the whole batch
            .shuffle()
            .each(new Fields("sentence"), second ? new LowerCaseSplit() : new Split(), new Fields("word"))
            .parallelismHint(second ? 3 : 2)
            .groupBy(new Fields("word"))
            .persistentAggregate(state, new Count(), new Fields("count"))
            .parallelismHint(2);
        return topology.build();
    }

    static String sentence(int id) {
        return WordCountVersions.SENTENCES[id % WordCountVersions.SENTENCES.length];
    }

    /** Emits the sentences of a batch id (new ones the first time, the same ones on a replay). */
    public static final class SentenceBatches implements IBatchSpout {
        private transient int version;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context) {
            version = VersionStamps.version(context);
        }

        @Override
        public void emitBatch(long batchId, TridentCollector collector) {
            List<Integer> ids = BATCHES.computeIfAbsent(batchId, b -> {
                List<Integer> fresh = new ArrayList<>();
                for (int i = 0; emitting && i < SENTENCES_PER_BATCH; i++) {
                    fresh.add(NEXT.getAndIncrement());
                }
                return fresh;
            });
            for (int id : ids) {
                collector.emit(new Values(sentence(id)));
            }
        }

        @Override
        public void ack(long batchId) {
            VersionStamps.acked(version, batchId);
        }

        @Override
        public void close() {
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }

        @Override
        public Fields getOutputFields() {
            return new Fields("sentence");
        }
    }

    /** Splits a sentence on spaces. */
    public static class Split extends BaseFunction {
        String key(String word) {
            return word;
        }

        @Override
        public void execute(TridentTuple tuple, TridentCollector collector) {
            for (String word : tuple.getString(0).split(" ")) {
                collector.emit(new Values(key(word)));
            }
        }
    }

    /** The second version's split: lower-cased words. */
    public static final class LowerCaseSplit extends Split {
        @Override
        String key(String word) {
            return word.toLowerCase(Locale.ROOT);
        }
    }
}
