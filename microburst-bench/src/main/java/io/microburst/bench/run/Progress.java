package io.microburst.bench.run;

import io.microburst.bench.result.Format;
import io.microburst.bench.result.RunResult;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Tells the user what the bench is doing: which workload, runtime and round, and the estimated time left. On a terminal
 * it keeps one live line (ANSI, redrawn every second by its own daemon thread); otherwise it prints plain lines.
 * Methods are called from the bench thread; the redraw thread only reads the current state under the lock.
 */
public final class Progress implements AutoCloseable {
    private static final String CLEAR_LINE = "\r\033[2K";
    private final PrintStream out;
    private final boolean live;
    private final Thread ticker;
    private String current;
    private long currentStartNanos;
    private double remainingAtStart;
    private boolean closed;

    /** @param live redraw one line in place (a terminal) instead of printing a line per event */
    public Progress(PrintStream out, boolean live) {
        this.out = out;
        this.live = live;
        if (live) {
            ticker = new Thread(this::tick, "bench-progress");
            ticker.setDaemon(true);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /** Whether this process writes to an interactive terminal that understands ANSI. */
    public static boolean terminalIsLive() {
        String term = System.getenv("TERM");
        return System.console() != null && term != null && !term.equals("dumb");
    }

    /** A run starts: {@code index} of {@code total}, with {@code remainingSeconds} expected for it and all after it. */
    public synchronized void started(RunSpec spec, int index, int total, double remainingSeconds) {
        current = String.format(Locale.ROOT, "[%d/%d] %s on %s, round %d", index, total, spec.workload().name(),
            spec.runtime().id(), spec.round());
        currentStartNanos = System.nanoTime();
        remainingAtStart = remainingSeconds;
        if (!live) {
            out.println(current + " (about " + duration(remainingSeconds) + " left)");
            out.flush();
        } else {
            redraw();
        }
    }

    /** A run ended with {@code result}. */
    public synchronized void finished(RunResult result) {
        String outcome = switch (result.status()) {
            case OK -> Format.count(result.throughput()) + " " + result.unit()
                + (result.latency() == null ? "" : ", p99 " + Format.micros(result.latency().p99()));
            case FAILED -> "FAILED: " + result.error();
            case SKIPPED -> "n/a";
        };
        String line = "  " + result.workload() + " on " + result.runtime() + ", round " + result.round() + ": " + outcome;
        if (live) {
            out.print(CLEAR_LINE);
        }
        out.println(line);
        current = null;
        if (live) {
            redraw();
        }
        out.flush();
    }

    /** Prints a message on its own line. */
    public synchronized void message(String text) {
        if (live) {
            out.print(CLEAR_LINE);
        }
        out.println(text);
        out.flush();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (live) {
            out.print(CLEAR_LINE);
            out.flush();
            ticker.interrupt();
        }
    }

    private void tick() {
        try {
            while (true) {
                Thread.sleep(1000);
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    redraw();
                }
            }
        } catch (InterruptedException ignored) {
            // closed
        }
    }

    private void redraw() {
        if (current == null) {
            return;
        }
        double elapsed = (System.nanoTime() - currentStartNanos) / 1e9;
        out.print(CLEAR_LINE + current + "  " + duration(elapsed) + " in, about "
            + duration(Math.max(0, remainingAtStart - elapsed)) + " left");
        out.flush();
    }

    /** 1h02m, 4m05s, 12s. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
