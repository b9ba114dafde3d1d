package io.microburst.bench.topology.email;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The binary form of an {@link Email}: fixed fields, then length-prefixed UTF-8 strings. Stateless. */
public final class EmailCodec {
    private static final int FORMAT = 1;

    private EmailCodec() {
    }

    /** Serializes {@code email}. */
    public static byte[] encode(Email email) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + email.body().length());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(email.id());
            out.writeLong(email.sentMillis());
            writeString(out, email.from());
            writeString(out, email.to());
            writeString(out, email.subject());
            writeString(out, email.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Deserializes what {@link #encode} produced; throws {@link IllegalArgumentException} on anything else. */
    public static Email decode(byte[] record) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
            int format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown email record format " + format);
            }
            return new Email(in.readLong(), in.readLong(), readString(in), readString(in), readString(in), readString(in));
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated email record", e);
        }
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("bad string length " + length);
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
