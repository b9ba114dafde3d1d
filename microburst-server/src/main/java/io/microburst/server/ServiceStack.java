package io.microburst.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Services started in order and closed in reverse order, from one place. Each {@link #start} runs a service's start
 * and pushes its closer; a start (or {@link #run step}) that fails closes everything started before it, newest first,
 * and rethrows its failure with the failure of any close added as suppressed. {@link #close()} closes the services
 * newest first, once, going on past a close that throws (logged). Adding a service is one {@code start} call.
 *
 * <p>Thread-safe. Starts are meant to come from one thread (the one building the owner); {@link #close()} may be
 * called from any thread, any number of times: the first call closes, a concurrent one waits until it is done, later
 * ones do nothing. A service whose start finishes after the stack was closed is closed at once, and its start fails.
 */
public final class ServiceStack implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceStack.class);

    /** Starts a service (or runs a step) and answers it; null when there turned out to be nothing to start. */
    @FunctionalInterface
    public interface Start<T, E extends Exception> {
        T start() throws E;
    }

    /** Stops a service that {@link Start} started. */
    @FunctionalInterface
    public interface Stop<T> {
        void stop(T service) throws Exception;
    }

    private record Started(String name, AutoCloseable closer) {
    }

    private final String owner;
    /** Newest first. Guarded by {@code this}. */
    private final Deque<Started> started = new ArrayDeque<>();
    /** Guarded by {@code this}. */
    private boolean closed;
    /** Held while closing, so that a second {@link #close()} returns once the first is done. */
    private final Object closing = new Object();

    /** @param owner what the services make up, as log lines name it (e.g. "microburst server") */
    public ServiceStack(String owner) {
        this.owner = owner;
    }

    /** Starts an {@link AutoCloseable} service; {@link #close()} closes it. */
    public <T extends AutoCloseable, E extends Exception> T start(String name, Start<T, E> start) throws E {
        return start(name, start, AutoCloseable::close);
    }

    /**
     * Starts a service; {@link #close()} stops it with {@code stop}. When {@code start} answers null nothing is pushed.
     *
     * @throws E what {@code start} throws, once everything started before it is closed
     * @throws IllegalStateException if the stack is closed
     */
    public <T, E extends Exception> T start(String name, Start<T, E> start, Stop<? super T> stop) throws E {
        T service = run(name, start);
        if (service != null) {
            push(name, () -> stop.stop(service));
        }
        return service;
    }

    /**
     * Runs a step that leaves nothing to close (it may use the services started before it): a failure unwinds as a
     * failed start does.
     */
    public <T, E extends Exception> T run(String name, Start<T, E> step) throws E {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("Cannot start " + name + ": " + owner + " is closed");
            }
        }
        try {
            return step.start();
        } catch (Throwable failure) {
            closeAll(failure);
            throw failure;
        }
    }

    /** The services started and not closed yet, in the order they started. */
    public synchronized List<String> names() {
        List<String> names = new ArrayList<>();
        started.descendingIterator().forEachRemaining(s -> names.add(s.name()));
        return names;
    }

    /** Closes every service started, newest first; a close that throws is logged and the others still close. */
    @Override
    public void close() {
        closeAll(null);
    }

    private void push(String name, AutoCloseable closer) {
        synchronized (this) {
            if (!closed) {
                started.push(new Started(name, closer));
                return;
            }
        }
        IllegalStateException late = new IllegalStateException(owner + " was closed while " + name + " started");
        closeOne(new Started(name, closer), late);
        throw late;
    }

    /** Closes what started, newest first; each failure is added to {@code failure}, or logged when it is null. */
    private void closeAll(Throwable failure) {
        synchronized (closing) {
            List<Started> toClose;
            synchronized (this) {
                closed = true;
                toClose = new ArrayList<>(started);
                started.clear();
            }
            for (Started service : toClose) {
                closeOne(service, failure);
            }
        }
    }

    private void closeOne(Started service, Throwable failure) {
        try {
            service.closer().close();
        } catch (Throwable e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                LOG.warn("{}: stopping {} failed: {}", owner, service.name(), e.toString(), e);
            }
        }
    }
}
