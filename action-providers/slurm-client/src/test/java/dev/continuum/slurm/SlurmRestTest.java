package dev.continuum.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.slurm.rest.ApiException;
import dev.continuum.slurm.rest.api.SlurmApi;
import dev.continuum.slurm.rest.model.V0038JobProperties;
import dev.continuum.slurm.rest.model.V0038JobResponseProperties;
import dev.continuum.slurm.rest.model.V0038JobSubmission;
import dev.continuum.slurm.rest.model.V0038Signal;
import dev.continuum.slurm.testing.SlurmHarness;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The generated client against a real slurmrestd 22.05 (JWT) and the harness's 4 fake GPUs. */
class SlurmRestTest {
  static SlurmHarness slurm;
  static SlurmApi api;

  @BeforeAll
  static void startSlurm() {
    slurm = SlurmHarness.shared();
    api = SlurmRest.api(URI.create(slurm.restUrl()), slurm.user(), slurm::token, Duration.ofSeconds(10));
  }

  @BeforeEach
  void emptyCluster() {
    slurm.cancelAll();
  }

  @Test
  void jobsGetTheirOwnGpusAndAThirdOneWaitsForResources() throws Exception {
    String first = submit("first", 2, SlurmHarness.PARTITION_A);
    String second = submit("second", 2, SlurmHarness.PARTITION_B);
    awaitState(first, "RUNNING");
    awaitState(second, "RUNNING");
    String third = submit("third", 1, SlurmHarness.PARTITION_A);

    Path out = slurm.jobsDir().resolve("first.gpus");
    SlurmHarness.awaitTrue(Duration.ofSeconds(20), "first job's output", () -> Files.exists(out));
    String firstGpus = Files.readString(out).strip();
    SlurmHarness.awaitTrue(Duration.ofSeconds(20), "second job's output", () -> Files.exists(slurm.jobsDir().resolve("second.gpus")));
    String secondGpus = Files.readString(slurm.jobsDir().resolve("second.gpus")).strip();
    assertThat(firstGpus.split(",")).hasSize(2);
    assertThat(secondGpus.split(",")).hasSize(2).doesNotContainAnyElementsOf(java.util.List.of(firstGpus.split(",")));

    SlurmHarness.awaitTrue(Duration.ofSeconds(20), "the scheduler to look at the third job", () -> !"None".equals(reason(third)));
    assertThat(job(third).getJobState()).isEqualTo("PENDING");
    assertThat(reason(third)).isEqualTo("Resources");

    api.slurmV0038CancelJob(first, null);
    awaitState(third, "RUNNING");
  }

  @Test
  void holdReleaseAndSignalThroughTheRestApi() throws Exception {
    String held = submitHeld("held");
    assertThat(job(held).getStateReason()).isEqualTo("JobHeldUser");
    api.slurmV0038UpdateJob(held, SlurmRest.jobUpdate().hold(false));
    awaitState(held, "RUNNING");
    // signal only once the script has its trap set (RUNNING comes with the allocation, before the script starts)
    SlurmHarness.awaitTrue(Duration.ofSeconds(20), "the script to start", () -> Files.exists(slurm.jobsDir().resolve("held.ready")));
    api.slurmV0038CancelJob(held, V0038Signal.USR1);
    Path marker = slurm.jobsDir().resolve("held.usr1");
    SlurmHarness.awaitTrue(Duration.ofSeconds(20), "the job to see SIGUSR1", () -> Files.exists(marker));
    api.slurmV0038CancelJob(held, null);
    awaitState(held, "CANCELLED");
  }

  @Test
  void anUnknownPartitionIsRefusedWithSlurmsReason() {
    assertThatThrownBy(() -> submit("nowhere", 1, "no-such-partition"))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("Invalid partition name");
  }

  private String submit(String name, int gpus, String partition) throws ApiException {
    String script = "#!/bin/bash\necho \"$CUDA_VISIBLE_DEVICES\" > " + slurm.jobsDir() + "/" + name + ".gpus\nsleep 120\n";
    return submit(new V0038JobSubmission().script(script).job(properties(name).partition(partition).gres("gpu:" + gpus)));
  }

  private String submitHeld(String name) throws ApiException {
    String script = "#!/bin/bash\ntrap 'touch " + slurm.jobsDir() + "/" + name + ".usr1' USR1\n"
        + "touch " + slurm.jobsDir() + "/" + name + ".ready\n"
        + "for i in $(seq 600); do sleep 0.2; done\n";
    return submit(new V0038JobSubmission().script(script).job(properties(name).hold(true).signal(null)));
  }

  private static V0038JobProperties properties(String name) {
    return new V0038JobProperties().name(name).currentWorkingDirectory("/tmp").timeLimit(10L)
        .environment(Map.of("PATH", "/usr/bin:/bin")).standardOutput("/dev/null");
  }

  private String submit(V0038JobSubmission submission) throws ApiException {
    var response = api.slurmV0038SubmitJob(submission);
    if (response.getJobId() == null) throw new ApiException(String.valueOf(response.getErrors()));
    return String.valueOf(response.getJobId());
  }

  private static V0038JobResponseProperties job(String id) throws ApiException {
    return api.slurmV0038GetJob(id).getJobs().getFirst();
  }

  private static String reason(String id) {
    try {
      return job(id).getStateReason();
    } catch (ApiException e) {
      throw new AssertionError(e);
    }
  }

  private static void awaitState(String id, String state) {
    SlurmHarness.awaitTrue(Duration.ofSeconds(30), "job " + id + " " + state, () -> {
      try {
        var job = job(id);
        return state.equals(job.getJobState());
      } catch (ApiException e) {
        throw new AssertionError(e);
      }
    });
  }
}
