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
 * file's length whatever the search string: a match may span a line break or a read buffer's edge. Matches do not
 * overlap. Each match comes with up to {@value #CONTEXT} bytes of text before it (none before the search's start) and
 * after it, as Storm's logviewer gives them. Stateless; the request's thread.
 */
final class Grep {
    /** Bytes of context on each side of a match, as Storm's logviewer. */
    static final int CONTEXT = 128;

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
     * The first {@code limit} matches of {@code needle} at or after byte {@code start} of the file's text.
     *
     * @throws IllegalArgumentException when {@code start} is past the end of the text
     */
    static Found search(Path file, byte[] needle, long start, int limit) throws IOException {
        int[] fail = failures(needle);
        byte[] recent = new byte[CONTEXT + needle.length];
        List<Match> matches = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        try (InputStream in = LogText.open(file)) {
            try {
                in.skipNBytes(start);
            } catch (EOFException e) {
                throw new IllegalArgumentException("start-byte-offset " + start + " is past the end of the file");
            }
            byte[] chunk = new byte[1 << 16];
            long pos = start;
            int state = 0;
            int n;
            while ((n = in.read(chunk)) > 0) {
                for (int i = 0; i < n; i++, pos++) {
                    byte b = chunk[i];
                    for (int p = pending.size() - 1; p >= 0; p--) {
                        Pending waiting = pending.get(p);
                        if (waiting.add(b)) {
                            matches.set(waiting.index, waiting.match());
                            pending.remove(p);
                        }
                    }
                    if (matches.size() == limit) {
                        if (pending.isEmpty()) {
                            return new Found(matches, true); // the last match's context after is whole: text is left
                        }
                        continue;
                    }
                    recent[(int) (pos % recent.length)] = b;
                    while (state > 0 && needle[state] != b) {
                        state = fail[state - 1];
                    }
                    if (needle[state] == b && ++state == needle.length) {
                        long at = pos - needle.length + 1;
                        Pending match = new Pending(matches.size(), at, before(recent, Math.max(start, at - CONTEXT), at));
                        pending.add(match);
                        matches.add(null);
                        state = 0;
                    }
                }
            }
            // the end of the text: what still waits for its context after gets what there was
            for (Pending waiting : pending) {
                matches.set(waiting.index, waiting.match());
            }
            boolean more = matches.size() == limit && !matches.get(limit - 1).after().isEmpty();
            return new Found(matches, more);
        }
    }

    private static String before(byte[] recent, long from, long to) {
        byte[] bytes = new byte[(int) (to - from)];
        for (long p = from; p < to; p++) {
            bytes[(int) (p - from)] = recent[(int) (p % recent.length)];
        }
        return new String(bytes, StandardCharsets.UTF_8);
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

    /** A match still reading the text after it. */
    private static final class Pending {
        final int index;
        final long offset;
        final String before;
        final ByteArrayOutputStream after = new ByteArrayOutputStream(CONTEXT);

        Pending(int index, long offset, String before) {
            this.index = index;
            this.offset = offset;
            this.before = before;
        }

        /** @return whether its context after is complete */
        boolean add(byte b) {
            after.write(b);
            return after.size() == CONTEXT;
        }

        Match match() {
            return new Match(offset, before, after.toString(StandardCharsets.UTF_8));
        }
    }
}
