package io.microburst.bench.topology.email;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmailPipelineTest {
    @Test
    void codecRoundTripsAnEmail() {
        Email email = new Email(42, 978_307_200_000L, "a.b@x.example", "c.d@y.example,e.f@z.example", "re: gas deal",
            "Line one. Unicode é ü.\n\nLine two.");
        assertEquals(email, EmailCodec.decode(EmailCodec.encode(email)));
    }

    @Test
    void codecRejectsGarbage() {
        byte[] record = EmailCodec.encode(new Email(1, 2, "a", "b", "c", "d"));
        assertThrows(IllegalArgumentException.class, () -> EmailCodec.decode(Arrays.copyOf(record, record.length - 3)));
        record[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> EmailCodec.decode(record));
    }

    @Test
    void dataSetIsDeterministicAndTheReaderWrapsAround(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        EmailDataSet.write(a, 50);
        EmailDataSet.write(b, 50);
        assertTrue(Arrays.equals(a.toByteArray(), b.toByteArray()));

        Path file = EmailDataSet.ensure(dir, 5);
        assertEquals(file, EmailDataSet.ensure(dir, 5), "generated once");
        try (EmailFileReader reader = new EmailFileReader(file)) {
            Set<Long> ids = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                ids.add(EmailCodec.decode(reader.next()).id());
            }
            assertEquals(Set.of(0L, 1L, 2L, 3L, 4L), ids);
            assertEquals(0L, EmailCodec.decode(reader.next()).id(), "starts over at the end of the file");
        }
        assertTrue(Files.size(file) > 0);
    }

    @Test
    void filterDropsBulkMailAndKeepsMostOfTheRest() {
        SplittableRandom random = new SplittableRandom(1);
        int kept = 0;
        int total = 2000;
        for (int i = 0; i < total; i++) {
            if (EmailRules.keep(EmailDataSet.generate(random, i, 0))) {
                kept++;
            }
        }
        assertTrue(kept > total * 0.8 && kept < total, "kept " + kept);
        assertFalse(EmailRules.keep(new Email(1, 0, "a@x", "b@y", "newsletter: gas digest", "text")));
        assertFalse(EmailRules.keep(new Email(1, 0, "a@x", "", "hello", "text")));
    }

    @Test
    void modifyNormalisesSubjectCutsQuotesAndMasksAddresses() {
        Email modified = EmailRules.modify(new Email(1, 0, "alice.smith@x.example", "bob.jones@y.example,carol@z.example",
            "Re: Gas Deal", "Please confirm.\n\n-----Original Message-----\nFrom: someone@x.example\nOld text."));
        assertEquals("gas deal", modified.subject());
        assertEquals("Please confirm.", modified.body());
        assertFalse(modified.from().contains("alice"));
        assertTrue(modified.from().endsWith("@x.example"));
        assertEquals(2, modified.to().split(",").length);
        assertFalse(modified.to().contains("bob"));
    }

    @Test
    void metricsCountWordsAndRecipientsAndTakeARate() {
        EmailMetrics metrics = new EmailMetrics(0);
        metrics.add(new Email(1, 0, "a", "b,c,d", "s", "three little  words"));
        assertEquals(1, metrics.emails());
        assertEquals(3, metrics.words());
        assertEquals(3, metrics.recipients());
        assertEquals(0.5, metrics.takeRate(2_000_000_000L), 1e-9);
        assertEquals(0.0, metrics.takeRate(3_000_000_000L), 1e-9);
    }
}
