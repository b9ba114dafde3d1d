package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServiceStackTest {
    /** What the services did, in order; services started and closed by several threads write it. */
    private final List<String> events = new ArrayList<>();

    private synchronized void record(String event) {
        events.add(event);
    }

    private synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** A service that records its start and its close. */
    private final class Service implements AutoCloseable {
        private final String name;

        Service(String name) {
            this.name = name;
            record("start " + name);
        }

        @Override
        public void close() {
            record("close " + name);
        }
    }

    @Test
    void startsInOrderAndClosesInReverse() {
        ServiceStack stack = new ServiceStack("test");
        Service a = stack.start("a", () -> new Service("a"));
        stack.start("b", () -> new Service("b"));
        stack.start("c", () -> "c", name -> record("stop " + name));

        assertEquals("a", a.name);
        assertEquals(List.of("a", "b", "c"), stack.names());
        stack.close();

        assertEquals(List.of("start a", "start b", "stop c", "close b", "close a"), events());
        assertEquals(List.of(), stack.names());
    }

    @Test
    void aFailedStartClosesWhatStartedAndRethrows() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));
        stack.start("b", () -> new Service("b"));
        IOException failure = new IOException("c cannot start");

        IOException thrown = assertThrows(IOException.class, () -> stack.start("c", () -> {
            throw failure;
        }));

        assertSame(failure, thrown);
        assertEquals(0, thrown.getSuppressed().length);
        assertEquals(List.of("start a", "start b", "close b", "close a"), events());
        assertThrows(IllegalStateException.class, () -> stack.start("d", () -> new Service("d")));
        stack.close();
        assertEquals(List.of("start a", "start b", "close b", "close a"), events());
    }

    @Test
    void aFailedStepUnwindsToo() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));

        assertThrows(IllegalArgumentException.class, () -> stack.run("check", () -> {
            throw new IllegalArgumentException("refused");
        }));

        assertEquals(List.of("start a", "close a"), events());
    }

    @Test
    void closeFailuresDuringUnwindingAreSuppressedOnTheStartFailure() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));
        IllegalStateException bClose = new IllegalStateException("b cannot close");
        stack.start("b", () -> "b", b -> {
            throw bClose;
        });

        IOException thrown = assertThrows(IOException.class, () -> stack.start("c", () -> {
            throw new IOException("c cannot start");
        }));

        assertEquals(List.of(bClose), List.of(thrown.getSuppressed()));
        assertEquals(List.of("start a", "close a"), events());
    }

    @Test
    void aCloseThatThrowsDoesNotStopTheOthers() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));
        stack.start("b", () -> "b", b -> {
            throw new IOException("b cannot close");
        });
        stack.start("c", () -> new Service("c"));

        stack.close();

        assertEquals(List.of("start a", "start c", "close c", "close a"), events());
    }

    @Test
    void closingTwiceClosesOnce() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));

        stack.close();
        stack.close();

        assertEquals(List.of("start a", "close a"), events());
    }

    @Test
    void aStartThatAnswersNullPushesNothing() {
        ServiceStack stack = new ServiceStack("test");
        stack.start("a", () -> new Service("a"));
        Service none = stack.start("optional", () -> null);

        assertEquals(null, none);
        assertEquals(List.of("a"), stack.names());
        stack.close();
        assertEquals(List.of("start a", "close a"), events());
    }

    @Test
    void concurrentClosesCloseEachServiceOnceAndAllReturnClosed() throws Exception {
        ServiceStack stack = new ServiceStack("test");
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        stack.start("a", () -> new Service("a"));
        stack.start("slow", () -> "slow", slow -> {
            closing.countDown();
            release.await();
            record("close slow");
        });
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> first = threads.submit(stack::close);
            assertTrue(closing.await(10, TimeUnit.SECONDS));
            Future<?> second = threads.submit(stack::close);
            release.countDown();
            first.get(10, TimeUnit.SECONDS);
            second.get(10, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }

        assertEquals(List.of("start a", "close slow", "close a"), events());
    }

    @Test
    void aServiceStartedAfterCloseIsClosedAtOnce() throws Exception {
        ServiceStack stack = new ServiceStack("test");
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<?> start = thread.submit(() -> stack.start("late", () -> {
                starting.countDown();
                closed.await();
                return new Service("late");
            }));
            assertTrue(starting.await(10, TimeUnit.SECONDS));
            stack.close();
            closed.countDown();

            Exception thrown = assertThrows(Exception.class, () -> start.get(10, TimeUnit.SECONDS));
            assertTrue(thrown.getCause() instanceof IllegalStateException, thrown.toString());
        } finally {
            thread.shutdownNow();
        }

        assertEquals(List.of("start late", "close late"), events());
    }
}
