package dev.continuum.engine.adapters.runtime;

import io.smallrye.context.FastThreadContextProvider;
import io.smallrye.context.SmallRyeThreadContext;
import org.eclipse.microprofile.context.ThreadContext;
import org.eclipse.microprofile.context.spi.ThreadContextController;
import org.eclipse.microprofile.context.spi.ThreadContextSnapshot;

import java.util.Map;

/**
 * The context the run driver's work carries across its Mutiny operators: nothing but this marker. With Quarkus's
 * default context, every operator (map, flatMap, invoke, …) of every Uni captures the request context, the
 * transaction and the rest when it is built and restores them around each callback: two thirds of the driver's stacks
 * held those wrappers (issue 17). The driver's work runs on its own duplicated Vert.x contexts outside any request or
 * transaction, so there is nothing to carry; a context that carries only this marker leaves the thread's other contexts
 * as they are ({@code unchanged}), and its one fast thread-local keeps the driver's choice on every callback, so the
 * operators built inside them are left undecorated too. Registered as a {@code ThreadContextProvider} service.
 */
public final class DriverThreadContext implements FastThreadContextProvider {

    static final String TYPE = "continuum-run-driver";

    private static final ThreadLocal<Object> MARK = new ThreadLocal<>();
    private static final ThreadContextSnapshot NOTHING = () -> () -> { };
    private static volatile SmallRyeThreadContext context;

    /** Runs {@code work} with only the driver's context propagated across the Mutiny operators built in it. */
    static void run(Runnable work) {
        SmallRyeThreadContext.withThreadContext(context(), work);
    }

    /** Whether the Mutiny operators built here now carry the driver's context only. */
    static boolean current() {
        return context != null && SmallRyeThreadContext.getCurrentThreadContext() == context;
    }

    private static SmallRyeThreadContext context() {
        SmallRyeThreadContext built = context;
        if (built == null) {
            built = SmallRyeThreadContext.builder().propagated(TYPE).cleared()
                    .unchanged(ThreadContext.ALL_REMAINING).build();
            context = built;
        }
        return built;
    }

    @Override
    public ThreadLocal<?> threadLocal(Map<String, String> props) {
        return MARK;
    }

    @Override
    public ThreadContextSnapshot currentContext(Map<String, String> props) {
        return NOTHING;
    }

    @Override
    public ThreadContextSnapshot clearedContext(Map<String, String> props) {
        return NOTHING;
    }

    @Override
    public String getThreadContextType() {
        return TYPE;
    }
}
