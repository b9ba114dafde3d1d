package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Closing the transactional state server leaves none of its threads running: one still sleeping out its tick would
 * outlive the classes of {@code microburst local}'s topology loader, and being interrupted there it logs a "severe
 * unrecoverable error".
 */
class TransactionalStateServerCloseTest {
    @Test
    void closeReturnsOnceTheSessionTrackerHasEnded() {
        Set<Thread> before = sessionTrackers();
        TransactionalStateServer server = TransactionalStateServer.start(null);
        Set<Thread> started = sessionTrackers();
        started.removeAll(before);
        assertEquals(1, started.size(), "session tracker threads the server started: " + started);
        Thread tracker = started.iterator().next();
        server.close();
        assertEquals(false, tracker.isAlive(), "the server's session tracker thread after close");
    }

    private static Set<Thread> sessionTrackers() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getClass().getSimpleName().equals("SessionTrackerImpl") && t.isAlive())
            .collect(Collectors.toCollection(HashSet::new));
    }
}
