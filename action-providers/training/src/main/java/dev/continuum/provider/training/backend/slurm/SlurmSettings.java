package dev.continuum.provider.training.backend.slurm;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the Slurm backend finds its cluster.
 *
 * @param restUrl    slurmrestd's base URL (e.g. http://head:6820)
 * @param user       the Slurm user the jobs run as (X-SLURM-USER-NAME)
 * @param tokenFile  a file holding that user's JWT ({@code scontrol token}); read on every call, so rotating it needs no restart
 * @param site       the site name reported in placements
 * @param timeout    one slurmrestd call (slurmrestd itself waits ~20 s for a slurmctld that is down)
 * @param attempts   calls made before the backend reports Slurm unavailable
 * @param backoff    first pause between attempts, doubled each time
 * @param slurmConf  slurm.conf for the command-line fallbacks (scancel --batch, scontrol requeue); empty: the default
 */
public record SlurmSettings(URI restUrl, String user, Path tokenFile, String site, Duration timeout, int attempts,
                            Duration backoff, Optional<Path> slurmConf) {
    public SlurmSettings {
        Objects.requireNonNull(restUrl, "restUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(tokenFile, "tokenFile");
        Objects.requireNonNull(site, "site");
        slurmConf = slurmConf == null ? Optional.empty() : slurmConf;
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
    }

    public static SlurmSettings of(URI restUrl, String user, Path tokenFile, String site) {
        return new SlurmSettings(restUrl, user, tokenFile, site, Duration.ofSeconds(30), 3, Duration.ofSeconds(1),
                Optional.empty());
    }

    public SlurmSettings withSlurmConf(Path conf) {
        return new SlurmSettings(restUrl, user, tokenFile, site, timeout, attempts, backoff, Optional.of(conf));
    }

    public SlurmSettings withRetries(int attempts, Duration backoff) {
        return new SlurmSettings(restUrl, user, tokenFile, site, timeout, attempts, backoff, slurmConf);
    }
}
