/**
 * An ordinary Storm topology with nothing of Microburst in it: the jar the scale-out test builds from this package runs
 * unchanged on Microburst and on an Apache Storm cluster. Every sink writes what it saw to files under a directory given
 * on the command line, so that the two runs can be compared exactly.
 */
package example.scaleout;
