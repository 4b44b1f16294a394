package dev.continuum.engine.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which identity-provider client a provider URL is: configured rules first, then the defaults. */
class ProviderAudiencesTest {

    static final String ENGINE = "http://127.0.0.1:8080/providers";

    static ProviderAudiences audiences(String... rules) {
        return ProviderAudiences.parse(List.of(rules), () -> ENGINE);
    }

    @Test
    void shouldNameTheBuiltinsForTheEnginesOwnProvidersWhetherWrittenAsLocalhostOr127001() {
        assertThat(audiences().of(ENGINE + "/echo")).contains(ProviderAudiences.BUILTIN);
        assertThat(audiences().of("http://localhost:8080/providers/sleep")).contains(ProviderAudiences.BUILTIN);
    }

    @Test
    void shouldFindTheBuiltinNameUnderTheEnginesProvidersBaseOnlyOnThatBase() {
        assertThat(ProviderAudiences.under("http://localhost:8080/providers/echo", ENGINE)).contains("echo");
        assertThat(ProviderAudiences.under(ENGINE + "/sleep/", ENGINE + "/")).contains("sleep/");
        assertThat(ProviderAudiences.under("http://localhost:9090/providers/echo", ENGINE)).isEmpty();
        assertThat(ProviderAudiences.under("http://127.0.0.1:8080/providersx/echo", ENGINE)).isEmpty();
    }

    @Test
    void shouldTakeLocalhostForTheLoopbackAddressOnlyAsAWholeHostName() {
        assertThat(ProviderAudiences.under("https://localhost/providers/echo", "https://127.0.0.1/providers")).contains("echo");
        assertThat(ProviderAudiences.under("http://127.0.0.1:8080/providers/echo", "http://localhost:8080/providers")).contains("echo");
        assertThat(ProviderAudiences.under("http://localhost.example.org:8080/providers/echo", ENGINE)).isEmpty();
        assertThat(ProviderAudiences.under("http://localhostx:8080/providers/echo", ENGINE)).isEmpty();
        assertThat(ProviderAudiences.under("ftp://localhost:8080/providers/echo", "ftp://127.0.0.1:8080/providers")).isEmpty();
    }

    @Test
    void shouldNameTransferInferenceAndTrainingByTheirServingPathOnAnyHost() {
        assertThat(audiences().of("https://dtn.example.org/providers/transfer/transfer")).contains(ProviderAudiences.TRANSFER);
        assertThat(audiences().of("http://10.0.0.5:8093/providers/inference")).contains(ProviderAudiences.INFERENCE);
        assertThat(audiences().of("http://10.0.0.5:8093/providers/inference/deploy")).contains(ProviderAudiences.INFERENCE);
        assertThat(audiences().of("http://10.0.0.6:8096/providers/training")).contains(ProviderAudiences.TRAINING);
    }

    @Test
    void shouldLetTheLongestConfiguredPrefixWinOverTheDefaults() {
        ProviderAudiences configured = audiences("https://dtn.example.org/=>site-transfer actions:transfer",
                "https://dtn.example.org/providers/transfer/special=>special-client actions:special");

        assertThat(configured.of("https://dtn.example.org/providers/transfer/special/x"))
                .contains(new ProviderAudiences.Audience("special-client", "actions:special"));
        assertThat(configured.of("https://dtn.example.org/providers/transfer/transfer"))
                .contains(new ProviderAudiences.Audience("site-transfer", "actions:transfer"));
    }

    @Test
    void shouldNameNobodyForAnUnknownProviderOrAnotherEnginesBuiltins() {
        assertThat(audiences().of("https://unknown.example.org/act")).isEmpty();
        assertThat(audiences().of("http://127.0.0.1:9090/providers/echo")).isEmpty();
    }

    @Test
    void shouldRefuseARuleWithoutClientAndScope() {
        assertThatThrownBy(() -> audiences("https://x.example.org/=>only-client"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("continuum.auth.provider-audiences");
    }
}
