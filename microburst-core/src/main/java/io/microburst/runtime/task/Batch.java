package io.microburst.runtime.task;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import io.microburst.reliability.TrackedMessageId;
import org.apache.storm.tuple.MessageId;

/**
 * Tuples from one executor to another, as columns: the producer fills a batch on its own thread and hands the whole
 * batch over with one queue operation; after that nobody writes it, and the consumer builds each tuple as it executes
 * it. So the producer allocates no tuple, and per tuple at most three references cross between cores.
 *
 * <p>Most tuples store one reference, their values. A link is stored only where it differs from the tuple before's
 * (a null link means "the same as before"), and an unanchored tuple's message id is left null. Every reference stored
 * into an array costs a garbage-collector write barrier, and most batches carry one link's unanchored tuples.
 *
 * <p>Threading: the producer's executor thread until it is handed over, then the consumer's executor thread until it
 * is given back.
 */
final class Batch {
    final Link[] links;
    final List<Object>[] values;
    final MessageId[] ids;
    int size;
    /** The link last stored by the producer (producer only). */
    private Link lastAdded;
    /** True when a link was stored past the first tuple, or a message id at all: clear has more than one slot to null. */
    private boolean mixed;
    /** The link of the tuple the consumer read last: batches are read in order, once (consumer only). */
    private Link lastRead;

    /** The outbox that made this batch and takes it back once consumed; null for a batch used once. */
    private final Outbox owner;

    @SuppressWarnings("unchecked")
    Batch(int capacity, Outbox owner) {
        this.owner = owner;
        links = new Link[capacity];
        values = new List[capacity];
        ids = new MessageId[capacity];
    }

    /**
     * Adds a tuple; returns how many the batch now holds (its producer hands it over at its fill limit, never past its
     * capacity). Producer thread only.
     */
    int add(Link link, List<Object> tupleValues, MessageId id) {
        int n = size;
        if (n == 0 || link != lastAdded) {
            links[n] = link;
            lastAdded = link;
            mixed |= n != 0;
        }
        values[n] = tupleValues;
        if (id != TaskRunner.UNANCHORED) {
            ids[n] = id;
            mixed = true;
        }
        size = n + 1;
        return n + 1;
    }

    /** The link of the tuple at {@code i}; the consumer reads the tuples in order, each once. */
    Link link(int i) {
        Link link = links[i];
        if (link == null) {
            return lastRead;
        }
        lastRead = link;
        return link;
    }

    /**
     * Reads ahead what the tuples from {@code from} to {@code to} will need (each one's values list, its array and its
     * first value's header), one tuple after another, before any of them executes. The producer made those objects on
     * its own core, so each first read here is a miss served from the other core's cache; executed one by one, a
     * tuple's misses follow one another along its chain of references (list, array, value) and wait for the one before.
     * Read ahead, the chains of a chunk are independent loads the core overlaps. Returns a count of what it read, for
     * the caller to keep, so that the JIT cannot drop the reads. Never throws: a list its producer still changes
     * (a user's mistake) fails the task that executes it, not the drain. Consumer thread.
     */
    int readAhead(int from, int to) {
        int read = 0;
        try {
            for (int k = from; k < to; k++) {
                if (values[k] instanceof ArrayList<?> list && !list.isEmpty()) {
                    Object first = list.get(0);
                    read += first != null && first.getClass() == String.class ? 1 : 0;
                }
            }
        } catch (RuntimeException changedMeanwhile) {
            // the execute that reads it reports it
        }
        return read;
    }

    /** The message id of the tuple at {@code i}. */
    MessageId id(int i) {
        MessageId id = ids[i];
        return id != null ? id : TaskRunner.UNANCHORED;
    }

    /**
     * Makes a batch given back by its consumer ready to fill again: the links and message ids it stored are forgotten
     * (a null link or id means something when read), in most batches one slot. The values are not: the next fill
     * overwrites them, so a batch waiting in its producer's pool keeps its last tuples' values alive until then (the
     * pool is bounded). Producer thread, when it takes the batch from its pool: clearing costs the producer what it
     * used to cost the consumer, and in a pipeline the consumer is the side that waits least (WordCount's count thread
     * spent 4% of its samples clearing).
     */
    void clear() {
        if (mixed) {
            Arrays.fill(links, 0, size, null);
            Arrays.fill(ids, 0, size, null);
            mixed = false;
        } else {
            links[0] = null;
        }
        size = 0;
        lastRead = null;
    }

    /**
     * The consumer has executed every tuple: the batch goes back to the executor that made it, which clears it when it
     * reuses it, or, used once, it is left to the collector. Consumer thread only, and nothing may read the batch
     * afterwards.
     */
    void recycle() {
        if (owner != null) {
            owner.giveBack(this);
        }
    }

    /**
     * Stamps the trees of the tracked tuples from {@code from} on as still alive (a tuple waiting in a queue must not
     * time its tree out).
     */
    void touch(int from, long now) {
        for (int k = from; k < size; k++) {
            if (ids[k] instanceof TrackedMessageId id) {
                id.touch(now);
            }
        }
    }
}
