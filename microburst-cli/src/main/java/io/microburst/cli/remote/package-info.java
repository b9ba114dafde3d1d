/**
 * The {@code microburst} subcommands that run or talk to a server: {@code server} itself, {@code submit} (as
 * {@code storm jar}), and {@code list}, {@code kill}, {@code activate}, {@code deactivate}, {@code rebalance},
 * {@code monitor} through Storm's {@code NimbusClient}.
 */
package io.microburst.cli.remote;
