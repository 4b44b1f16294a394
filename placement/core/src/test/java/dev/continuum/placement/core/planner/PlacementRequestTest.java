package dev.continuum.placement.core.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.continuum.placement.core.model.Demand;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementRequestTest {
    @Test
    void shouldSumInputBytesWhenSeveralDataReferencesAreGiven() {
        var request = new PlacementRequest("r1", PlacementRequest.Kind.INFERENCE, "llama", 1, 1,
                Demand.wholeGpus(1), List.of(new DataReference("ep1", "/a", 100), new DataReference("ep2", "/b", 50)),
                0, 200, 0, "t", "");
        assertEquals(150, request.inputBytes());
    }

    @Test
    void shouldRejectRequestWhenMaxGpusBelowMinGpus() {
        assertThrows(IllegalArgumentException.class, () -> new PlacementRequest("r1",
                PlacementRequest.Kind.TRAINING, "m", 4, 2, Demand.wholeGpus(4), List.of(), 0, 0, 0, "", ""));
    }

    @Test
    void shouldRejectDataReferenceWhenSizeIsNegative() {
        assertThrows(IllegalArgumentException.class, () -> new DataReference("ep", "/x", -1));
    }
}
