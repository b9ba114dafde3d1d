package io.microburst.cli.local;

import org.apache.storm.thrift.TException;

/**
 * Thrown by {@link LocalNimbus} for a Nimbus call that has no meaning when the whole cluster is this one process
 * (blob store, worker heartbeats, profiling, UI pages). A {@link TException}, so callers handle it as they would a
 * failed call to a remote Nimbus.
 */
public final class NotInProcessException extends TException {
    private static final long serialVersionUID = 1L;

    NotInProcessException(String operation) {
        super(operation + " is not supported when the topology runs in-process with 'microburst local'");
    }
}
