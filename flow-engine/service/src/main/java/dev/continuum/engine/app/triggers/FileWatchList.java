package dev.continuum.engine.app.triggers;

import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.engine.domain.triggers.Trigger;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Keeps each gateway's watch list equal to its active file triggers: after any change to a file trigger the
 * gateway's whole list is published again (retained), so a gateway gets the list as it is now whenever it connects,
 * and a paused or deleted trigger's watch is dropped.
 */
@ApplicationScoped
public class FileWatchList {

    private final TriggerStore store;
    private final EdgeLink link;

    public FileWatchList(TriggerStore store, EdgeLink link) {
        this.store = store;
        this.link = link;
    }

    public boolean available() {
        return link.configured();
    }

    /** Publishes the lists of the gateways these triggers name (before and after a change). */
    public Uni<Void> refresh(Trigger... changed) {
        Set<String> gateways = java.util.Arrays.stream(changed).filter(FileSources::isFile)
                .map(FileSources::gateway).collect(Collectors.toSet());
        if (gateways.isEmpty() || !link.configured()) {
            return Uni.createFrom().voidItem();
        }
        return lists().flatMap(all -> publish(gateways.stream()
                .collect(Collectors.toMap(g -> g, g -> all.getOrDefault(g, new FileWatch.Watches(List.of()))))));
    }

    /** Publishes every gateway's list (at start-up: triggers may have changed while the engine was down). */
    public Uni<Void> refreshAll() {
        return link.configured() ? lists().flatMap(this::publish) : Uni.createFrom().voidItem();
    }

    private Uni<Map<String, FileWatch.Watches>> lists() {
        return store.active(FileSources.TYPE).map(triggers -> {
            Map<String, FileWatch.Watches> byGateway = new TreeMap<>();
            triggers.stream().sorted(Comparator.comparing(Trigger::createdAt))
                    .collect(Collectors.groupingBy(FileSources::gateway, TreeMap::new, Collectors.toList()))
                    .forEach((gateway, list) -> byGateway.put(gateway,
                            new FileWatch.Watches(list.stream().map(FileSources::watchOf).toList())));
            return byGateway;
        });
    }

    private Uni<Void> publish(Map<String, FileWatch.Watches> lists) {
        return Multi.createFrom().iterable(lists.entrySet())
                .onItem().transformToUniAndConcatenate(e -> link.publishWatches(e.getKey(), e.getValue()))
                .collect().last().replaceWithVoid();
    }
}
