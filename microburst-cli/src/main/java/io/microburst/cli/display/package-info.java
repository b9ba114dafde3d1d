/**
 * Rendering, kept apart from the data so it can be tested as text: a live table redrawn in place on a terminal, plain
 * lines elsewhere, and the end-of-run summary.
 */
package io.microburst.cli.display;
