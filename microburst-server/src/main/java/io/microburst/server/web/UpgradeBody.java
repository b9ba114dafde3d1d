package io.microburst.server.web;

import java.io.InputStream;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartFormData;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * The new jar of an upgrade request: the raw body (any content type but {@code multipart/form-data}, such as
 * {@code curl --data-binary @new.jar}), or the part named {@code jar} (else the first with a file name) of a
 * {@code multipart/form-data} body (a form's file field), spooled to the server's scratch folder, at most the
 * server's jar upload limit. Closing it deletes the spooled parts. The request's thread.
 */
final class UpgradeBody implements AutoCloseable {
    private static final long FORM_FIELDS_BYTES = 1L << 20;
    private final Request request;
    private MultiPartFormData.Parts parts;

    UpgradeBody(Request request) {
        this.request = request;
    }

    /** The jar's bytes, read as they come. */
    InputStream jar(JarMains mains) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        long max = mains.maxJarBytes();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            if (request.getLength() > max) {
                throw tooLarge(max);
            }
            if (request.getLength() == 0) {
                throw new IllegalArgumentException("upgrade: the request has no body; send the new jar as the body "
                    + "(curl --data-binary @new.jar) or as the file field 'jar' of a multipart form");
            }
            return Content.Source.asInputStream(request);
        }
        String boundary = MultiPart.extractBoundary(type);
        if (boundary == null || boundary.isEmpty()) {
            throw new IllegalArgumentException("upgrade: the multipart body has no boundary in its Content-Type");
        }
        MultiPartFormData.Parser parser = new MultiPartFormData.Parser(boundary);
        parser.setFilesDirectory(mains.scratchDir());
        parser.setMaxFileSize(max);
        parser.setMaxLength(max + FORM_FIELDS_BYTES);
        parser.setMaxMemoryFileSize(FORM_FIELDS_BYTES);
        parser.setMaxParts(16);
        try {
            parts = parser.parse(request).get();
        } catch (ExecutionException e) {
            String why = String.valueOf(e.getCause() == null ? null : e.getCause().getMessage());
            if (why.toLowerCase(Locale.ROOT).contains("max")) {
                throw tooLarge(max);
            }
            throw new IllegalArgumentException("upgrade: the multipart body could not be read (" + QueryParameters.shown(
                why) + "); send a well-formed multipart/form-data body with the jar as the file field 'jar'");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the upgrade's jar", e);
        }
        MultiPart.Part jar = parts.getFirst("jar");
        for (int i = 0; jar == null && i < parts.size(); i++) {
            if (parts.get(i).getFileName() != null) {
                jar = parts.get(i);
            }
        }
        if (jar == null) {
            throw new IllegalArgumentException("upgrade: the multipart body has no file part; send the new jar as the "
                + "file field 'jar'");
        }
        return Content.Source.asInputStream(jar.getContentSource());
    }

    private static RequestBody.TooLarge tooLarge(long max) {
        return new RequestBody.TooLarge("the new jar of the upgrade is larger than " + max + " bytes (the limit is "
            + "microburst.server.upload.max.bytes): upload a smaller jar, or raise the limit");
    }

    @Override
    public void close() {
        if (parts != null) {
            parts.close();
        }
    }
}
