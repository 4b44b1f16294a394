package dev.continuum.placement.simulator.trace;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * Microsoft Philly {@code cluster_job_log}: a JSON array (or a sequence) of jobs
 * {@code {jobid, user, vc, status, submitted_time, attempts: [{start_time, end_time, detail:
 * [{ip, gpus: [...]}]}]}}, read one object at a time. GPUs = GPUs of the first attempt; duration
 * = first attempt's start to last attempt's end. Jobs that never ran (no attempt with both times
 * or no GPU) are filtered. The log is ordered by job, not submission: wrap it in a
 * {@link ReorderingReader}. A record with bad fields is an error at its position (or skipped);
 * broken JSON syntax ends the stream there (one skipped record when skipping is on).
 */
public final class PhillyTraceReader extends StreamingTraceReader {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final String file;
    private final JsonParser parser;
    private final boolean inArray;
    private boolean done;
    private JsonLocation at;
    private JsonNode record;
    /** Set when the JSON itself breaks: reported once as this record's error, then the stream ends. */
    private TraceFormatException brokenAt;

    public PhillyTraceReader(Path path, boolean skipBadLines) {
        super(skipBadLines);
        this.file = path.toString();
        try {
            parser = MAPPER.getFactory().createParser(path.toFile());
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new TraceFormatException(file, 1, 1, "empty file: expected a JSON array of jobs");
            }
            if (first != JsonToken.START_ARRAY && first != JsonToken.START_OBJECT) {
                throw error(parser.currentTokenLocation(), "expected a JSON array of jobs, found " + first);
            }
            inArray = first == JsonToken.START_ARRAY;
            if (!inArray) {
                pendingFirstObject = true;
            }
        } catch (JsonProcessingException e) {
            throw error(e.getLocation(), e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private boolean pendingFirstObject;

    private TraceFormatException error(JsonLocation at, String problem) {
        long line = at == null ? 0 : Math.max(1, at.getLineNr());
        long column = at == null ? 0 : Math.max(1, at.getColumnNr());
        return new TraceFormatException(file, line, column, problem);
    }

    @Override
    protected boolean nextRecord() {
        if (done) {
            return false;
        }
        at = parser.currentTokenLocation();
        try {
            JsonToken t = pendingFirstObject ? JsonToken.START_OBJECT : parser.nextToken();
            pendingFirstObject = false;
            if (t == null || t == JsonToken.END_ARRAY) {
                done = true;
                return false;
            }
            at = parser.currentTokenLocation();
            if (t != JsonToken.START_OBJECT) {
                done = true; // not a job: nothing after it can be trusted to line up
                brokenAt = error(at, "expected a job object, found " + t);
                return true;
            }
            record = MAPPER.readTree(parser);
        } catch (JsonProcessingException e) {
            done = true;
            brokenAt = error(e.getLocation() == null ? at : e.getLocation(),
                    "broken JSON (truncated file?): " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return true;
    }

    @Override
    protected Job readRecord() {
        if (brokenAt != null) {
            TraceFormatException e = brokenAt;
            brokenAt = null;
            throw e;
        }
        return toJob(record, at);
    }

    @Override
    protected TraceFormatException locate(IllegalArgumentException e) {
        return error(at, e.getMessage());
    }

    private Job toJob(JsonNode n, JsonLocation at) {
        String id = text(n, "jobid", at);
        long submitted = time(n.get("submitted_time"), "submitted_time", at);
        JsonNode attempts = n.get("attempts");
        if (attempts == null || !attempts.isArray()) {
            throw error(at, "job " + id + ": field 'attempts' must be an array");
        }
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        int gpus = 0;
        for (JsonNode a : attempts) {
            JsonNode s = a.get("start_time");
            JsonNode e = a.get("end_time");
            if (isTime(s) && isTime(e)) {
                start = Math.min(start, time(s, "start_time", at));
                end = Math.max(end, time(e, "end_time", at));
            }
            if (gpus == 0 && a.get("detail") != null) {
                for (JsonNode host : a.get("detail")) {
                    JsonNode g = host.get("gpus");
                    gpus += g == null ? 0 : g.size();
                }
            }
        }
        if (gpus == 0 || start == Long.MAX_VALUE || end < start) {
            return null;
        }
        Demand d = new Demand(gpus, 1000, Set.of(), 0, 0);
        return new Job(id, textOr(n, "user"), textOr(n, "vc"), submitted, d, end - start, 0, true, true, gpus, gpus, 0);
    }

    private static boolean isTime(JsonNode v) {
        return v != null && v.isTextual() && !v.asText().isBlank() && !"None".equals(v.asText());
    }

    private long time(JsonNode v, String field, JsonLocation at) {
        if (!isTime(v)) {
            throw error(at, "field '" + field + "' must be a time yyyy-MM-dd HH:mm:ss, was " + v);
        }
        try {
            return LocalDateTime.parse(v.asText(), TIME).toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw error(at, "field '" + field + "' must be a time yyyy-MM-dd HH:mm:ss, was '" + v.asText() + "'");
        }
    }

    private String text(JsonNode n, String field, JsonLocation at) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw error(at, "job object lacks text field '" + field + "'");
        }
        return v.asText();
    }

    private static String textOr(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null ? "" : v.asText();
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException ignored) {
            // read-only
        }
    }
}
