package io.microburst.runtime.task;

import java.util.ArrayDeque;
import io.microburst.reliability.TupleTree;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * The control side of one executor's {@link Inbox}: commands and completed tuple trees, from any thread through an
 * unbounded MPSC queue, and trees completed on the executor's own thread in a plain local queue. A completed tree goes
 * to its owner ({@link TupleTree.Owner#finishTree}), a command is run.
 *
 * <p>Threading: {@link #offer} accepts any thread; everything else belongs to the executor's own thread.
 */
final class Mail {
    private static final int MAIL_LIMIT = 4096;
    private final MpscUnboundedXaddArrayQueue<Object> mailbox = new MpscUnboundedXaddArrayQueue<>(256);
    private final ArrayDeque<TupleTree> completed = new ArrayDeque<>();
    private final MessagePassingQueue.Consumer<Object> handle = Mail::handle;

    /** A command ({@link Runnable}) or a completed tuple tree. Any thread; never blocks. */
    void offer(Object mail) {
        mailbox.offer(mail);
    }

    /** A tree completed on the executor's own thread. */
    void completedHere(TupleTree tree) {
        completed.add(tree);
    }

    /** Takes mail and the trees completed on this thread; returns how many. */
    int drain() {
        int work = mailbox.drain(handle, MAIL_LIMIT);
        TupleTree done;
        while ((done = completed.poll()) != null) {
            done.owner().finishTree(done);
            work++;
        }
        return work;
    }

    boolean isEmpty() {
        return mailbox.isEmpty() && completed.isEmpty();
    }

    private static void handle(Object mail) {
        if (mail instanceof TupleTree tree) {
            tree.owner().finishTree(tree);
        } else {
            ((Runnable) mail).run();
        }
    }
}
