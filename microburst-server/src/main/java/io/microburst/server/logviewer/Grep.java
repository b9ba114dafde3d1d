package io.microburst.server.logviewer;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a byte string in a log file's text ({@link LogText}) in one pass, Knuth-Morris-Pratt, so the cost is the
 * file's length whatever the search string: a match may span a line break or the edge of a read chunk. Matches do
 * not overlap. Each match comes with up to {@value #CONTEXT} bytes of text before it (none before the search's start)
 * and after it, as Storm's logviewer gives them. Stateless; the request's thread.
 */
final class Grep {
    /** Bytes of context on each side of a match, as Storm's logviewer. */
    static final int CONTEXT = 128;
    /** Bytes read at a time: far more than a search string and its context, so these span two chunks at most. */
    private static final int CHUNK = 1 << 16;

    /** A match: where it starts in the file's text, and its context decoded as UTF-8. */
    record Match(long offset, String before, String after) {
    }

    /**
     * What a search found: its matches, and whether text is left after the last one when the search stopped at its
     * limit (so a next search can start there).
     */
    record Found(List<Match> matches, boolean more) {
    }

    private Grep() {
    }

    /**
     * The first {@code limit} (at least 1) matches of {@code needle} at or after byte {@code start} of the file's text.
     *
     * @throws IllegalArgumentException when {@code start} is past the end of the text
     */
    static Found search(Path file, byte[] needle, long start, int limit) throws IOException {
        int[] fail = failures(needle);
        List<Match> matches = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        byte[] previous = new byte[CHUNK];
        byte[] chunk = new byte[CHUNK];
        int previousLength = 0;
        try (InputStream in = LogText.open(file)) {
            try {
                in.skipNBytes(start);
            } catch (EOFException e) {
                throw new IllegalArgumentException("start-byte-offset " + start + " is past the end of the file");
            }
            long base = start; // the offset of chunk[0]; every chunk but the last is full
            int state = 0;
            int n;
            while ((n = in.readNBytes(chunk, 0, CHUNK)) > 0) {
                for (Pending waiting : pending) {
                    waiting.take(chunk, n);
                    matches.set(waiting.index, waiting.match());
                }
                pending.clear();
                int i = 0;
                while (i < n && matches.size() < limit) {
                    if (state == 0) {
                        while (i < n && chunk[i] != needle[0]) {
                            i++; // the usual case, kept tight
                        }
                        if (i == n) {
                            break;
                        }
                    }
                    byte b = chunk[i++];
                    while (state > 0 && needle[state] != b) {
                        state = fail[state - 1];
                    }
                    if (needle[state] == b && ++state == needle.length) {
                        state = 0;
                        long at = base + i - needle.length;
                        byte[] before = before(previous, previousLength, chunk, base, Math.max(start, at - CONTEXT), at);
                        Pending match = new Pending(matches.size(), at, before);
                        match.after.write(chunk, i, Math.min(CONTEXT, n - i));
                        matches.add(match.match());
                        if (match.after.size() < CONTEXT) {
                            pending.add(match); // its context after goes on in the next chunk
                        }
                    }
                }
                if (matches.size() == limit && pending.isEmpty()) {
                    break;
                }
                byte[] swap = previous;
                previous = chunk;
                chunk = swap;
                previousLength = n;
                base += n;
            }
            boolean more = matches.size() == limit && !matches.get(limit - 1).after().isEmpty();
            return new Found(matches, more);
        }
    }

    /** The bytes from {@code from} to {@code to} (absolute offsets), in this chunk or the one before. */
    private static byte[] before(byte[] previous, int previousLength, byte[] chunk, long base, long from, long to) {
        byte[] bytes = new byte[(int) (to - from)];
        for (long p = from; p < to; p++) {
            bytes[(int) (p - from)] = p < base ? previous[previousLength - (int) (base - p)] : chunk[(int) (p - base)];
        }
        return bytes;
    }

    /** KMP's failure function: for each prefix length, the longest proper prefix that is also its suffix. */
    private static int[] failures(byte[] needle) {
        int[] fail = new int[needle.length];
        for (int i = 1, k = 0; i < needle.length; i++) {
            while (k > 0 && needle[i] != needle[k]) {
                k = fail[k - 1];
            }
            if (needle[i] == needle[k]) {
                k++;
            }
            fail[i] = k;
        }
        return fail;
    }

    /** A match whose context after may run on into the next chunk. */
    private static final class Pending {
        final int index;
        final long offset;
        final byte[] before;
        final ByteArrayOutputStream after = new ByteArrayOutputStream(CONTEXT);

        Pending(int index, long offset, byte[] before) {
            this.index = index;
            this.offset = offset;
            this.before = before;
        }

        /** Takes what its context after still lacks from the head of the next chunk. */
        void take(byte[] chunk, int n) {
            after.write(chunk, 0, Math.min(CONTEXT - after.size(), n));
        }

        Match match() {
            return new Match(offset, new String(before, StandardCharsets.UTF_8), after.toString(StandardCharsets.UTF_8));
        }
    }
}
