package dev.continuum.placement.core.forecast;

/** Tomorrow at this minute is today at this minute: the count one season before the forecast bucket. */
final class SeasonalNaive implements Method {
    private final History history;
    private final int season;

    SeasonalNaive(History history, int season) {
        this.history = history;
        this.season = season;
    }

    @Override
    public String name() {
        return "seasonal-naive";
    }

    @Override
    public void observe(double count) {
        // reads the shared history
    }

    @Override
    public boolean ready() {
        return history.size() >= season;
    }

    @Override
    public double forecast(int h) {
        // the bucket h after the last is season buckets after the one it repeats
        int back = season - 1 - ((h - 1) % season);
        return history.ago(back);
    }
}
