package io.microburst.bench.topology.email;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Generates the email data set: a gzip file of length-prefixed {@link EmailCodec} records with realistic shapes (a few
 * thousand people in a handful of organisations, subjects from business vocabulary, bodies of one to a dozen sentences,
 * some replies quoting earlier mail, a little bulk mail that the filter drops). Deterministic for a given size.
 */
public final class EmailDataSet {
    /** Records in the standard data set. */
    public static final int STANDARD_SIZE = 40_000;

    private static final String[] FIRST = {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
        "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "yolanda", "zoe",
        "mark", "susan", "kevin", "laura", "james", "linda", "paul", "nancy", "steven"};
    private static final String[] LAST = {"smith", "jones", "taylor", "brown", "williams", "wilson", "johnson", "davies",
        "robinson", "wright", "thompson", "evans", "walker", "white", "roberts", "green", "hall", "wood", "jackson", "clarke"};
    private static final String[] DOMAINS = {"energy-trading.example", "pipeline.example", "power.example",
        "legal.example", "partner-bank.example", "consulting.example"};
    private static final String[] TOPICS = {"gas", "power", "contract", "schedule", "meeting", "budget", "forecast",
        "pipeline", "capacity", "invoice", "trade", "report", "deal", "curve", "settlement", "credit", "review", "storage"};
    private static final String[] WORDS = {"please", "review", "the", "attached", "draft", "and", "let", "me", "know",
        "if", "you", "have", "any", "questions", "we", "need", "to", "finalize", "numbers", "before", "friday", "deal",
        "volume", "price", "at", "hub", "for", "next", "month", "our", "desk", "will", "confirm", "with", "counterparty",
        "regarding", "transport", "capacity", "on", "east", "west", "line", "thanks", "call", "tomorrow", "morning",
        "about", "revised", "schedule", "update", "position", "book", "risk", "limit", "was", "exceeded", "yesterday",
        "legal", "comments", "are", "in", "red", "spreadsheet", "shows", "daily", "balances", "storage", "injection",
        "withdrawal", "weather", "forecast", "looks", "colder", "than", "expected", "demand", "should", "rise",
        "invoice", "payment", "terms", "net", "thirty", "days", "approval", "from", "management", "is", "required"};

    private EmailDataSet() {
    }

    /**
     * Returns the data set of {@code records} emails in {@code dir}, generating it first if absent. Safe when several
     * processes race: each writes a private temporary file and moves it into place.
     */
    public static Path ensure(Path dir, int records) throws IOException {
        Path file = dir.resolve("emails-v1-" + records + ".bin.gz");
        if (Files.isRegularFile(file)) {
            return file;
        }
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "emails-", ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                write(out, records);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return file;
    }

    /** Writes {@code records} generated emails, gzip-compressed, to {@code out} (not closed). */
    public static void write(OutputStream out, int records) throws IOException {
        GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 16);
        DataOutputStream data = new DataOutputStream(new BufferedOutputStream(gzip, 1 << 16));
        SplittableRandom random = new SplittableRandom(20011202L);
        long sent = 978_307_200_000L; // 2001-01-01
        for (int i = 0; i < records; i++) {
            sent += random.nextInt(1, 600_000);
            byte[] record = EmailCodec.encode(generate(random, i, sent));
            data.writeInt(record.length);
            data.write(record);
        }
        data.flush();
        gzip.finish();
    }

    /** One generated email. */
    static Email generate(SplittableRandom random, long id, long sentMillis) {
        String from = address(random);
        StringBuilder to = new StringBuilder(address(random));
        int extraRecipients = random.nextInt(10) < 7 ? 0 : random.nextInt(1, 6);
        for (int r = 0; r < extraRecipients; r++) {
            to.append(',').append(address(random));
        }
        boolean bulk = random.nextInt(20) == 0;
        String topic = pick(random, TOPICS);
        String subject = bulk ? "newsletter: " + topic + " digest, unsubscribe any time"
            : (random.nextBoolean() ? "re: " : "") + topic + " " + pick(random, TOPICS) + " " + pick(random, WORDS);
        StringBuilder body = new StringBuilder();
        int sentences = random.nextInt(1, 13);
        for (int s = 0; s < sentences; s++) {
            sentence(random, body);
        }
        if (random.nextInt(4) == 0) {
            body.append("\n\n-----Original Message-----\nFrom: ").append(address(random)).append('\n');
            for (int s = random.nextInt(1, 6); s > 0; s--) {
                sentence(random, body);
            }
        }
        return new Email(id, sentMillis, from, to.toString(), subject, body.toString());
    }

    private static void sentence(SplittableRandom random, StringBuilder body) {
        int words = random.nextInt(5, 25);
        for (int w = 0; w < words; w++) {
            String word = pick(random, WORDS);
            if (w == 0) {
                body.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
            } else {
                body.append(' ').append(random.nextInt(40) == 0 ? capitalised(pick(random, LAST)) : word);
            }
        }
        body.append(". ");
    }

    private static String capitalised(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static String address(SplittableRandom random) {
        return pick(random, FIRST) + "." + pick(random, LAST) + "@" + pick(random, DOMAINS);
    }

    private static String pick(SplittableRandom random, String[] words) {
        return words[random.nextInt(words.length)];
    }
}
