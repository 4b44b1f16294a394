package dev.continuum.placement.core.planner;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * How far the actual latencies of completed inference jobs fell from their predicted mean, per (site, model) and per
 * case the cost model tells apart (the input moved there or already there; tasks ahead of the job or none): the
 * ratio actual / predicted of the last {@link #WINDOW} jobs of each case, and a quantile of it. A risk-aware choice
 * ranks a site by its predicted mean times that quantile: an estimate of the site's p90 (say) for this job. Two sites
 * with the same mean are not the same risk: on the emulated continuum a 0.1-CPU gateway ran its local jobs in 60–495
 * ms (p10–p90) around a ~190 ms prediction — it finishes a task at once when its CFS period's quota is left, else
 * periods later — while moving the input over the 10 Mbit/s link to the pool took 212–228 ms. Pure and deterministic:
 * a replay learns the same quantiles from the same completions.
 */
final class LatencySpread {
    /** Jobs per case the quantile is taken over: enough for a p90 with a few jobs above it, short enough to follow drift. */
    static final int WINDOW = 50;
    /** Until a case has this many jobs its quantile is too rough to rank by: the site's nearest case stands in. */
    static final int MIN_SAMPLES = 5;
    /** No spread learnt for the model anywhere yet: the mean alone (factor 1). */
    static final Tail NONE = new Tail(1, 0, null);

    /**
     * The factor the predicted mean is multiplied by, how many completed jobs it rests on (0: none), and the site whose
     * spread stands in for a site with none learnt yet ({@code null}: the site's own).
     */
    record Tail(double factor, int samples, String borrowedFrom) {
    }

    /** One case's last ratios (a ring) and their quantile, kept up to date as jobs complete. */
    private static final class Ratios {
        final double[] ring = new double[WINDOW];
        int count;
        int next;
        double quantile;
    }

    private final double quantile;
    /** Per (site, model): the four cases, indexed {@code 2 · moved + ahead}. */
    private final PairMap<Ratios[]> byCase = new PairMap<>();
    /** Per (model, site): the site's widest case with enough jobs, as a tail; what stands in for an unmeasured site. */
    private final PairMap<Tail> widestBySite = new PairMap<>();
    /** Per model: the widest of {@link #widestBySite} over all its sites, or absent while no site has a spread. */
    private final Map<String, Tail> riskiest = new HashMap<>();

    /** {@code quantile} in (0, 1): which quantile of actual / predicted the tail factor is. */
    LatencySpread(double quantile) {
        this.quantile = quantile;
    }

    /**
     * The tail factor for a job at {@code site}: its own case's quantile once it has {@link #MIN_SAMPLES} jobs, else
     * the case with the other tasks-ahead, else the other input case, else the remaining one. A site with no spread
     * learnt yet is taken to be as risky as the riskiest site measured for the model: ranked by its mean alone
     * (factor 1), an unmeasured option looked safer than every measured one — on the emulated continuum the planner
     * sent 21 of gw-slow's jobs over the 10 Mbit/s link to gw-fast, an unmeasured 0.1-CPU gateway, rather than to the
     * pool whose moved jobs varied by a few per cent, and p95 doubled. {@link #NONE} while no site has a spread.
     */
    Tail tail(String site, String model, boolean inputMoved, boolean tasksAhead) {
        Ratios[] cases = byCase.get(site, model);
        if (cases != null) {
            int own = index(inputMoved, tasksAhead);
            for (int flip = 0; flip < 4; flip++) {
                Ratios r = cases[own ^ flip];
                if (r != null && r.count >= MIN_SAMPLES) {
                    return new Tail(factor(r), r.count, null);
                }
            }
        }
        return riskiest.getOrDefault(model, NONE);
    }

    /**
     * Never below the mean: the tail adds a site's risk, it does not correct its mean (the cost model's job). A factor
     * under 1 — jobs finishing before their prediction, or completions reported at once as when a site's compute is
     * taught — would rank that site ahead of its mean.
     */
    private static double factor(Ratios r) {
        return Math.max(1, r.quantile);
    }

    /** A job of this case completed {@code actualMillis} after it was placed, {@code predictedMillis} predicted. */
    void observe(String site, String model, boolean inputMoved, boolean tasksAhead, long predictedMillis,
                 long actualMillis) {
        if (predictedMillis <= 0 || actualMillis <= 0) {
            return; // no ratio: nothing predicted, or a completion reported when it was placed (no latency in it)
        }
        Ratios[] cases = byCase.get(site, model);
        if (cases == null) {
            cases = new Ratios[4];
            byCase.put(site, model, cases);
        }
        int i = index(inputMoved, tasksAhead);
        Ratios r = cases[i] == null ? (cases[i] = new Ratios()) : cases[i];
        r.ring[r.next] = actualMillis / (double) predictedMillis;
        r.next = (r.next + 1) % WINDOW;
        r.count = Math.min(WINDOW, r.count + 1);
        double[] sorted = Arrays.copyOf(r.ring, r.count);
        Arrays.sort(sorted);
        // the nearest rank: with 50 jobs the p90 is the 45th smallest ratio
        r.quantile = sorted[Math.max(0, (int) Math.ceil(quantile * r.count) - 1)];
        Tail widest = null;
        for (Ratios c : cases) {
            if (c != null && c.count >= MIN_SAMPLES && (widest == null || factor(c) > widest.factor())) {
                widest = new Tail(factor(c), c.count, site);
            }
        }
        if (widest != null) {
            widestBySite.put(model, site, widest);
            riskiest.put(model, widestBySite.values(model).stream()
                    .max(Comparator.comparingDouble(Tail::factor)).orElseThrow());
        }
    }

    private static int index(boolean inputMoved, boolean tasksAhead) {
        return (inputMoved ? 2 : 0) + (tasksAhead ? 1 : 0);
    }
}
