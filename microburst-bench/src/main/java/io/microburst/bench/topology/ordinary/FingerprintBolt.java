package io.microburst.bench.topology.ordinary;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * A bolt clearly slower than its spout, as users write one: a stretched SHA-256 fingerprint of each message
 * ({@link #ROUNDS} rounds of the digest over the message and the last digest), emitted as hex in a new {@code Values}
 * to a stream nobody subscribes to. The suite's counter (what reached the last component) is the only addition. Task
 * thread only.
 */
public final class FingerprintBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    /** Digest rounds per message. */
    public static final int ROUNDS = 8;
    private transient MessageDigest sha;
    private transient TaskCounter received;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        byte[] message = input.getString(0).getBytes(StandardCharsets.US_ASCII);
        byte[] digest = new byte[0];
        for (int i = 0; i < ROUNDS; i++) {
            sha.update(message);
            digest = sha.digest(digest);
        }
        collector.emit(new Values(HexFormat.of().formatHex(digest)));
        received.increment();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("fingerprint"));
    }
}
