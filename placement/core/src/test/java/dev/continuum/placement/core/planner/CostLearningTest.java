package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.MB;
import static dev.continuum.placement.core.planner.World.NOW;
import static dev.continuum.placement.core.planner.World.classify;
import static dev.continuum.placement.core.planner.World.placed;
import static dev.continuum.placement.core.planner.World.planner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class CostLearningTest {
    private static PlacementRequest anywhere(String id) {
        return PlacementRequest.inference(id, "resnet", Demand.wholeGpus(1), List.of(), 0);
    }

    private static void completed(OnlinePlanner planner, String site, long computeMillis, int times) {
        for (int i = 0; i < times; i++) {
            planner.observe(new Observation.JobCompleted("done-" + site + i, site, "resnet", computeMillis, NOW + i));
        }
    }

    @Test
    void shouldMoveTheChoiceWhenTheLearntComputeTimeGrowsOnADevice() {
        OnlinePlanner planner = planner(new World().gateway("gw-a", "T4", 0).gateway("gw-b", "Orin", 0).inventory());
        assertThat(placed(planner.place(anywhere("r0"), NOW)).chosen().site()).isEqualTo("gw-a");

        completed(planner, "gw-a", 400, 5);
        PlacementDecision.Placed p = placed(planner.place(anywhere("r1"), NOW + 10));

        assertThat(p.chosen().site()).isEqualTo("gw-b");
        assertThat(p.alternatives().getFirst().explanation())
                .contains("compute 352 ms (learnt from 5 runs on gw-a)");
    }

    @Test
    void shouldPredictFromTheGpuModelWhenADeviceHasNoHistoryYet() {
        OnlinePlanner planner = planner(new World().gateway("gw-a", "T4", 0).gateway("gw-c", "T4", 0)
                .gateway("gw-b", "Orin", 0).inventory());

        completed(planner, "gw-a", 400, 5);
        PlacementDecision.Placed p = placed(planner.place(anywhere("r1"), NOW + 10));

        assertThat(p.chosen().site()).isEqualTo("gw-b");
        assertThat(p.alternatives()).anySatisfy(c -> assertThat(c.explanation())
                .startsWith("352 ms").contains("learnt from 5 runs on T4 GPUs"));
    }

    @Test
    void shouldKeepTheJobBesideTheDataWhenTransfersMeasureLessBandwidthThanConfigured() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 5, "resnet").pool("dc", 4, 0)
                .link("gw-1", "dc", 1, 20).inventory());
        assertThat(placed(planner.place(classify("r0", "ep-gw-1", 50 * MB, 0), NOW)).chosen().site()).isEqualTo("dc");

        for (int i = 0; i < 10; i++) {
            planner.observe(new Observation.TransferMeasured("ep-gw-1", "ep-dc", 1e6, NOW + i));
        }
        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 50 * MB, 0), NOW + 10));

        assertThat(p.chosen().site()).isEqualTo("gw-1");
        assertThat(p.alternatives().getFirst().explanation()).contains("measured");
    }

    @Test
    void shouldMoveTheJobWhenASiteTakesLongerThanItsComputeForEveryJob() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").pool("dc", 1, 0)
                .link("gw-1", "dc", 1, 20).inventory());
        assertThat(placed(planner.place(classify("r0", "ep-gw-1", MB, 0), NOW)).chosen().site()).isEqualTo("gw-1");

        // the job took 100 ms to run, and 300 ms more getting the task there and its result back
        planner.observe(new Observation.JobCompleted("r0", "gw-1", "resnet", 100, NOW + 500, 300));
        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW + 600));

        assertThat(p.chosen().site()).isEqualTo("dc");
        assertThat(p.alternatives().getFirst().latency().transferMillis()).isEqualTo(300);
        assertThat(p.alternatives().getFirst().explanation()).startsWith("400 ms")
                .contains("300 ms task and result round trip (learnt from 1 job at gw-1 with the input already there)");
        // a job whose input moves to the pool learns the pool's overhead for moved inputs, apart
        planner.observe(new Observation.JobCompleted("r1", "dc", "resnet", 100, NOW + 900, 40));
        PlacementDecision.Placed again = placed(planner.place(classify("r2", "ep-gw-1", MB, 0), NOW + 1000));
        assertThat(again.chosen().latency().transferMillis()).isEqualTo(28 + 40); // 1 MB at 1 Gbit/s + 20 ms + 40 ms
    }

    @Test
    void shouldLearnOnlyTheOverheadWhenACompletionDidNotMeasureTheCompute() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").inventory());
        placed(planner.place(classify("r0", "ep-gw-1", MB, 0), NOW));

        planner.observe(new Observation.JobCompleted("r0", "gw-1", "resnet", Observation.JobCompleted.NOT_MEASURED,
                NOW + 500, 120));
        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW + 600));

        assertThat(p.chosen().latency().computeMillis()).isEqualTo(100); // still the prior, not "0 ms, learnt"
        assertThat(p.chosen().latency().transferMillis()).isEqualTo(120);
    }

    @Test
    void shouldCountASiteMeasuredOnlyWithLocalInputsAsNoCheaperForMovedOnes() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0)
                .link("gw-1", "gw-2", 1, 20).inventory());
        placed(planner.place(classify("r0", "ep-gw-2", MB, 0), NOW));
        // gw-2 has been seen only with its own inputs: 900 ms beyond the compute each time
        planner.observe(new Observation.JobCompleted("r0", "gw-2", "resnet", 100, NOW + 500, 900));

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW + 600));

        // moving gw-1's input to gw-2 is not a free round trip there: its only measurement stands in
        assertThat(p.chosen().site()).isEqualTo("gw-1");
        assertThat(p.alternatives()).anySatisfy(c -> assertThat(c.explanation())
                .contains("900 ms task and result round trip (learnt from 1 job at gw-2 with the input already there)"));
    }

    @Test
    void shouldMoveTheLinkEstimateTowardTheInputMoveAJobsRunnerReported() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 5, "resnet").pool("dc", 4, 0)
                .link("gw-1", "dc", 1, 20).inventory());
        PlacementDecision.Placed first = placed(planner.place(classify("r0", "ep-gw-1", 50 * MB, 0), NOW));
        assertThat(first.chosen().site()).isEqualTo("dc");
        // configured: 20 ms + 50 MB at 1 Gbit/s
        assertThat(first.chosen().latency().transferMillis()).isEqualTo(420);

        // the inference provider moved the 50 MB there in 5,020 ms: 10 MB/s once the link's 20 ms are taken off
        planner.observe(new Observation.InputMoved("r0", "dc", 5020, NOW + 6000));
        planner.observe(new Observation.JobCompleted("r0", "dc", "resnet", 100, NOW + 6000));
        PlacementDecision.Candidate dc = candidate(placed(planner.place(classify("r1", "ep-gw-1", 50 * MB, 0), NOW + 6100)),
                "dc");

        assertThat(dc.latency().transferMillis()).isGreaterThan(420).isLessThanOrEqualTo(5020);
        assertThat(dc.explanation()).contains("measured");
    }

    @Test
    void shouldLearnNothingOfTheLinkFromAMoveReportedForAJobNoLongerHeld() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 5, "resnet").pool("dc", 4, 0)
                .link("gw-1", "dc", 1, 20).inventory());
        placed(planner.place(classify("r0", "ep-gw-1", 50 * MB, 0), NOW));

        // reported after the completion let the job go: nothing says what its input was
        planner.observe(new Observation.JobCompleted("r0", "dc", "resnet", 100, NOW + 6000));
        planner.observe(new Observation.InputMoved("r0", "dc", 5020, NOW + 6000));
        PlacementDecision.Candidate dc = candidate(placed(planner.place(classify("r1", "ep-gw-1", 50 * MB, 0), NOW + 6100)),
                "dc");

        assertThat(dc.latency().transferMillis()).isEqualTo(420);
        assertThat(dc.explanation()).contains("configured");
    }

    private static PlacementDecision.Candidate candidate(PlacementDecision.Placed p, String site) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(p.chosen()), p.alternatives().stream())
                .filter(c -> c.site().equals(site)).findFirst().orElseThrow();
    }

    @Test
    void shouldPredictTheMeanTransferTimeWhenMeasuredRatesVary() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").pool("dc", 1, 0)
                .link("gw-1", "dc", 1, 0).inventory());
        // a shared link: 1 MB took 1,000 ms, then 250 ms, and so on — 625 ms on average, i.e. 1.6 MB/s; the mean of
        // the rates (1 and 4 MB/s: 2.5 MB/s) would predict 400 ms, too fast for every slow transfer and most others
        for (int i = 0; i < 20; i++) {
            planner.observe(new Observation.TransferMeasured("ep-gw-1", "ep-dc", i % 2 == 0 ? 1e6 : 4e6, NOW + i));
        }
        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW + 100));

        PlacementDecision.Candidate dc = candidate(p, "dc");
        // learnt as time per byte, an EWMA: between the last slow (667 ms) and the last fast (583 ms) sample's level
        assertThat(dc.latency().transferMillis()).isBetween(550L, 700L);
    }

    @Test
    void shouldPredictAnInputBehindOthersOnTheLinkAtTheRateInputsBehindOthersWereMeasuredAt() {
        // only the pool has the model; each second, three 1 MB inputs leave gw-1 for it at once: the first on an idle
        // link took 200 ms, the two sent behind it 400 ms each (a shaped link lets a burst through after an idle
        // spell). One estimate for both (the mean time per byte, 333 ms) was a third too slow for a lone input.
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "bert").pool("dc", 1, 0)
                .link("gw-1", "dc", 1, 0).inventory());
        for (int round = 0; round < 20; round++) {
            long at = NOW + round * 1000L;
            for (int k = 0; k < 3; k++) {
                placed(planner.place(classify("r" + round + "-" + k, "ep-gw-1", MB, 0), at));
            }
            for (int k = 0; k < 3; k++) {
                planner.observe(new Observation.InputMoved("r" + round + "-" + k, "dc", k == 0 ? 200 : 400, at + 900));
                planner.observe(new Observation.JobCompleted("r" + round + "-" + k, "dc", "resnet", 10, at + 900));
            }
        }

        PlacementDecision.Placed alone = placed(planner.place(classify("x", "ep-gw-1", MB, 0), NOW + 60_000));
        PlacementDecision.Placed behind = placed(planner.place(classify("y", "ep-gw-1", MB, 0), NOW + 60_000));

        assertThat(alone.chosen().latency().transferMillis()).isBetween(195L, 205L);
        assertThat(behind.chosen().latency().transferMillis()).isBetween(590L, 610L); // 200 ms behind x, then 400
        assertThat(behind.chosen().explanation()).contains("measured behind other inputs");
    }

    @Test
    void shouldQueueTheNextInputBehindAMoveThatTookLongerThanReserved() {
        // only the pool has the model; 1 MB at 80 Mbit/s: 100 ms each; a and b are sent together, so the link looks
        // busy until +200 ms
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "bert").pool("dc", 1, 0)
                .link("gw-1", "dc", 0.08, 0).inventory());
        placed(planner.place(classify("a", "ep-gw-1", MB, 0), NOW));
        placed(planner.place(classify("b", "ep-gw-1", MB, 0), NOW));

        // a's input took 700 ms, not 100: b only started then, and is on the link until about +800 ms
        planner.observe(new Observation.InputMoved("a", "dc", 700, NOW + 700));
        PlacementDecision.Placed c = placed(planner.place(classify("c", "ep-gw-1", MB, 0), NOW + 700));

        // before, the link's queue ran open loop: its reservations over at +200 ms, c was predicted on an idle link
        assertThat(c.chosen().explanation()).contains("after 100 ms of inputs already on the link");
    }

    @Test
    void shouldCountTheQueueDrainingWhileTheTaskTravelsToTheSite() {
        // gw-1 reports 2 tasks sent and not answered; a job there ran 300 ms (learnt: 200 ms, with the 100 ms prior)
        // and took 150 ms more travelling
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 2, "resnet").inventory());
        placed(planner.place(classify("r0", "ep-gw-1", MB, 0), NOW));
        planner.observe(new Observation.JobCompleted("r0", "gw-1", "resnet", 300, NOW + 500, 150));
        planner.update(new World().gateway("gw-1", "T4", 2, "resnet").inventory(), NOW + 600); // r0 is not ahead

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW + 600));

        // the worker is free in (2 − 1 + ½) × 200 ms = 300 ms, 150 of which pass while the task gets there (and the
        // tasks counted ahead spend their own trips away from the worker): 150 ms of wait, not 300
        assertThat(p.chosen().latency().queueMillis()).isEqualTo(150);
        assertThat(p.chosen().explanation()).contains("less the 150 ms it drains while the job gets there");
    }

    @Test
    void shouldPredictTheWaitForAFreeWorkerThatTheSitesJobsMeasured() {
        // gw-1's worker is free each time, yet its tasks waited 20 ms before it took them (a CPU-capped gateway's
        // worker waits for its next time slice): predicting 0 ms of queue made every local job there look faster
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").inventory());
        for (int i = 0; i < 3; i++) {
            PlacementDecision.Placed p = placed(planner.place(classify("r" + i, "ep-gw-1", MB, 0), NOW + i * 1000));
            assertThat(p.chosen().latency().queueMillis()).isEqualTo(i == 0 ? 0 : 20);
            planner.observe(new Observation.JobCompleted("r" + i, "gw-1", "resnet", 100, NOW + i * 1000 + 500, 120, 20));
        }
        PlacementDecision.Placed p = placed(planner.place(classify("r9", "ep-gw-1", MB, 0), NOW + 9000));

        assertThat(p.chosen().latency().queueMillis()).isEqualTo(20);
        assertThat(p.chosen().explanation()).contains("queue 20 ms (0 tasks ahead, 1 worker: one is free, + 20 ms its "
                + "tasks waited beyond that (learnt from 3 jobs at gw-1))");
    }

    @Test
    void shouldLearnTheWaitBeyondTheTasksAheadNotTheWholeWait() {
        // one task ahead of each job on a single worker: the model explains (1 − 1 + ½) × 200 ms = 100 ms of wait,
        // less the 50 ms overhead in which it drains; the jobs measured 60 ms — 10 ms beyond what was predicted,
        // which is what is learnt (learning the whole 60 ms would predict 110 ms next)
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 1, "resnet").inventory());
        placed(planner.place(classify("w", "ep-gw-1", MB, 0), NOW - 1000));
        planner.observe(new Observation.JobCompleted("w", "gw-1", "resnet", 300, NOW - 500, 50)); // compute 200 ms
        for (int i = 0; i < 3; i++) {
            planner.update(new World().gateway("gw-1", "T4", 1, "resnet").inventory(), NOW + i * 1000);
            PlacementDecision.Placed p = placed(planner.place(classify("r" + i, "ep-gw-1", MB, 0), NOW + i * 1000));
            assertThat(p.chosen().latency().queueMillis()).isEqualTo(i == 0 ? 50 : 60);
            planner.observe(new Observation.JobCompleted("r" + i, "gw-1", "resnet", 200, NOW + i * 1000 + 500, 50, 60));
        }
    }

    /** The predictions at gw-1 for a job with no task ahead and one behind a task, after {@link #freeAndBehind}. */
    private record FreeAndBehind(PlacementDecision.Placed free, PlacementDecision.Placed behind) {
    }

    /**
     * {@code times} rounds at gateway gw-1, a second apart: a job placed with no task ahead and completed as
     * {@code free} says (given its id and when it was placed), then one placed 200 ms later behind a task and
     * completed as {@code behind} says; then what the planner predicts for one job of each kind.
     */
    private static FreeAndBehind freeAndBehind(OnlinePlanner planner, int times,
                                               BiFunction<String, Long, Observation.JobCompleted> free,
                                               BiFunction<String, Long, Observation.JobCompleted> behind) {
        for (int i = 0; i < times; i++) {
            long at = NOW + i * 1000;
            planner.update(new World().gateway("gw-1", "T4", 0, "resnet").inventory(), at);
            placed(planner.place(classify("free" + i, "ep-gw-1", MB, 0), at));
            planner.observe(free.apply("free" + i, at));
            planner.update(new World().gateway("gw-1", "T4", 1, "resnet").inventory(), at + 200);
            placed(planner.place(classify("behind" + i, "ep-gw-1", MB, 0), at + 200));
            planner.observe(behind.apply("behind" + i, at + 200));
        }
        planner.update(new World().gateway("gw-1", "T4", 0, "resnet").inventory(), NOW + 9000);
        PlacementDecision.Placed freeOne = placed(planner.place(classify("free", "ep-gw-1", MB, 0), NOW + 9000));
        planner.update(new World().gateway("gw-1", "T4", 1, "resnet").inventory(), NOW + 9100);
        return new FreeAndBehind(freeOne, placed(planner.place(classify("behind", "ep-gw-1", MB, 0), NOW + 9100)));
    }

    @Test
    void shouldPredictTheWaitBeyondApartForJobsBehindOtherTasksAndJobsWithNoneAhead() {
        // a gateway capped to a tenth of a CPU: with no task ahead its jobs waited 10 ms for the worker, behind one
        // task 250 ms beyond the queue term (the task ahead decodes, spools and answers on the worker's CPU); one
        // estimate for both predicted their mean to each, too long with none ahead and too short behind one
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").inventory());
        placed(planner.place(classify("w", "ep-gw-1", MB, 0), NOW - 1000));
        planner.observe(new Observation.JobCompleted("w", "gw-1", "resnet", 200, NOW - 500, 0)); // compute 200 ms
        // (1 − 1 + ½) × 200 ms = 100 ms explained by the task ahead; the jobs behind one waited 350
        FreeAndBehind p = freeAndBehind(planner, 4,
                (id, at) -> new Observation.JobCompleted(id, "gw-1", "resnet", 200, at + 100, 0, 10),
                (id, at) -> new Observation.JobCompleted(id, "gw-1", "resnet", 200, at + 500, 0, 350));

        assertThat(p.free().chosen().latency().queueMillis()).isEqualTo(10);
        // (the compute learnt moves from its prior in the first jobs, so what the task ahead explained did too)
        assertThat(p.behind().chosen().latency().queueMillis()).isBetween(340L, 360L);
        assertThat(p.behind().chosen().explanation()).contains("its tasks waited beyond that (learnt from 4 jobs "
                + "at gw-1 behind other tasks)");
    }

    @Test
    void shouldPredictAnEdgeGatewaysOverheadApartForJobsBehindOtherTasks() {
        // a gateway capped to a tenth of a CPU decodes, spools and answers on the worker's tenth: a job arriving at an
        // idle gateway got through that in 20 ms, one behind another task in 200 ms; one estimate predicted their
        // mean to each, far too long for the first and too short for the second
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").inventory());
        FreeAndBehind p = freeAndBehind(planner, 6,
                (id, at) -> new Observation.JobCompleted(id, "gw-1", "resnet", 50, at + 100, 20, 0),
                (id, at) -> new Observation.JobCompleted(id, "gw-1", "resnet", 50, at + 400, 200, 0));

        // the input is at the gateway: the transfer term is the learnt overhead alone
        assertThat(p.free().chosen().latency().transferMillis()).isEqualTo(20);
        assertThat(p.behind().chosen().latency().transferMillis()).isEqualTo(200);
        assertThat(p.behind().chosen().explanation()).contains("learnt from 6 jobs at gw-1 with the input already "
                + "there, behind other tasks");
    }
}
