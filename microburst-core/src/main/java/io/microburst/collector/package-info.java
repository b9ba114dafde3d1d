/** Collectors that forward every call to another, the base of the wrappers that count or check emits. */
package io.microburst.collector;
