package dev.continuum.placement.core.forecast;

/** One arrival series: inference jobs for a model at a site; {@link #ALL_SITES} sums a model over every site. */
public record SeriesKey(String model, String site) {
    public static final String ALL_SITES = "*";

    public SeriesKey {
        model = model == null ? "" : model;
        site = site == null || site.isBlank() ? ALL_SITES : site;
    }

    public static SeriesKey allSites(String model) {
        return new SeriesKey(model, ALL_SITES);
    }

    @Override
    public String toString() {
        return model + "@" + site;
    }
}
