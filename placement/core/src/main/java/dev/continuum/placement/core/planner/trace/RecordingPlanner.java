package dev.continuum.placement.core.planner.trace;

import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlacementResult;
import dev.continuum.placement.core.planner.Planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * A planner that writes every input and every answer to a trace (JSON lines) as it passes them on. An inventory
 * equal to the last one is not written: the planner answers it with nothing, so leaving it out changes nothing.
 */
public final class RecordingPlanner implements Planner {
    private final OnlinePlanner planner;
    private final Writer out;
    private Inventory lastInventory;

    public RecordingPlanner(OnlinePlanner planner, Writer out) {
        this.planner = planner;
        this.out = out;
        write(new TraceEvent.Header(TraceEvent.VERSION, planner.config()));
    }

    @Override
    public List<dev.continuum.placement.core.forecast.Forecast> forecasts() {
        return planner.forecasts();
    }

    @Override
    public List<PlacementDecision> update(Inventory inventory, long nowMillis) {
        if (inventory.equals(lastInventory)) {
            return planner.update(inventory, nowMillis);
        }
        lastInventory = inventory;
        write(new TraceEvent.InventoryChanged(nowMillis, inventory));
        return decided(planner.update(inventory, nowMillis));
    }

    @Override
    public PlacementResult place(PlacementRequest request, long nowMillis) {
        write(new TraceEvent.Arrived(nowMillis, request));
        try {
            PlacementResult result = planner.place(request, nowMillis);
            decided(result.decisions());
            return result;
        } catch (InvalidRequestException e) {
            write(new TraceEvent.Refused(e.errors()));
            throw e;
        }
    }

    @Override
    public List<PlacementDecision> restore(List<dev.continuum.placement.core.planner.Restored> jobs, long nowMillis) {
        write(new TraceEvent.Restore(nowMillis, jobs));
        return decided(planner.restore(jobs, nowMillis));
    }

    @Override
    public List<PlacementDecision> observe(Observation observation) {
        write(new TraceEvent.Observed(observation));
        return decided(planner.observe(observation));
    }

    private List<PlacementDecision> decided(List<PlacementDecision> decisions) {
        write(new TraceEvent.Decided(decisions));
        return decisions;
    }

    private void write(TraceEvent event) {
        try {
            out.write(TraceCodec.write(event));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the planner trace", e);
        }
    }
}
