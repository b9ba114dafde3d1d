package io.microburst.server;

/**
 * The limits on topology jar uploads ({@link ServerConfig}'s upload keys).
 *
 * @param maxBytes the largest jar, as uploaded ({@value ServerConfig#UPLOAD_MAX_BYTES})
 * @param maxExpandedBytes the most its entries may expand to ({@value ServerConfig#UPLOAD_MAX_EXPANDED_BYTES})
 * @param maxOpen how many uploads may be in progress at once ({@value ServerConfig#UPLOAD_MAX_OPEN})
 * @param expirationSecs how long an upload may idle before it is dropped
 *     ({@value ServerConfig#FILE_COPY_EXPIRATION_SECS})
 */
record UploadLimits(long maxBytes, long maxExpandedBytes, int maxOpen, long expirationSecs) {
}
