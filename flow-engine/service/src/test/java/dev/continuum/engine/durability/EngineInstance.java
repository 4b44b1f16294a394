package dev.continuum.engine.durability;

/** One running engine process: its lease name, where it listens, and the process to kill. */
final class EngineInstance {

    private final String instanceId;
    private final int port;
    private final ChildProcess process;
    private final EngineApi api;

    EngineInstance(String instanceId, int port, ChildProcess process) {
        this.instanceId = instanceId;
        this.port = port;
        this.process = process;
        this.api = new EngineApi("http://127.0.0.1:" + port);
    }

    String instanceId() {
        return instanceId;
    }

    int port() {
        return port;
    }

    EngineApi api() {
        return api;
    }

    ChildProcess process() {
        return process;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether it answers ready now (a restarted engine is alive for a while before it serves). */
    boolean isReady() {
        return process.isAlive() && api.isReady();
    }

    /** kill -9: the engine gets no chance to finish a turn, commit, or release its leases. */
    void kill() {
        process.kill();
    }
}
