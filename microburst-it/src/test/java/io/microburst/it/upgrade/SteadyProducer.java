package io.microburst.it.upgrade;

import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes numbered records to a topic at a steady rate from a thread of its own: record {@code n} has key
 * {@code w<n % keys>} and value {@code n}, and is sent at {@code n / rate} seconds after the start. A record counts as
 * produced once the broker acknowledged it (the producer is idempotent, all replicas acknowledge); the callbacks (the
 * producer's I/O thread) note its partition and offset. The measurement's thread starts and stops it and reads what
 * was produced.
 */
final class SteadyProducer implements AutoCloseable {
    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final int rate;
    private final int keys;
    private final Thread thread;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    /** Per record number: partition + 1 once acknowledged, else 0. */
    final AtomicIntegerArray partitionOf = new AtomicIntegerArray(UpgradeProbe.CAPACITY);
    final AtomicLongArray offsetOf = new AtomicLongArray(UpgradeProbe.CAPACITY);
    private volatile boolean running = true;

    SteadyProducer(Properties properties, String topic, int rate, int keys) {
        this.producer = new KafkaProducer<>(properties);
        this.topic = topic;
        this.rate = rate;
        this.keys = keys;
        this.thread = new Thread(this::run, "steady-producer");
    }

    void start() {
        thread.start();
    }

    private void run() {
        long start = System.nanoTime();
        for (long n = 0; running && n < UpgradeProbe.CAPACITY; n++) {
            long due = start + n * TimeUnit.SECONDS.toNanos(1) / rate;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            int record = (int) n;
            producer.send(new ProducerRecord<>(topic, key(record), Long.toString(n)), (metadata, error) -> {
                if (error != null) {
                    failed.incrementAndGet();
                } else {
                    offsetOf.set(record, metadata.offset());
                    partitionOf.set(record, metadata.partition() + 1);
                }
            });
            sent.incrementAndGet();
        }
    }

    String key(int record) {
        return "w" + record % keys;
    }

    /** Stops sending and waits until every record sent was acknowledged or failed. */
    void stop() throws InterruptedException {
        running = false;
        thread.join();
        producer.flush();
    }

    long sent() {
        return sent.get();
    }

    long failed() {
        return failed.get();
    }

    @Override
    public void close() throws InterruptedException {
        if (thread.isAlive()) {
            stop();
        }
        producer.close();
    }
}
