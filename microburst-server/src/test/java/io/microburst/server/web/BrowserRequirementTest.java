package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a missing browser fails the page tests rather than skipping them: the property, then our variable, then CI. */
class BrowserRequirementTest {
    @Test
    void ciOrTheProjectsSwitchRequiresABrowser() {
        assertFalse(Browser.required(null, null, null), "a local run skips");
        assertFalse(Browser.required(null, null, ""));
        assertTrue(Browser.required(null, null, "true"), "CI services set CI=true");
        assertTrue(Browser.required(null, null, "1"));
        assertFalse(Browser.required(null, null, "false"));
        assertFalse(Browser.required(null, null, "0"));
        assertTrue(Browser.required(null, "true", null), ".ci/run's MICROBURST_BROWSER_REQUIRED");
        assertFalse(Browser.required(null, "false", "true"), "the project's variable overrides CI");
        assertTrue(Browser.required("true", null, null), "-Dmicroburst.browser.required=true");
        assertFalse(Browser.required("false", "true", "true"), "the property overrides both");
    }
}
