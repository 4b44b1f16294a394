package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.transfer.endpoint.Access;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.engine.Progress;
import dev.continuum.provider.transfer.engine.TransferEngine;
import dev.continuum.provider.transfer.engine.TransferFailedException;
import dev.continuum.provider.transfer.engine.TransferJournal;
import dev.continuum.provider.transfer.engine.TransferOptions;
import io.opentelemetry.context.Context;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The transfer action: copies items from one endpoint to another, verified and resumable. The
 * action stays ACTIVE with progress in {@code details} (bytes, files, rate, ETA) and SUCCEEDS with
 * the totals. With a persistent action store, a provider restarted after a crash resumes each
 * unfinished transfer from its journal under the same action id.
 */
public final class TransferProvider implements ActionProvider {

    private static final System.Logger LOG = System.getLogger(TransferProvider.class.getName());
    private static final Duration LOG_PROGRESS_EVERY = Duration.ofSeconds(5);

    private final EndpointRegistry endpoints;
    private final TransferOptions options;
    private final Path journals;
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    private final MeasuredRates rates;

    public TransferProvider(EndpointRegistry endpoints, TransferOptions options, Path journals) {
        this(endpoints, options, journals, MeasuredRates.NONE);
    }

    /** {@code rates} hears each successful transfer's bytes and time between its two endpoints (the planner's links). */
    public TransferProvider(EndpointRegistry endpoints, TransferOptions options, Path journals, MeasuredRates rates) {
        this.endpoints = endpoints;
        this.options = options;
        this.journals = journals;
        this.rates = rates;
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Continuum Transfer")
                .subtitle("Checksummed, resumable transfers between registered endpoints")
                .description("Copies files and directory trees between datacenter directories, edge gateway storage and "
                        + "S3-compatible stores, in checksum-verified chunks (BLAKE3 or SHA-256), resuming after a crash without resending "
                        + "verified bytes. Accepts the Globus transfer shapes (source_endpoint_id + transfer_items, "
                        + "source_endpoint + DATA).")
                .keywords(List.of("transfer", "copy", "globus", "s3"))
                .scope("urn:continuum:providers:transfer")
                .inputSchema(Schemas.TRANSFER)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        TransferRequest transfer = TransferRequest.parse(request.body());
        Endpoint source;
        Endpoint destination;
        try {
            source = endpoints.require(transfer.sourceEndpoint(), ctx.caller(), Access.READ);
            destination = endpoints.require(transfer.destinationEndpoint(), ctx.caller(), Access.WRITE);
        } catch (EndpointRegistry.EndpointAccessException e) {
            ctx.log(e.code(), e.getMessage(), null);
            return ctx.failed(e.code().equals("PermissionDenied") ? "Permission denied" : "Endpoint not found",
                    Bodies.object().put("code", e.code()).put("description", e.getMessage()));
        }
        if (request.deadline() != null && request.deadline().isBefore(Instant.now())) {
            return ctx.failed("Deadline passed", Bodies.object().put("code", "DeadlinePassed")
                    .put("description", "the deadline " + request.deadline() + " has passed"));
        }
        ctx.log("TransferAccepted", "from " + source.id() + " (" + source.storage().describe() + ") to " + destination.id()
                + " (" + destination.storage().describe() + "), " + transfer.items().size() + " item(s)", null);
        launch(ctx, transfer, source, destination);
        return ctx.active("Transferring", progressDetails(transfer, new Progress().snapshot()));
    }

    @Override
    public void resume(ActionContext ctx) {
        TransferRequest transfer = TransferRequest.parse(ctx.request().body());
        // access was checked when the action started; the endpoints must still exist
        Endpoint source = endpoints.find(transfer.sourceEndpoint()).orElse(null);
        Endpoint destination = endpoints.find(transfer.destinationEndpoint()).orElse(null);
        if (source == null || destination == null) {
            ctx.fail("Endpoint not found", Bodies.object().put("code", "EndpointNotFound")
                    .put("description", "an endpoint of this transfer is no longer registered"));
            return;
        }
        ctx.log("TransferResumed", "provider restarted; continuing from the journal", null);
        launch(ctx, transfer, source, destination);
    }

    @Override
    public void cancel(ActionContext ctx) {
        AtomicBoolean flag = running.get(ctx.actionId());
        if (flag != null) {
            flag.set(true);
        }
    }

    private void launch(ActionContext ctx, TransferRequest transfer, Endpoint source, Endpoint destination) {
        AtomicBoolean cancelled = new AtomicBoolean();
        running.put(ctx.actionId(), cancelled);
        Progress progress = new Progress();
        // in the request's trace (none for a transfer resumed after a restart): the storage calls carry it on
        Thread worker = new Thread(Context.current().wrap(() -> execute(ctx, transfer, source, destination, progress, cancelled)),
                "transfer-" + ctx.actionId());
        worker.setDaemon(true);
        worker.start();
        reportProgress(ctx, transfer, progress, Instant.now(), 0);
    }

