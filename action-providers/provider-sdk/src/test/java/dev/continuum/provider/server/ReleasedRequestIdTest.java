package dev.continuum.provider.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import dev.continuum.provider.testing.TestDatabase;
import dev.continuum.provider.testing.TestHttp;
import dev.continuum.provider.testing.TestHttp.Reply;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A released action keeps its request_id bound for a while (docs/action-provider-api.md "Release"): an engine turn
 * that outlived its lease may send its /run after another engine has finished and released the same action, and that
 * late call must find the released action instead of starting the work a second time (docs/reliability.md). Checked
 * on every store the SDK ships.
 */
class ReleasedRequestIdTest {

    enum Store { MEMORY, FILES, POSTGRES }

    private final Vertx vertx = Vertx.vertx();
    private final List<AutoCloseable> opened = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private String serve(Store kind, ScriptedProvider provider, UnaryOperator<ProviderServerOptions> options) throws Exception {
        ActionStore store = switch (kind) {
            case MEMORY -> new InMemoryActionStore();
            case FILES -> new FileActionStore(dir.resolve("actions"));
            case POSTGRES -> {
                TestDatabase db = TestDatabase.create("released_");
                opened.add(db);
                PostgresActionStore shared = new PostgresActionStore(db.url(), "postgres", "", "released_actions", "i-1",
                        Duration.ofSeconds(15));
                opened.add(shared);
                yield shared;
            }
        };
        RunningServer server = RunningServer.start(vertx, router -> ActionProviderServer.mount(router, "/p", provider,
                options.apply(ProviderServerOptions.of(vertx).withStore(store))));
        opened.add(server);
        return server.url("/p");
    }

    private static Reply run(String base, String requestId, String message) {
        return TestHttp.post(base + "/run", "{\"request_id\":\"" + requestId + "\",\"body\":{\"message\":\"" + message + "\"}}");
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void shouldAnswerTheReleasedActionAndNotStartAgainWhenItsRequestIdIsRepeatedAfterRelease(Store kind) throws Exception {
        ScriptedProvider provider = new ScriptedProvider();
        String base = serve(kind, provider, o -> o);
        Reply first = run(base, "run-1/Echo/1/0", "hello");
        String id = first.json().path("action_id").asText();

        Reply released = TestHttp.post(base + "/" + id + "/release", null);
        Reply late = run(base, "run-1/Echo/1/0", "hello");

        assertThat(released.status()).isEqualTo(200);
        assertThat(late.status()).as("a repeat, not a new action").isEqualTo(200);
        assertThat(late.json().path("action_id").asText()).isEqualTo(id);
        assertThat(late.json().path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(late.json().path("details").path("message").asText()).isEqualTo("hello");
        assertThat(provider.starts.get()).as("effects of request_id run-1/Echo/1/0").isEqualTo(1);
        assertThat(TestHttp.get(base + "/" + id + "/status").status()).as("released: gone for status").isEqualTo(404);
        assertThat(TestHttp.get(base + "/" + id + "/log").status()).isEqualTo(404);
        assertThat(TestHttp.post(base + "/" + id + "/release", null).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void shouldStillRefuseAnotherBodyUnderTheRequestIdOfAReleasedAction(Store kind) throws Exception {
        String base = serve(kind, new ScriptedProvider(), o -> o);
        String id = run(base, "r-body", "one").json().path("action_id").asText();
        TestHttp.post(base + "/" + id + "/release", null);

        Reply other = run(base, "r-body", "two");

        assertThat(other.status()).isEqualTo(409);
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void shouldKeepTheRequestIdOfAnActionReleasedByItsReleaseAfter(Store kind) throws Exception {
        ScriptedProvider provider = new ScriptedProvider();
        String base = serve(kind, provider, o -> o.withReleaseSweep(Duration.ofMillis(50)));
        String id = TestHttp.post(base + "/run", "{\"request_id\":\"auto\",\"body\":{\"message\":\"m\"},\"release_after\":\"PT0.1S\"}")
                .json().path("action_id").asText();
        TestHttp.await(Duration.ofSeconds(10), "automatic release", () -> TestHttp.get(base + "/" + id + "/status").status() == 404);

        Reply late = run(base, "auto", "m");

        assertThat(late.status()).isEqualTo(200);
        assertThat(late.json().path("action_id").asText()).isEqualTo(id);
        assertThat(provider.starts.get()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void shouldFreeTheRequestIdOnceTheRetentionHasPassed(Store kind) throws Exception {
        ScriptedProvider provider = new ScriptedProvider();
        String base = serve(kind, provider, o -> o.withReleaseSweep(Duration.ofMillis(50))
                .withReleasedRetention(Duration.ofMillis(200)));
        String id = run(base, "kept-a-while", "m").json().path("action_id").asText();
        TestHttp.post(base + "/" + id + "/release", null);

        TestHttp.await(Duration.ofSeconds(10), "the request_id to be freed", () -> run(base, "kept-a-while", "m").status() == 202);

        assertThat(provider.starts.get()).as("a new action once the retention is over, so stores stay bounded").isEqualTo(2);
    }
}
