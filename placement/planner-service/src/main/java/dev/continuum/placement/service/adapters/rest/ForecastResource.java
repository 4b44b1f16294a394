package dev.continuum.placement.service.adapters.rest;

import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.service.app.PlannerService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The arrival rates the planner expects (docs/placement.md "Forecasts"): per model and site, and per model over all
 * sites ({@code site} "*"), at each horizon, with the interval and how the chosen method has done lately. Every call
 * needs a token.
 */
@Path("/forecasts")
@Produces(MediaType.APPLICATION_JSON)
public class ForecastResource {

    private final PlannerService planner;

    public ForecastResource(PlannerService planner) {
        this.planner = planner;
    }

    /**
     * Rates are jobs per second; {@code smape} (0–2) and {@code coverage} (share of recent intervals that held the
     * rate that came) are null until the method has been scored.
     */
    record ForecastView(String model, String site, long horizonSeconds, double rate, double lower, double upper,
                        String method, Double smape, Double coverage, int scored, double lastRate) {
        static ForecastView of(Forecast f) {
            return new ForecastView(f.series().model(), f.series().site(), f.horizonMillis() / 1000, f.rate(), f.lower(),
                    f.upper(), f.method(), Double.isNaN(f.smape()) ? null : f.smape(),
                    Double.isNaN(f.coverage()) ? null : f.coverage(), f.scored(), f.actualRate());
        }
    }

    record ForecastsView(List<ForecastView> forecasts) {}

    /** Every series' latest forecasts, or those of one model and/or site. */
    @GET
    public ForecastsView get(@QueryParam("model") String model, @QueryParam("site") String site) {
        return new ForecastsView(planner.forecasts().stream()
                .filter(f -> model == null || model.isBlank() || f.series().model().equals(model))
                .filter(f -> site == null || site.isBlank() || f.series().site().equals(site))
                .map(ForecastView::of).toList());
    }
}
