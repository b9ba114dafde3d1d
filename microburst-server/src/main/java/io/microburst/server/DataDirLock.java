package io.microburst.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock file that keeps a second server off a data folder ({@code DIR/lock}), held from {@link #lock} to
 * {@link #close()}. Any thread.
 */
final class DataDirLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @throws IllegalStateException if another server holds the lock ({@link java.nio.channels.OverlappingFileLockException}
     *     when it is one in this process)
     */
    static DataDirLock lock(Path dir) throws IOException {
        FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        // not closed when tryLock throws: on some systems closing any channel to the file drops every lock this
        // process holds on it, the running server's included
        FileLock lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("Another microburst server is using " + dir);
        }
        return new DataDirLock(channel, lock);
    }

    /** Releases the lock. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
