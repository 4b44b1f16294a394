package dev.continuum.engine.support;

import dev.continuum.testkit.VirtualClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

/**
 * The test kit's {@link VirtualClock} (real time plus an offset tests can move forward: Waits and backoffs pass
 * without sleeping) as the engine's clock bean. {@link TimeSkipper} moves it by itself whenever the engine has
 * nothing to do.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class TestClock extends VirtualClock {
}
