package io.microburst.cli.display;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.stats.ComponentKind;
import io.microburst.cli.stats.ComponentRate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RenderersTest {
    private static final LiveFrame FRAME = new LiveFrame("wordcount", Duration.ofSeconds(3), List.of(
            new ComponentRate("sentences", ComponentKind.SPOUT, 1, 3_600_000, 0, 1_200_000, 0),
            new ComponentRate("split", ComponentKind.BOLT, 2, 28_800_000, 3_600_000, 9_610_000, 1_200_000),
            new ComponentRate("count", ComponentKind.BOLT, 2, 0, 28_800_000, 0, 9_610_000)));

    @Test
    void plainLineHasOneLineWithEveryComponentAndNoEscapes() {
        String text = new PlainLineRenderer().render(FRAME);

        assertEquals("[   3s] wordcount  sentences out 1.20M/s | split in 1.20M/s out 9.61M/s | count in 9.61M/s"
                + System.lineSeparator(), text);
    }

    @Test
    void plainLineBeforeStatsArrive() {
        String text = new PlainLineRenderer().render(new LiveFrame("t", Duration.ofSeconds(1), List.of()));

        assertEquals("[   1s] t  waiting for stats" + System.lineSeparator(), text);
    }

    @Test
    void ansiTableDrawsOnceThenMovesUpOverWhatItDrew() {
        AnsiTableRenderer renderer = new AnsiTableRenderer();

        String first = renderer.render(FRAME);
        String second = renderer.render(FRAME);

        assertFalse(first.contains(AnsiTableRenderer.ESC + "5A"), first);
        assertTrue(second.startsWith(AnsiTableRenderer.ESC + "5A\r"), second);
        String[] lines = first.split(System.lineSeparator());
        assertEquals(6, lines.length, first); // title, header, three rows, then the clear-to-end-of-screen
        assertTrue(lines[2].matches("sentences\\s+spout\\s+1\\s+-\\s+1\\.20M\\s+-\\s+3\\.60M\\u001b\\[K"),
                lines[2]);
        assertTrue(lines[3].matches("split\\s+bolt\\s+2\\s+1\\.20M\\s+9\\.61M\\s+3\\.60M\\s+28\\.8M\\u001b\\[K"),
                lines[3]);
        assertEquals(AnsiTableRenderer.CLEAR_TO_END_OF_SCREEN, lines[5]);
    }

    @Test
    void ansiTableMovesUpByThePreviousFrameHeightWhenRowsChange() {
        AnsiTableRenderer renderer = new AnsiTableRenderer();
        renderer.render(new LiveFrame("t", Duration.ZERO, List.of()));

        String next = renderer.render(FRAME);

        assertTrue(next.startsWith(AnsiTableRenderer.ESC + "2A\r"), next);
    }

    @Test
    void rendererChoiceFollowsTheTerminal() {
        assertInstanceOf(AnsiTableRenderer.class, FrameRenderer.forOutput(true));
        assertInstanceOf(PlainLineRenderer.class, FrameRenderer.forOutput(false));
    }

    @Test
    void interactiveOnlyWithAConsoleAndANonDumbTerminal() {
        assertTrue(TerminalDetector.isInteractive(true, "xterm-256color"));
        assertTrue(TerminalDetector.isInteractive(true, null));
        assertFalse(TerminalDetector.isInteractive(true, "dumb"));
        assertFalse(TerminalDetector.isInteractive(false, "xterm"));
    }
}
