package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.transfer.endpoint.Access;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndpointConfigTest {

    @TempDir Path tmp;

    private EndpointRegistry parse(String json) throws Exception {
        return EndpointConfig.parse(ProviderJson.mapper().readTree(json), tmp, 8 << 20);
    }

    @Test
    void shouldResolveDirectoryRootsBesideTheFileAndApplyAcls() throws Exception {
        EndpointRegistry r = parse("""
                {"endpoints": [{"id": "dc", "type": "directory", "root": "data", "owner": "alice",
                                "readers": ["bob"], "writers": ["carol"]},
                               {"id": "pub", "type": "directory", "root": "pub", "owner": "alice", "readers": ["public"]}]}""");
        assertThat(((LocalStorage) r.find("dc").orElseThrow().storage()).root()).isEqualTo(tmp.resolve("data"));
        assertThat(r.require("dc", Caller.of("bob"), Access.READ).id()).isEqualTo("dc");
        assertThatThrownBy(() -> r.require("dc", Caller.of("bob"), Access.WRITE)).hasMessage("bob may not write endpoint 'dc'");
        assertThat(r.require("dc", Caller.of("carol"), Access.WRITE).id()).isEqualTo("dc");
        assertThat(r.require("pub", Caller.ANONYMOUS, Access.READ).id()).isEqualTo("pub");
        assertThatThrownBy(() -> r.require("pub", Caller.ANONYMOUS, Access.WRITE)).hasMessageContaining("may not write");
        assertThatThrownBy(() -> r.require("nope", Caller.of("alice"), Access.READ)).hasMessage("no endpoint with id 'nope'");
    }

    @Test
    void shouldExplainBadEntries() {
        assertThatThrownBy(() -> parse("{\"endpoints\": [{\"id\": \"x\", \"type\": \"ftp\", \"owner\": \"a\"}]}"))
                .hasMessageContaining("unknown type 'ftp'");
        assertThatThrownBy(() -> parse("{\"endpoints\": [{\"id\": \"x\", \"type\": \"directory\", \"owner\": \"a\"}]}"))
                .hasMessageContaining("'root' is required");
        assertThatThrownBy(() -> parse("{\"endpoints\": [{\"id\": \"g\", \"type\": \"gateway\", \"device_id\": \"a/b\", \"owner\": \"a\"}]}"))
                .hasMessageContaining("device id must be");
        assertThatThrownBy(() -> parse("{\"endpoints\": [{\"id\": \"g\", \"type\": \"gateway\", \"broker\": \"nohost\", \"owner\": \"a\"}]}"))
                .hasMessageContaining("broker must be host:port");
        assertThatThrownBy(() -> parse("""
                {"endpoints": [{"id": "s", "type": "s3", "bucket": "b", "owner": "a",
                                "access_key_env": "CONTINUUM_TEST_SURELY_UNSET", "secret_key": "x"}]}"""))
                .hasMessageContaining("CONTINUUM_TEST_SURELY_UNSET is not set");
    }
}
