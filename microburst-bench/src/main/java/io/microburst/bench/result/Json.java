package io.microburst.bench.result;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the bench. Thread-safe once built. */
public final class Json {
    /**
     * Compact single-line mapper. NaN stays NaN (a run that measured nothing has no throughput, not zero): it is written as
     * the string "NaN", which strict JSON readers accept, and read back as NaN.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(JsonGenerator.Feature.QUOTE_NON_NUMERIC_NUMBERS)
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .build();

    private Json() {
    }
}
