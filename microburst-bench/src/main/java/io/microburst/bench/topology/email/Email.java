package io.microburst.bench.topology.email;

/**
 * One email record.
 *
 * @param id unique number in the data set
 * @param sentMillis send time, epoch milliseconds
 * @param from sender address
 * @param to recipient addresses, comma separated
 * @param subject subject line
 * @param body body text
 */
public record Email(long id, long sentMillis, String from, String to, String subject, String body) {
}
