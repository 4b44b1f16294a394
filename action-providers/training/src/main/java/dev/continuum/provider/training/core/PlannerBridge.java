package dev.continuum.provider.training.core;

import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequests;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendInventory.PartitionInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The planner's pure core seen from the provider: one {@link OnlinePlanner} per partition of each
 * site (a partition is its own pool of nodes; the planner's own partitions are GPU quotas, another
 * thing), fed the partition's nodes and asked to place, complete and tick jobs. Planner site names
 * are {@code <site>/<partition>}.
 */
final class PlannerBridge {
    private final Map<String, OnlinePlanner> planners = new java.util.HashMap<>();
    private final PlannerConfig config;
    /** The policy resizes elastic jobs itself: they ask for their minimum and grow while nobody waits. */
    private final boolean elasticPolicy;
    /** With {@code +move}: the policy above the partitions' planners that moves jobs between them. */
    private final Optional<MovePolicy> moves;
    /** Each planner's GPU model ({@code ""}: unnamed). */
    private final Map<String, String> models = new java.util.HashMap<>();
    /** Told every decision the planners make, as they make it. */
    private final DecisionListener decisions;

    PlannerBridge(List<BackendInventory> sites, String policy, MovePolicy.Costs moveCosts, long nowMillis,
                  DecisionListener decisions) {
        this.decisions = decisions;
        this.config = PlannerConfig.DEFAULT.withPolicy(policy);
        this.elasticPolicy = java.util.Arrays.asList(policy.split("\\+")).contains("elastic");
        this.moves = Policies.moves(policy) ? Optional.of(new MovePolicy(moveCosts)) : Optional.empty();
        for (BackendInventory inventory : sites) {
            for (PartitionInventory p : inventory.partitions()) {
                OnlinePlanner planner = new OnlinePlanner(config);
                planner.update(inventoryOf(inventory.site(), p), nowMillis);
                planners.put(siteName(inventory.site(), p.name()), planner);
                models.put(siteName(inventory.site(), p.name()), p.gpuModel().orElse(""));
            }
        }
    }

    /** Whether the policy moves jobs between partitions and sites ({@code +move}). */
    boolean moves() {
        return moves.isPresent();
    }

    /** The jobs waiting in the queue of some partition's planner. */
    Set<String> waiting() {
        Set<String> ids = new java.util.HashSet<>();
        planners.values().forEach(p -> p.trainingPools().forEach(t -> ids.addAll(t.waiting())));
        return ids;
    }

    /**
     * The move policy's round over every partition (its GPUs free as its planner counts them, held ones taken) and
     * {@code jobs}; empty without {@code +move}.
     */
    List<MovePolicy.Move> decideMoves(List<MovePolicy.JobView> jobs, long nowMillis) {
        if (moves.isEmpty()) {
            return List.of();
        }
        List<MovePolicy.Pool> pools = new ArrayList<>();
        planners.forEach((name, planner) -> planner.trainingPools().forEach(t -> pools.add(new MovePolicy.Pool(name,
                siteOf(name), models.get(name), t.totalGpus(), Math.min(t.totalGpus(), t.freeGpus())))));
        pools.sort(java.util.Comparator.comparing(MovePolicy.Pool::name));
        return moves.get().decide(pools, jobs, nowMillis / 1000.0);
    }

    static String siteName(String site, String partition) {
        return site + "/" + partition;
    }

    private static Inventory inventoryOf(String site, PartitionInventory p) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (String n : p.nodes()) {
            nodes.add(new NodeSpec(n, "", p.gpusPerNode(), p.gpuModel().orElse(""), 0, p.cpusPerNode() * 1000L,
                    p.memoryMbPerNode()));
        }
        String name = siteName(site, p.name());
        Cluster c = new Cluster(new Site(name, Site.Kind.DATACENTER), nodes, List.of(), List.of(), Topology.DEFAULT);
        return new Inventory(List.of(c), List.of(), Map.of(), Map.of(name, SiteStatus.training()));
    }

    /** {@code where} is {@link #siteName}(site, partition). */
    List<PlacementDecision> place(String where, TrainingJob job, int gpus, long nowMillis) {
        TrainingRequest r = job.request();
        int min = Math.min(r.gpusMin(), gpus);
        // under an elastic policy the planner shrinks a job back to its demand when others wait: the minimum
        int asked = elasticPolicy && r.elastic() ? min : gpus;
        PlacementBody.DemandBody demand = new PlacementBody.DemandBody(asked, 1000,
                r.gpuModel().map(List::of).orElse(List.of()), 0L, 0L);
        long deadline = r.deadline().map(d -> Math.max(1, d.getEpochSecond())).orElse(0L);
        // the planner contract's request, as the planner service is asked for a job (placement/api)
        PlacementBody body = new PlacementBody(job.id(), null, PlacementBody.TRAINING, "", min, gpus, demand,
                List.of(), deadline, 0L, r.priority(), "", "", r.timeLimit().toSeconds(), true, 0L, "", null);
        return told(planners.get(where).place(PlacementRequests.from(body), nowMillis).decisions(), nowMillis);
    }

    List<PlacementDecision> completed(String where, String jobId, long nowMillis) {
        OnlinePlanner p = planners.get(where);
        return p == null ? List.of() : told(p.observe(new dev.continuum.placement.core.planner.Observation.JobCompleted(
                jobId, "", "", 0, nowMillis)), nowMillis);
    }

    List<PlacementDecision> tick(long nowMillis) {
        List<PlacementDecision> out = new ArrayList<>();
        for (OnlinePlanner p : planners.values()) {
            out.addAll(p.observe(new dev.continuum.placement.core.planner.Observation.Tick(nowMillis)));
        }
        return told(out, nowMillis);
    }

    private List<PlacementDecision> told(List<PlacementDecision> decided, long nowMillis) {
        java.time.Instant at = java.time.Instant.ofEpochMilli(nowMillis);
        decided.forEach(d -> decisions.decided(d, at));
        return decided;
    }

    /** The partition a planner site name stands for. */
    static String partitionOf(String site) {
        return site.substring(site.indexOf('/') + 1);
    }

    /** The training site a planner site name stands for. */
    static String siteOf(String site) {
        return site.substring(0, site.indexOf('/'));
    }
}
