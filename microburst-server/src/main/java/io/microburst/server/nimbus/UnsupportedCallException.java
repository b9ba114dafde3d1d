package io.microburst.server.nimbus;

import org.apache.storm.thrift.TApplicationException;

/**
 * A Nimbus call that one machine running every topology in one process cannot honour (blob store, supervisors,
 * worker heartbeats, profiling). A {@link TApplicationException}, so that a remote caller receives this message, naming
 * the call, rather than Thrift's anonymous "internal error".
 */
public final class UnsupportedCallException extends TApplicationException {
    private static final long serialVersionUID = 1L;

    public UnsupportedCallException(String call) {
        super(UNKNOWN, call + " is not supported by Microburst: every topology runs in one process on one machine");
    }
}
