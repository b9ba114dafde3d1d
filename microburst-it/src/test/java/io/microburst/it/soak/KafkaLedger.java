package io.microburst.it.soak;

import io.microburst.it.durable.KafkaBroker;
import io.microburst.state.RocksDbKeyValueStateProvider;
import io.microburst.state.RocksDbStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.Config;
import org.apache.storm.state.KeyValueState;

/**
 * The checked records: numbers 0, 1, 2... produced to each Kafka topology's topic at a steady pace, with
 * {@code acks=all}; a number is acknowledged when the broker's acknowledgement reaches the producer's callback. At the
 * end every acknowledged number must be counted in that topology's committed state. The producing loop runs on its
 * own thread; the callbacks on the producer's; the rest on the test's.
 */
final class KafkaLedger implements Runnable {
    private final KafkaBroker broker;
    private final int perSecondPerTopic;
    private final BitSet[] acknowledged = new BitSet[SoakTopologies.KAFKA];
    private final long[] produced = new long[SoakTopologies.KAFKA];
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    volatile boolean running = true;

    KafkaLedger(KafkaBroker broker, int perSecondPerTopic) {
        this.broker = broker;
        this.perSecondPerTopic = perSecondPerTopic;
        for (int i = 0; i < acknowledged.length; i++) {
            acknowledged[i] = new BitSet();
        }
    }

    void createTopics() throws Exception {
        for (int i = 0; i < SoakTopologies.KAFKA; i++) {
            broker.createTopic(SoakTopologies.topic(i), SoakTopologies.KAFKA_PARTITIONS);
        }
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        long sent = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(broker.producerProperties())) {
            while (running && failure.get() == null) {
                long due = (System.nanoTime() - start) / 1_000_000L * perSecondPerTopic / 1000;
                for (; sent < due; sent++) {
                    for (int i = 0; i < SoakTopologies.KAFKA; i++) {
                        send(producer, i, sent);
                    }
                }
                Thread.sleep(20); // the producer's pace
            }
            producer.flush();
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        }
    }

    private void send(KafkaProducer<String, String> producer, int topology, long number) {
        String value = Long.toString(number);
        produced[topology] = number + 1;
        producer.send(new ProducerRecord<>(SoakTopologies.topic(topology), value, value), (metadata, e) -> {
            if (e == null) {
                synchronized (acknowledged[topology]) {
                    acknowledged[topology].set(Math.toIntExact(number));
                }
            }
        });
    }

    Exception failure() {
        return failure.get();
    }

    long acknowledged(int topology) {
        synchronized (acknowledged[topology]) {
            return acknowledged[topology].cardinality();
        }
    }

    long produced(int topology) {
        return produced[topology];
    }

    /** Null when every topology's group committed each partition's end offset, else what is missing. */
    String uncommitted() throws Exception {
        try (Admin admin = broker.admin()) {
            for (int i = 0; i < SoakTopologies.KAFKA; i++) {
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                for (int p = 0; p < SoakTopologies.KAFKA_PARTITIONS; p++) {
                    latest.put(new TopicPartition(SoakTopologies.topic(i), p), OffsetSpec.latest());
                }
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                    SoakTopologies.group(i)).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
                for (var end : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet()) {
                    OffsetAndMetadata at = committed.get(end.getKey());
                    if (at == null || at.offset() < end.getValue().offset()) {
                        return end.getKey() + " end " + end.getValue().offset() + ", committed "
                            + (at == null ? "nothing" : Long.toString(at.offset()));
                    }
                }
            }
            return null;
        }
    }

    /** One topology's result: acknowledged records, those missing from its committed state, and the extra counts. */
    record Tally(int topology, long acknowledged, long lost, long duplicates, List<Long> someLost) {
    }

    /** Reads a topology's committed counts from its state directory (the server must be stopped). */
    Tally tally(int topology, Path stateDir) {
        Map<String, Object> conf = Map.of(Config.TOPOLOGY_STATE_PROVIDER_CONFIG,
            "{\"directory\": \"" + stateDir + "\"}");
        BitSet acked;
        synchronized (acknowledged[topology]) {
            acked = (BitSet) acknowledged[topology].clone();
        }
        long[] counts = new long[Math.max(acked.length(), 1)];
        try {
            RocksDbStore store = RocksDbStore.open(stateDir);
            // task ids of the counting component: whichever namespaces hold a committed checkpoint
            for (int task = 1; task <= 16; task++) {
                String namespace = SoakTopologies.counter(topology) + "-" + task;
                if (store.committedTxid(namespace) == null) {
                    continue;
                }
                KeyValueState<Long, Long> state = new RocksDbKeyValueStateProvider()
                    .newKeyValueState(namespace, conf, null);
                state.rollback();
                for (Map.Entry<Long, Long> e : state) {
                    if (e.getKey() < counts.length) {
                        counts[Math.toIntExact(e.getKey())] += e.getValue();
                    }
                }
            }
        } finally {
            RocksDbStore.close(stateDir);
        }
        long lost = 0;
        long duplicates = 0;
        List<Long> someLost = new ArrayList<>();
        for (int n = acked.nextSetBit(0); n >= 0; n = acked.nextSetBit(n + 1)) {
            if (counts[n] == 0) {
                lost++;
                if (someLost.size() < 10) {
                    someLost.add((long) n);
                }
            } else {
                duplicates += counts[n] - 1;
            }
        }
        return new Tally(topology, acked.cardinality(), lost, duplicates, someLost);
    }
}
