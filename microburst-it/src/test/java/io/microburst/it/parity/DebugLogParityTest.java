package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code topology.debug=true} logs every emit and every execute at INFO, as Storm's workers do, with the same words and
 * fields; with debug off, nothing is logged per tuple.
 */
class DebugLogParityTest extends ParityTestSupport {
    private static final int TUPLES = 5;
    private static final Pattern EMIT = Pattern.compile("Emitting Tuple: taskId=(\\d+) componentId=(\\S+) stream=(\\S+) values=(.*)");
    private static final Pattern DONE = Pattern.compile("Execute done TUPLE source: (\\S+):\\d+, stream: (\\S+), .* TASK: (\\d+) DELTA: -?\\d+");
    /** Loggers Storm's workers and Microburst's runtime log debug lines with. */
    private static final List<String> LOGGERS = List.of("org.apache.storm.daemon.Task", "org.apache.storm.executor",
        "io.microburst.runtime.task.DebugLog");
    private final Queue<String> lines = new ConcurrentLinkedQueue<>();
    private Capture capture;

    @BeforeAll
    void captureDebugLines() {
        capture = new Capture(lines);
        capture.start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().addAppender(capture, Level.INFO, null);
        for (String logger : LOGGERS) {
            Configurator.setLevel(logger, Level.INFO);
        }
        context.updateLoggers();
    }

    @AfterAll
    void stopCapture() {
        for (String logger : LOGGERS) {
            Configurator.setLevel(logger, Level.WARN);
        }
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender(capture.getName());
        context.updateLoggers();
        capture.stop();
    }

    @Test
    void debugLogsEveryEmitAndExecuteAsStormDoes() throws Exception {
        Config conf = Topologies.baseConf();
        conf.setDebug(true);
        Map<String, List<String>> emits = new java.util.TreeMap<>();
        Map<String, List<String>> executes = new java.util.TreeMap<>();
        for (String runtime : RUNTIMES) {
            lines.clear();
            Predicate<List<Object>> done = events -> events.stream().filter(Received.class::isInstance).count() == TUPLES
                && userExecutes().size() == 2 * TUPLES;
            runOn(runtime, "debug", DebugLogParityTest::relay, conf, done, Await.DEFAULT_LIMIT);
            emits.put(runtime, userEmits());
            executes.put(runtime, userExecutes());
        }
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            expected.add("relay default [" + (n * 10) + "]");
            expected.add("spout default [" + n + "]");
        }
        expected.sort(null);
        for (String runtime : RUNTIMES) {
            assertEquals(expected, emits.get(runtime), runtime + ": one line per emit with component, stream and values");
        }
        assertEquals(executes.get(Runtimes.STORM), executes.get(Runtimes.MICROBURST), "one line per execute");
    }

    @Test
    void withoutDebugNothingIsLoggedPerTuple() throws Exception {
        lines.clear();
        runOn(Runtimes.MICROBURST, "nodebug", DebugLogParityTest::relay, Topologies.baseConf(),
            events -> events.stream().filter(Received.class::isInstance).count() == TUPLES, Await.DEFAULT_LIMIT);
        assertTrue(userEmits().isEmpty() && userExecutes().isEmpty(), "debug lines without topology.debug: " + lines);
    }

    /** "component stream values" of every emit logged by a user component, sorted. */
    private List<String> userEmits() {
        List<String> found = new ArrayList<>();
        for (String line : lines) {
            Matcher m = EMIT.matcher(line);
            if (m.matches() && !m.group(2).startsWith("__")) {
                found.add(m.group(2) + " " + m.group(3) + " " + m.group(4));
            }
        }
        found.sort(null);
        return found;
    }

    /** "source stream" of every execute logged for a tuple from a user component, sorted (task ids are each runtime's own). */
    private List<String> userExecutes() {
        return lines.stream().map(DONE::matcher).filter(Matcher::matches).filter(m -> !m.group(1).startsWith("__"))
            .map(m -> m.group(1) + " " + m.group(2)).sorted().collect(Collectors.toList());
    }

    private static StormTopology relay(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("relay", new TimesTenBolt(), 1).shuffleGrouping("spout");
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("relay");
        return builder.createTopology();
    }

    static final class TimesTenBolt extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getInteger(0) * 10));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Keeps the formatted message of every event it sees. */
    private static final class Capture extends AbstractAppender {
        private final Queue<String> into;

        Capture(Queue<String> into) {
            super("debug-capture", null, null, true, Property.EMPTY_ARRAY);
            this.into = into;
        }

        @Override
        public void append(LogEvent event) {
            into.add(event.getMessage().getFormattedMessage());
        }
    }
}
