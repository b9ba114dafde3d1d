package io.microburst.server;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes every failure of a Nimbus call reach the remote caller with a message naming the call: Thrift's processor
 * answers an exception the service does not declare with an anonymous "Internal error processing X", so unchecked
 * exceptions and Errors other than VirtualMachineError become a {@link TApplicationException} carrying their message
 * (never their class name or stack trace, which the server's log has).
 */
final class ThriftErrors {
    private static final Logger LOG = LoggerFactory.getLogger(ThriftErrors.class);

    private ThriftErrors() {
    }

    /** A failure's message for a client: without its class name; when it has none, where to look. */
    static String plain(Throwable failure) {
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return "an internal error (" + failure.getClass().getSimpleName().replaceAll("(Exception|Error)$", "")
                + "); the server's log has the details";
        }
        return message;
    }

    static Nimbus.Iface wrap(Nimbus.Iface nimbus) {
        return (Nimbus.Iface) Proxy.newProxyInstance(Nimbus.Iface.class.getClassLoader(),
            new Class<?>[] {Nimbus.Iface.class}, (proxy, method, args) -> {
                try {
                    return method.invoke(nimbus, args);
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof TException || cause instanceof VirtualMachineError) {
                        throw cause;
                    }
                    LOG.warn("Nimbus call {} failed", method.getName(), cause);
                    throw new TApplicationException(TApplicationException.INTERNAL_ERROR,
                        method.getName() + " failed: " + plain(cause));
                }
            });
    }
}
