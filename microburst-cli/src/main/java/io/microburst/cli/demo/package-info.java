/** {@code microburst demo}: a WordCount topology written against the Storm API only, and the run that shows it. */
package io.microburst.cli.demo;
