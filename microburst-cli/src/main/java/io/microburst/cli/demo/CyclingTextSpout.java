package io.microburst.cli.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the lines of a text resource as {@code sentence} tuples, one per {@code nextTuple}, starting over at the end,
 * forever. Unanchored: the demo measures throughput, not reliability. Each task starts at a different line so that
 * parallel spouts do not emit in lock step.
 */
public final class CyclingTextSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;

    private final String resource;
    private transient SpoutOutputCollector collector;
    private transient String[] lines;
    private transient int next;

    /** @param resource a class-path resource, UTF-8, read when the spout opens */
    public CyclingTextSpout(String resource) {
        this.resource = resource;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.lines = readLines(resource);
        this.next = context.getThisTaskIndex() % lines.length;
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values(lines[next]));
        next = next + 1 == lines.length ? 0 : next + 1;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sentence"));
    }

    static String[] readLines(String resource) {
        try (InputStream in = CyclingTextSpout.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource not found: " + resource);
            }
            String[] lines = Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R"))
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .toArray(String[]::new);
            if (lines.length == 0) {
                throw new IllegalStateException("resource has no text: " + resource);
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