    /**
     * The rate this transfer measured, to the planner: only bytes sent now (a resumed transfer's journal bytes took no
     * time here) and only a transfer long enough to say something about the link. A planner that cannot be told is
     * logged and left: the data arrived either way.
     */
    private void report(TransferRequest transfer, Progress.Snapshot done) {
        long sent = done.bytesDone() - done.bytesResumed();
        if (sent <= 0 || done.elapsed().toMillis() < 1 || transfer.sourceEndpoint().equals(transfer.destinationEndpoint())) {
            return;
        }
        try {
            rates.measured(transfer.sourceEndpoint(), transfer.destinationEndpoint(), sent, done.elapsed());
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(TransferProvider.class.getName()).warning(
                    "could not report the measured rate to the planner: " + e.getMessage());
        }
    }

    /** Progress into the status every tick; into the log at each tenth of the bytes or every few seconds. */
    private void reportProgress(ActionContext ctx, TransferRequest transfer, Progress progress, Instant lastLogged,
                                long lastTenth) {
        ctx.schedule(options.progressEvery(), () -> {
            if (ctx.finished()) {
                return;
            }
            Progress.Snapshot s = progress.snapshot();
            ctx.progress("Transferring", progressDetails(transfer, s));
            long tenth = s.bytesTotal() == 0 ? 0 : s.bytesDone() * 10 / s.bytesTotal();
            boolean due = Duration.between(lastLogged, Instant.now()).compareTo(LOG_PROGRESS_EVERY) >= 0;
            if ((due || tenth > lastTenth) && s.bytesDone() > 0) {
                ctx.log("Progress", describe(s), progressDetails(transfer, s));
                reportProgress(ctx, transfer, progress, Instant.now(), tenth);
            } else {
                reportProgress(ctx, transfer, progress, lastLogged, lastTenth);
            }
        });
    }

    private void execute(ActionContext ctx, TransferRequest transfer, Endpoint source, Endpoint destination,
                         Progress progress, AtomicBoolean cancelled) {
        TransferJournal journal = TransferJournal.open(journals.resolve(ctx.actionId() + ".journal"));
        try {
            Progress.Snapshot done = new TransferEngine(options).run(source.storage(), destination.storage(),
                    transfer.items(), transfer.syncLevel(), transfer.verifyChecksum(), transfer.checksumAlgorithm(), journal, progress, (code, text) -> ctx.log(code, text, null),
                    cancelled);
            ObjectNode details = progressDetails(transfer, done);
            details.put("status", "SUCCEEDED");
            details.put("duration_seconds", done.elapsed().toMillis() / 1000.0);
            ctx.log("TransferSucceeded", describe(done), details);
            journal.delete();
            ctx.complete(details);
            report(transfer, done);
        } catch (TransferFailedException e) {
            if (cancelled.get()) {
                journal.delete();   // nothing to resume: the framework reports the cancellation
                return;
            }
            journal.close();
            ObjectNode details = progressDetails(transfer, progress.snapshot());
            details.put("code", e.code()).put("description", e.getMessage());
            ctx.log("TransferFailed", e.getMessage(), details);
            ctx.fail(e.code().equals("ChecksumMismatch") ? "Checksum mismatch" : "Failed", details);
        } catch (RuntimeException e) {
            journal.close();
            LOG.log(System.Logger.Level.ERROR, "transfer " + ctx.actionId() + " failed", e);
            ctx.fail("Failed", Bodies.object().put("code", "TransferError").put("description", String.valueOf(e.getMessage())));
        } finally {
            running.remove(ctx.actionId());
        }
    }

    private static String describe(Progress.Snapshot s) {
        return String.format("%d/%d files, %d/%d bytes (%d resumed), %.1f MB/s, ETA %s s",
                s.filesDone(), s.filesTotal(), s.bytesDone(), s.bytesTotal(), s.bytesResumed(),
                s.rateBytesPerSecond() / 1e6, s.etaSeconds() == null ? "?" : s.etaSeconds().toString());
    }

    static ObjectNode progressDetails(TransferRequest transfer, Progress.Snapshot s) {
        ObjectNode d = Bodies.object();
        d.put("source_endpoint_id", transfer.sourceEndpoint());
        d.put("destination_endpoint_id", transfer.destinationEndpoint());
        if (transfer.label() != null) {
            d.put("label", transfer.label());
        }
        d.put("bytes_transferred", s.bytesDone());
        d.put("bytes_total", s.bytesTotal());
        d.put("bytes_resumed", s.bytesResumed());
        d.put("files_transferred", s.filesDone() - s.filesSkipped());
        d.put("files_skipped", s.filesSkipped());
        d.put("files_total", s.filesTotal());
        d.put("rate_bytes_per_second", s.rateBytesPerSecond());
        if (s.etaSeconds() == null) {
            d.putNull("eta_seconds");
        } else {
            d.put("eta_seconds", s.etaSeconds());
        }
        d.put("checksum_mismatches", s.checksumMismatches());
        d.put("retries", s.retries());
        d.put("checksum_algorithm", transfer.checksumAlgorithm().label());
        d.put("verify_checksum", transfer.verifyChecksum());
        d.put("sync_level", transfer.syncLevel() == null ? null : transfer.syncLevel().name().toLowerCase(java.util.Locale.ROOT));
        return d;
    }
}
