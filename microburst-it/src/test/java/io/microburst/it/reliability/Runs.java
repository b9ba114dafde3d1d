package io.microburst.it.reliability;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The static registry through which serialized components reach the {@link RunRecord} of the test that built them.
 * A task of a topology that outlives its test gets a detached record, so it never fails for lack of one.
 */
final class Runs {
    private static final Map<String, RunRecord> RECORDS = new ConcurrentHashMap<>();

    private Runs() {
    }

    static RunRecord start(int capacity) {
        String id = UUID.randomUUID().toString();
        RunRecord record = new RunRecord(id, capacity);
        RECORDS.put(id, record);
        return record;
    }

    static RunRecord get(String runId) {
        RunRecord record = RECORDS.get(runId);
        return record != null ? record : new RunRecord(runId + "-detached", 0);
    }

    /** Frees the per-id arrays of a finished run. */
    static void end(RunRecord record) {
        RECORDS.remove(record.id());
    }
}
