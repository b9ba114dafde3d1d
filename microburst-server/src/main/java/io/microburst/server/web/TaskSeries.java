package io.microburst.server.web;

import io.microburst.metrics.TaskStats;

/**
 * One task's series in {@code /metrics}: its label blocks, one per output stream and one per input, made once for the
 * task's life (escaping every label at every scrape was most of a scrape's cost), the output streams that have had
 * tuple trees acked or failed (a spout's), and its two latency histograms' lines ({@link HistogramLines}). Counter
 * values are read from the task's live counters at each scrape. Used by one scraping thread at a time.
 */
final class TaskSeries {
    final TaskStats task;
    /** Per output stream: {@code {component,stream,task,topology}}. */
    final byte[][] streams;
    /** Per input: {@code {component,input,task,topology}}, the input as {@code component:stream}. */
    final byte[][] inputs;
    /** Per output stream: whether its trees' acked, failed and complete-latency series are written (once, for good). */
    final boolean[] acking;
    final HistogramLines execute;
    final HistogramLines complete;

    TaskSeries(String topology, TaskStats task) {
        this.task = task;
        String component = task.componentId();
        String id = Integer.toString(task.taskId());
        streams = new byte[task.outStreamCount()][];
        acking = new boolean[streams.length];
        for (int s = 0; s < streams.length; s++) {
            streams[s] = SeriesText.labels(false, "component", component, "stream", task.outStream(s), "task", id,
                "topology", topology);
        }
        inputs = new byte[task.inputCount()][];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = SeriesText.labels(false, "component", component, "input",
                task.inputComponent(i) + ":" + task.inputStream(i), "task", id, "topology", topology);
        }
        byte[] open = SeriesText.labels(true, "component", component, "task", id, "topology", topology);
        byte[] closed = SeriesText.labels(false, "component", component, "task", id, "topology", topology);
        execute = new HistogramLines("microburst_execute_latency_seconds", open, closed);
        complete = new HistogramLines("microburst_complete_latency_seconds", open, closed);
    }

    /** Brings the acking streams and the histograms' lines up to the counters; how many histograms were read. */
    int update() {
        for (int s = 0; s < acking.length; s++) {
            acking[s] |= task.spoutAckedCount(s) > 0 || task.spoutFailedCount(s) > 0;
        }
        return (execute.update(task.executeLatencies()) ? 1 : 0) + (complete.update(task.completeLatencies()) ? 1 : 0);
    }
}
