package dev.continuum.slurm;

import dev.continuum.slurm.rest.ApiClient;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.continuum.slurm.rest.api.SlurmApi;
import dev.continuum.slurm.rest.model.V0038JobProperties;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Connects the generated slurmrestd client ({@link SlurmApi}, from slurmrestd 22.05's OpenAPI document) to one
 * slurmrestd with JWT auth: every request carries the user name and a current token (asked for per request, so
 * a rotated token is picked up without a new client).
 */
public final class SlurmRest {
  private SlurmRest() {}

  public static SlurmApi api(URI baseUri, String user, Supplier<String> token, Duration timeout) {
    ApiClient client = new ApiClient();
    // slurmrestd 22.05 drops a connection that offers an HTTP/2 upgrade (java.net.http's default): stay on 1.1
    client.setHttpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout));
    client.updateBaseUri(baseUri.toString().replaceAll("/+$", ""));
    client.setReadTimeout(timeout);
    // the generated calls accept JSON or YAML, and slurmrestd 22.05 then answers YAML: ask for JSON only
    client.setRequestInterceptor(request -> request
        .setHeader("Accept", "application/json")
        .header("X-SLURM-USER-NAME", user)
        .header("X-SLURM-USER-TOKEN", token.get()));
    // The document marks job properties' "environment" required, so the generated model always sends it, as
    // null on an update, which slurmrestd refuses ("environment must be a dictionary") inside a 200 answer.
    client.setObjectMapper(ApiClient.createDefaultObjectMapper().addMixIn(V0038JobProperties.class, OmitNullEnvironment.class));
    return new SlurmApi(client);
  }

  /**
   * Job properties for an update (hold, release, time limit…): without the document's defaults for open_mode and
   * oversubscribe, which an update would otherwise send and so change.
   */
  public static V0038JobProperties jobUpdate() {
    return new V0038JobProperties().openMode(null).oversubscribe(null);
  }

  private abstract static class OmitNullEnvironment {
    @JsonInclude(JsonInclude.Include.NON_NULL)
    abstract Object getEnvironment();
  }
}
