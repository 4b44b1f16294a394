package dev.continuum.provider.training.core;

/** Told about every change of a job (on the scheduler's thread): the provider stores and shows it. */
public interface JobListener {
    void changed(TrainingJob job);
}
