/** Distributed RPC served inside the process, as Storm's local mode serves it. */
package io.microburst.drpc;
