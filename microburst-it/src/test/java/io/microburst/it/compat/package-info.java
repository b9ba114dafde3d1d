/** Storm users' own idioms (Storm's Testing API, Streams API, ConfigurableTopology, Flux) run unchanged. */
package io.microburst.it.compat;
