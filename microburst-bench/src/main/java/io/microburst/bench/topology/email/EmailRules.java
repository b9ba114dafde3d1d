package io.microburst.bench.topology.email;

import java.util.Locale;

/** The filter and the modification applied to each email. Stateless. */
public final class EmailRules {
    private static final String QUOTE_MARK = "-----Original Message-----";

    private EmailRules() {
    }

    /** Keeps real correspondence: drops bulk mail and emails with no recipient or no body. */
    public static boolean keep(Email email) {
        return !email.to().isEmpty() && !email.body().isBlank() && !email.subject().startsWith("newsletter:");
    }

    /** Normalises the subject, cuts quoted earlier mail off the body and masks addresses in the recipient list. */
    public static Email modify(Email email) {
        String subject = email.subject().toLowerCase(Locale.ROOT);
        if (subject.startsWith("re: ")) {
            subject = subject.substring(4);
        }
        String body = email.body();
        int quote = body.indexOf(QUOTE_MARK);
        if (quote >= 0) {
            body = body.substring(0, quote).stripTrailing();
        }
        return new Email(email.id(), email.sentMillis(), maskLocalPart(email.from()), maskRecipients(email.to()), subject, body);
    }

    private static String maskRecipients(String to) {
        StringBuilder masked = new StringBuilder(to.length());
        int start = 0;
        while (start <= to.length()) {
            int comma = to.indexOf(',', start);
            int end = comma < 0 ? to.length() : comma;
            if (masked.length() > 0) {
                masked.append(',');
            }
            masked.append(maskLocalPart(to.substring(start, end)));
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        return masked.toString();
    }

    private static String maskLocalPart(String address) {
        int at = address.indexOf('@');
        return at < 0 ? address : "user" + Integer.toHexString(address.substring(0, at).hashCode()) + address.substring(at);
    }
}
