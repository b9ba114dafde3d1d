/**
 * {@code microburst local}: a Nimbus facade over an in-process cluster ({@link io.microburst.cli.local.LocalNimbus}),
 * the user's jar behind its own class loader, and a graceful stop at the end of the run or on Ctrl-C.
 */
package io.microburst.cli.local;
