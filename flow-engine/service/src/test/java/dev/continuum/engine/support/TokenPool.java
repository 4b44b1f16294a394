package dev.continuum.engine.support;

/** A user's tokens from the test Keycloak, a new one every {@link #USES} requests (each token has its own rate limit). */
public final class TokenPool {

    public static final int USES = RateLimitedAuthOn.BURST - 20;

    private final String user;
    private String token;
    private int used;

    public TokenPool(String user) {
        this.user = user;
    }

    public synchronized String next() {
        if (token == null || used >= USES) {
            token = Tokens.of(user);
            used = 0;
        }
        used++;
        return token;
    }
}
