package io.microburst.bench.topology.email;

/** Per-task running metrics over processed emails. Confined to one thread. */
public final class EmailMetrics {
    private long emails;
    private long characters;
    private long words;
    private long recipients;
    private long windowEmails;
    private long windowStartNanos;

    public EmailMetrics(long nowNanos) {
        this.windowStartNanos = nowNanos;
    }

    /** Accounts for one email. */
    public void add(Email email) {
        emails++;
        windowEmails++;
        characters += email.body().length();
        words += countWords(email.body());
        recipients += 1 + countChar(email.to(), ',');
    }

    /** Emails per second since the previous call (or construction); starts a new window. */
    public double takeRate(long nowNanos) {
        double seconds = Math.max(1e-9, (nowNanos - windowStartNanos) / 1e9);
        double rate = windowEmails / seconds;
        windowEmails = 0;
        windowStartNanos = nowNanos;
        return rate;
    }

    public long emails() {
        return emails;
    }

    public long characters() {
        return characters;
    }

    public long words() {
        return words;
    }

    public long recipients() {
        return recipients;
    }

    static int countWords(String text) {
        int count = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            boolean letter = !Character.isWhitespace(text.charAt(i));
            if (letter && !inWord) {
                count++;
            }
            inWord = letter;
        }
        return count;
    }

    private static int countChar(String text, char c) {
        int count = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == c) {
                count++;
            }
        }
        return count;
    }
}
