package dev.continuum.engine.adapters.notify;

import dev.continuum.engine.app.Notifier;
import dev.continuum.engine.app.RunNotice;
import dev.continuum.engine.config.EngineConfig;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Notices by e-mail to the run owner's address, through the SMTP server quarkus.mailer.* configures. */
@ApplicationScoped
public class EmailNotifier implements Notifier {

    private final ReactiveMailer mailer;
    private final boolean enabled;

    public EmailNotifier(ReactiveMailer mailer, EngineConfig config) {
        this.mailer = mailer;
        this.enabled = config.notifications().email();
    }

    @Override
    public String channel() {
        return "email";
    }

    @Override
    public boolean carries(RunNotice notice) {
        return enabled && notice.email().isPresent();
    }

    @Override
    public Uni<Void> send(RunNotice notice) {
        return mailer.send(Mail.withText(notice.email().orElseThrow(), NoticeText.subject(notice), NoticeText.body(notice)));
    }
}
