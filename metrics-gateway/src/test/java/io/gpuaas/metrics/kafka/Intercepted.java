package io.gpuaas.metrics.kafka;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.kafka.clients.consumer.Consumer;

/** A real consumer behind a proxy that may answer or fail a call first, to inject what a loaded broker does. */
final class Intercepted {

    /** Returned by an {@link Answer} to let the real consumer answer. */
    static final Object PROCEED = new Object();

    /** Answers a call instead of the real consumer (any value, or a throw), or returns {@link #PROCEED}. */
    interface Answer {
        Object call(Method method, Object[] args);
    }

    private Intercepted() {}

    @SuppressWarnings("unchecked")
    static Consumer<byte[], byte[]> consumer(Consumer<byte[], byte[]> real, Answer answer) {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(
                Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                    Object instead = answer.call(method, args);
                    if (instead != PROCEED) {
                        return instead;
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
