package io.microburst.runtime.task;

import java.util.List;
import org.apache.storm.tuple.MessageId;

/**
 * Cache-line padding before a link's fields (see {@link Link}).
 *
 * <p>Threading: immutable, except {@code executorIndex}, which only the thread of the one executor that sends to the
 * target writes (when the target moves); producers on any thread read it.
 */
abstract class LinkPadBefore {
    long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** A link's fields, between two paddings (see {@link Link}). */
abstract class LinkFields extends LinkPadBefore {
    final TupleContext context;
    final String sourceComponent;
    final int sourceTask;
    final String streamId;
    final BoltTask target;
    final int inputIndex;
    /** The target task's id as a list: what emit returns when this link was its only target. */
    final List<Integer> targetTasks;
    /**
     * The index of the target task's executor, kept here so that a producer never reads the target task or its
     * executor, whose fields their own thread writes all the time (reading them from another core would pull those cache
     * lines back and forth for every tuple). Changes when the target moves to an executor of its own (see
     * {@link BoltTask#moveTo}), which happens on the thread of the only executor that sends to it.
     */
    volatile int executorIndex;

    /**
     * The target task now runs on executor {@code index}. Written by the target task alone ({@link BoltTask#attach},
     * {@link BoltTask#moveTo}), under its lock of inbound links.
     */
    final void placeOn(int index) {
        executorIndex = index;
    }

    LinkFields(TupleContext context, String sourceComponent, int sourceTask, String streamId, BoltTask target,
               int inputIndex) {
        this.context = context;
        this.sourceComponent = sourceComponent;
        this.sourceTask = sourceTask;
        this.streamId = streamId;
        this.target = target;
        this.inputIndex = inputIndex;
        this.targetTasks = List.of(target.taskId);
    }
}

/**
 * Everything a tuple from one producer task to one consumer task needs besides its values and message id: source,
 * stream, target task and the subscription it arrives on. Built once per route, so a tuple crossing threads travels as
 * three references (link, values, id) and its {@link RoutedTuple} is made by the consumer, on its own thread.
 *
 * <p>Both threads read a link for every tuple and neither writes it, so it is padded: whatever the producer allocated
 * next to it (a grouper's position, say, written for every tuple) never shares its cache lines.
 */
final class Link extends LinkFields {
    long q01, q02, q03, q04, q05, q06, q07, q08;

    Link(TupleContext context, String sourceComponent, int sourceTask, String streamId, BoltTask target,
         int inputIndex) {
        super(context, sourceComponent, sourceTask, streamId, target, inputIndex);
        target.attach(this);
    }

    RoutedTuple tuple(List<Object> values, MessageId id) {
        return new RoutedTuple(this, values, id);
    }
}
