/**
 * The {@code microburst} command line: {@link io.microburst.cli.Main} parses the arguments into a
 * {@link io.microburst.cli.Command} and runs it; {@code local} runs an unchanged topology jar in-process,
 * {@code demo} runs a built-in WordCount with live rates.
 */
package io.microburst.cli;
