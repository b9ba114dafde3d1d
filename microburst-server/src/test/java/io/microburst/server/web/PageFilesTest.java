package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The pages' static files: from the jar only, the token in the pages, the libraries from their WebJars by name. */
class PageFilesTest {
    private final PageFiles files = new PageFiles("s3cret-token");

    @Test
    void pagesCarryTheTokenAndStormsNames() throws Exception {
        PageFiles.File index = files.find("/");
        PageFiles.File topology = files.find("/topology.html");

        assertEquals("text/html; charset=utf-8", index.type());
        assertTrue(text(index).contains("content=\"s3cret-token\""), text(index));
        assertTrue(text(topology).contains("<script src=\"/webjars/cytoscape/dist/cytoscape.min.js\"></script>"));
        assertEquals("text/javascript; charset=utf-8", files.find("/graph.js").type());
        assertEquals("text/css; charset=utf-8", files.find("/style.css").type());
    }

    @Test
    void librariesComeFromTheirWebJarsWithoutAVersionInThePath() throws Exception {
        PageFiles.File cytoscape = files.find("/webjars/cytoscape/dist/cytoscape.min.js");
        PageFiles.File echarts = files.find("/webjars/echarts/dist/echarts.min.js");

        assertEquals("text/javascript; charset=utf-8", cytoscape.type());
        assertTrue(cytoscape.bytes().length > 100_000);
        assertTrue(echarts.bytes().length > 100_000);
    }

    @Test
    void nothingElseIsServed() throws Exception {
        assertNull(files.find("/nope.html"));
        assertNull(files.find("/webjars/cytoscape/../../../io/microburst/server/web/WebServer.class"));
        assertNull(files.find("/webjars/cytoscape/dist/../package.json"));
        assertNull(files.find("/webjars/jquery/dist/jquery.min.js"));
        assertNull(files.find("/PageFiles.class"));
        assertNull(files.find("/../index.html"));
    }

    private static String text(PageFiles.File file) {
        return new String(file.bytes(), StandardCharsets.UTF_8);
    }
}
