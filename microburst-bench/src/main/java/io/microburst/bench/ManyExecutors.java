package io.microburst.bench;

import io.microburst.MicroburstCluster;
import io.microburst.bench.runtime.LoopbackZookeeper;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
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

/**
 * One run of a topology with thousands of executors of mixed parallelism, acked, on Microburst or on Storm's
 * LocalCluster: a spout (1 executor) emitting ids 0..n-1 with message ids, a bolt of E - 47 executors (shuffle), one of
 * 7 (fields), then ten small bolts of 3 to 5 executors in a chain. Prints submit time, time until every id is acked,
 * live threads, heap after GC, and the time to kill and close. Not part of the benchmark suite: run by hand, as
 * {@code java -Xmx1g -cp ... io.microburst.bench.ManyExecutors microburst|storm EXECUTORS IDS [LIMIT_SECS]}; a
 * system property {@code -Dmicroburst.KEY=N} sets that integer Microburst key in the topology's configuration.
 */
public final class ManyExecutors {
    static final Map<Integer, Boolean> ACKED = new ConcurrentHashMap<>();
    static final AtomicInteger FAILED = new AtomicInteger();

    private ManyExecutors() {
    }

    /** Emits each id once, replaying failed ones. */
    public static class IdSpout extends BaseRichSpout {
        private final int ids;
        private transient SpoutOutputCollector collector;
        private transient ArrayDeque<Integer> toEmit;

        public IdSpout(int ids) {
            this.ids = ids;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.toEmit = new ArrayDeque<>();
            for (int i = 0; i < ids; i++) {
                toEmit.add(i);
            }
        }

        @Override
        public void nextTuple() {
            Integer id = toEmit.poll();
            if (id != null) {
                collector.emit(new Values(id), id);
            }
        }

        @Override
        public void ack(Object id) {
            ACKED.put((Integer) id, Boolean.TRUE);
        }

        @Override
        public void fail(Object id) {
            FAILED.incrementAndGet();
            toEmit.add((Integer) id);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Passes each tuple on, anchored, and acks it. */
    public static class PassOn extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getValue(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    public static void main(String[] args) throws Exception {
        String runtime = args[0];
        int executors = Integer.parseInt(args[1]);
        int ids = Integer.parseInt(args[2]);
        long limitSecs = args.length > 3 ? Long.parseLong(args[3]) : 300;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new IdSpout(ids), 1);
        b.setBolt("wide", new PassOn(), executors - 47).shuffleGrouping("spout");
        b.setBolt("narrow", new PassOn(), 7).fieldsGrouping("wide", new Fields("id"));
        String previous = "narrow";
        for (int i = 0; i < 10; i++) {
            b.setBolt("small" + i, new PassOn(), 3 + i % 3).shuffleGrouping(previous);
            previous = "small" + i;
        }
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_WORKERS, 1);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 1000);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 60);
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("microburst.")) {
                conf.put(key, Integer.parseInt(System.getProperty(key)));
            }
        }
        int baseThreads = Thread.activeCount();
        long t0 = System.nanoTime();
        LoopbackZookeeper zookeeper = null;
        ILocalCluster cluster;
        if (runtime.equals("storm")) {
            zookeeper = new LoopbackZookeeper();
            cluster = new LocalCluster(zookeeper.host(), zookeeper.port());
        } else {
            cluster = new MicroburstCluster();
        }
        long t1 = System.nanoTime();
        cluster.submitTopology("many", conf, b.createTopology());
        long t2 = System.nanoTime();
        long deadline = t2 + limitSecs * 1_000_000_000L;
        while (ACKED.size() < ids && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long t3 = System.nanoTime();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        System.gc();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long t4 = System.nanoTime();
        KillOptions now = new KillOptions();
        now.set_wait_secs(0);
        cluster.killTopologyWithOpts("many", now);
        cluster.close();
        if (zookeeper != null) {
            zookeeper.close();
        }
        long t5 = System.nanoTime();
        System.out.printf("runtime=%s executors=%d ids=%d cluster_start_ms=%d submit_ms=%d all_acked=%s acked=%d "
                + "fails=%d ack_all_ms=%d live_threads=%d (before: %d) heap_after_gc_mb=%.1f kill_close_ms=%d "
                + "threads_after_close=%d%n", runtime, executors, ids, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
            ACKED.size() == ids, ACKED.size(), FAILED.get(), (t3 - t2) / 1_000_000, threads, baseThreads,
            heap / 1048576.0, (t5 - t4) / 1_000_000, Thread.activeCount());
        System.exit(0);
    }
}
