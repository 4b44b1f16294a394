package dev.continuum.placement.core.forecast;

/**
 * The arrival rate expected {@code horizonMillis} ahead for one series, in jobs per second, with its prediction
 * interval ({@code lower}, {@code upper}) and how the method chosen for this horizon has done lately: its sMAPE
 * (symmetric mean absolute percentage error, 0–2; 0 is exact) and the share of its recent intervals that held the
 * rate that came ({@code coverage}), over {@code scored} forecasts. {@code actualRate} is the rate of the last bucket.
 */
public record Forecast(SeriesKey series, int horizonBuckets, long horizonMillis, double rate, double lower,
                       double upper, String method, double smape, double coverage, int scored, double actualRate) {
}
