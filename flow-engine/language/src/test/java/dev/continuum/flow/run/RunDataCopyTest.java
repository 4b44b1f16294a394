package dev.continuum.flow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The interpreter's per-step copy of a run keeps every field, as the stored JSON form does. */
class RunDataCopyTest {

    @Test
    void shouldCopyEveryFieldOfTheRunAsTheStoredJsonWould() throws Exception {
        RunData original = filled(RunData.class, "run");

        RunData copy = original.copy();

        JsonNode expected = RunState.MAPPER.valueToTree(original);
        assertThat(RunState.MAPPER.<JsonNode>valueToTree(copy)).isEqualTo(expected);
        assertThat(expected.toString()).contains("\"inactive\":true").contains("run-branches-waiting-join-results");
    }

    @Test
    void shouldShareNothingMutableWithTheOriginal() throws Exception {
        RunData original = filled(RunData.class, "run");
        RunData copy = original.copy();
        JsonNode before = RunState.MAPPER.valueToTree(copy);

        ((ObjectNode) original.output).put("changed", true);
        RunData.Branch branch = original.branches.values().iterator().next();
        ((ObjectNode) branch.data).put("changed", true);
        ((ObjectNode) branch.waiting.action.body).put("changed", true);
        ((ObjectNode) branch.waiting.join.results.get(0)).put("changed", true);
        branch.retriesUsed.put("0", 99);
        branch.waiting.action.polls = 99;
        original.visits.put("new", 1);
        original.tags.add("new");

        assertThat(RunState.MAPPER.<JsonNode>valueToTree(copy)).isEqualTo(before);
    }

    /** An instance whose every public field holds a value no default has, nested types included. */
    static <T> T filled(Class<T> type, String path) throws Exception {
        var constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        T instance = constructor.newInstance();
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || !Modifier.isPublic(field.getModifiers())) {
                continue;
            }
            field.set(instance, value(field.getType(), field.getGenericType(), path + "-" + field.getName()));
        }
        return instance;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object value(Class<?> type, Type generic, String path) throws Exception {
        if (type == String.class) {
            return path;
        }
        if (type == int.class) {
            return 7;
        }
        if (type == boolean.class) {
            return true;
        }
        if (type == Instant.class) {
            return Instant.parse("2026-01-02T03:04:05.123456Z");
        }
        if (JsonNode.class.isAssignableFrom(type)) {
            return RunState.MAPPER.createObjectNode().put("at", path);
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return constants[constants.length - 1];
        }
        if (type == List.class) {
            Type item = ((ParameterizedType) generic).getActualTypeArguments()[0];
            List list = new ArrayList<>();
            list.add(value((Class<?>) item, item, path));
            return list;
        }
        if (type == Map.class) {
            Type item = ((ParameterizedType) generic).getActualTypeArguments()[1];
            Map map = new LinkedHashMap<>();
            map.put("key", value((Class<?>) item, item, path));
            return map;
        }
        if (type == Integer.class) {
            return 3;
        }
        return filled(type, path);
    }
}
