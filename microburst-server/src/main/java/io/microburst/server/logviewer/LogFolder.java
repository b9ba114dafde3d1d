package io.microburst.server.logviewer;

import java.nio.file.Path;

/**
 * The folder the logviewer serves, {@code ID/PORT/worker.log} and what lies beside it (rolled {@code .gz} files, the
 * event log, profiling dumps), and the one check that keeps every request inside it. Implementations are thread-safe:
 * any of the logviewer's request threads calls them.
 */
public interface LogFolder {
    /** The folder, as a real path (no links in it). */
    Path root();

    /**
     * The regular file a request names, relative to {@link #root()}, or null when there is no such file under the
     * root: a name that climbs out ({@code ..}, absolute), a link, or a file reached through a linked folder that
     * leads outside is no such file.
     */
    Path file(String relative);
}
