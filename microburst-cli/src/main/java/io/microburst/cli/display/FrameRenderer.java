package io.microburst.cli.display;

/** Turns live frames into text for a stream; implementations may remember what they drew before. */
public interface FrameRenderer {
    /** The text that shows {@code frame}, ending with a line separator. */
    String render(LiveFrame frame);

    /** Picks the renderer for the output: an in-place table on a terminal, plain lines otherwise. */
    static FrameRenderer forOutput(boolean interactiveTerminal) {
        return interactiveTerminal ? new AnsiTableRenderer() : new PlainLineRenderer();
    }
}
