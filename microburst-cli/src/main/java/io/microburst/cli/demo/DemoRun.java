package io.microburst.cli.demo;

import io.microburst.cli.Command;
import io.microburst.cli.display.FrameRenderer;
import io.microburst.cli.display.LiveFrame;
import io.microburst.cli.display.RunSummary;
import io.microburst.cli.display.SummaryFormatter;
import io.microburst.cli.local.GracefulStop;
import io.microburst.cli.stats.ComponentCounters;
import io.microburst.cli.stats.ProcessMetrics;
import io.microburst.cli.stats.RateSampler;
import io.microburst.cli.stats.TopologyCounters;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.storm.ILocalCluster;
import org.apache.storm.thrift.TException;

/**
 * {@code microburst demo}: runs {@link WordCountTopology} on a fresh cluster, shows live per-component rates once a
 * second from the cluster's executor stats, then stops the topology gracefully and prints a {@link RunSummary}.
 *
 * <p>Runs on the calling thread, which is the only thread that samples and prints. A shutdown hook stops the
 * cluster on Ctrl-C.
 */
public final class DemoRun {
    private static final long SAMPLE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int KILL_WAIT_SECS = 1;
    private static final long SETTLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** After this, two equal reads end the wait even if they do not balance (a cluster whose counts are sampled). */
    private static final long UNBALANCED_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long SETTLE_POLL_MILLIS = 50;

    private final Command.Demo command;
    private final Supplier<? extends ILocalCluster> clusterFactory;
    private final FrameRenderer renderer;
    private final PrintStream out;
    private final PrintStream err;

    public DemoRun(Command.Demo command, Supplier<? extends ILocalCluster> clusterFactory, FrameRenderer renderer,
                   PrintStream out, PrintStream err) {
        this.command = command;
        this.clusterFactory = clusterFactory;
        this.renderer = renderer;
        this.out = out;
        this.err = err;
    }

    /** Runs to the end and returns the summary, which has also been printed. */
    public RunSummary run() throws TException, InterruptedException {
        FirstTupleClock.reset();
        Set<Long> threadsBefore = ProcessMetrics.liveThreadIds();
        long cpuBefore = ProcessMetrics.processCpuNanos();
        long constructedAt = System.nanoTime();
        ILocalCluster cluster = clusterFactory.get();
        GracefulStop stop = new GracefulStop(cluster, KILL_WAIT_SECS, err);
        Set<String> topologies = Set.of(WordCountTopology.NAME);
        Thread hook = new Thread(() -> stop.stop(topologies), "microburst-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            cluster.submitTopology(WordCountTopology.NAME, WordCountTopology.config(),
                    WordCountTopology.build(command.parallelism()));
            Map<String, ComponentCounters> last = settle(cluster, showLiveRates(cluster, constructedAt));
            long wallNanos = System.nanoTime() - constructedAt;
            long cpuNanos = ProcessMetrics.processCpuNanos();
            RunSummary summary = new RunSummary(WordCountTopology.NAME, wordsCounted(last),
                    Duration.ofNanos(wallNanos), new ArrayList<>(last.values()), ProcessMetrics.liveThreadCount(),
                    ProcessMetrics.threadsStartedSince(threadsBefore), startup(constructedAt),
                    cpuBefore < 0 ? -1 : ProcessMetrics.coresUsed(cpuNanos - cpuBefore, wallNanos),
                    ProcessMetrics.residentBytes());
            stop.stop(topologies);
            out.print(SummaryFormatter.format(summary));
            out.flush();
            return summary;
        } finally {
            stop.stop(topologies);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /** Samples once a second until the duration has passed; returns the last counters read. */
    private Map<String, ComponentCounters> showLiveRates(ILocalCluster cluster, long startNanos)
            throws TException, InterruptedException {
        RateSampler sampler = new RateSampler(startNanos);
        long endNanos = startNanos + command.duration().toNanos();
        long nextSample = startNanos + SAMPLE_INTERVAL_NANOS;
        Map<String, ComponentCounters> counters = Map.of();
        while (true) {
            long now = System.nanoTime();
            long wakeAt = Math.min(nextSample, endNanos);
            if (wakeAt - now > 0) {
                TimeUnit.NANOSECONDS.sleep(wakeAt - now);
                now = System.nanoTime();
            }
            counters = readCounters(cluster);
            LiveFrame frame = new LiveFrame(WordCountTopology.NAME, Duration.ofNanos(now - startNanos),
                    sampler.sample(counters, now));
            out.print(renderer.render(frame));
            out.flush();
            if (now - endNanos >= 0) {
                return counters;
            }
            nextSample += SAMPLE_INTERVAL_NANOS;
        }
    }

    /**
     * Deactivates the spout and reads the counters until every sentence emitted has been split and every word split
     * counted, and a second read agrees, so that the summary counts every sentence through to the end (live reads take
     * upstream counters before downstream ones while tuples move, so they can show a bolt executing more than its
     * producer emitted). Counts that never balance (Storm's are sampled) end the wait once they stop moving after a few
     * seconds; on a machine so loaded that draining takes longer than the limit, keeps the last read.
     */
    private static Map<String, ComponentCounters> settle(ILocalCluster cluster, Map<String, ComponentCounters> last)
            throws TException, InterruptedException {
        cluster.deactivate(WordCountTopology.NAME);
        long start = System.nanoTime();
        long deadline = start + SETTLE_LIMIT_NANOS;
        Map<String, ComponentCounters> previous = last;
        while (System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(SETTLE_POLL_MILLIS);
            Map<String, ComponentCounters> now = readCounters(cluster);
            if (now.equals(previous)
                && (drained(now) || System.nanoTime() - start - UNBALANCED_SETTLE_NANOS >= 0)) {
                return now;
            }
            previous = now;
        }
        return previous;
    }

    /** Whether every tuple emitted has been executed downstream: what the spout sent is all split, all words counted. */
    private static boolean drained(Map<String, ComponentCounters> counters) {
        ComponentCounters sentences = counters.get(WordCountTopology.SPOUT);
        ComponentCounters split = counters.get(WordCountTopology.SPLIT);
        ComponentCounters count = counters.get(WordCountTopology.COUNT);
        return sentences != null && split != null && count != null
            && sentences.emitted() == split.executed() && split.emitted() == count.executed();
    }

    private static Map<String, ComponentCounters> readCounters(ILocalCluster cluster) throws TException {
        return TopologyCounters.read(cluster.getTopologyInfoByName(WordCountTopology.NAME), WordCountTopology.COMPONENTS);
    }

    private static long wordsCounted(Map<String, ComponentCounters> counters) {
        ComponentCounters count = counters.get(WordCountTopology.COUNT);
        return count == null ? 0 : count.executed();
    }

    private static Optional<Duration> startup(long constructedAt) {
        long first = FirstTupleClock.firstNanos();
        return first == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(first - constructedAt));
    }
}
