package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Field;
import org.apache.storm.shade.org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.storm.shade.org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.junit.jupiter.api.Test;

/**
 * The transactional state server's transaction log does not fsync (its folder is temporary), and building it leaves
 * the operator's {@code zookeeper.forceSync} as it was: a value kept, an absent one still absent.
 */
class TransactionalStateForceSyncTest {
    @Test
    void theServersLogDoesNotSyncAndAnAbsentPropertyStaysAbsent() throws Exception {
        String before = System.getProperty(TransactionalStateServer.FORCE_SYNC);
        System.clearProperty(TransactionalStateServer.FORCE_SYNC);
        try (TransactionalStateServer server = TransactionalStateServer.start(null)) {
            assertFalse(txnLog(server).isForceSync(), "the server's transaction log syncs each write");
            assertNull(System.getProperty(TransactionalStateServer.FORCE_SYNC), "the property after the start");
        } finally {
            restore(before);
        }
    }

    @Test
    void theOperatorsValueIsKept() throws Exception {
        String before = System.getProperty(TransactionalStateServer.FORCE_SYNC);
        System.setProperty(TransactionalStateServer.FORCE_SYNC, "yes");
        try (TransactionalStateServer server = TransactionalStateServer.start(null)) {
            assertFalse(txnLog(server).isForceSync(), "the server's transaction log syncs each write");
            assertEquals("yes", System.getProperty(TransactionalStateServer.FORCE_SYNC), "the operator's value");
            assertEquals(true, new FileTxnLog(new java.io.File("unused")).isForceSync(),
                "a log built after the server, under the operator's value");
        } finally {
            restore(before);
        }
    }

    private static FileTxnLog txnLog(TransactionalStateServer server) throws ReflectiveOperationException {
        Field field = FileTxnSnapLog.class.getDeclaredField("txnLog");
        field.setAccessible(true);
        return (FileTxnLog) field.get(server.transactionLog());
    }

    private static void restore(String value) {
        if (value == null) {
            System.clearProperty(TransactionalStateServer.FORCE_SYNC);
        } else {
            System.setProperty(TransactionalStateServer.FORCE_SYNC, value);
        }
    }
}
