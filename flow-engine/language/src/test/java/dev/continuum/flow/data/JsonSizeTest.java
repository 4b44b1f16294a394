package dev.continuum.flow.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.testing.Fixtures;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The bound is on the text the state limit is defined on, toString() as UTF-8: never below it, and exact mostly. */
class JsonSizeTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private static long textBytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void shouldBeExactForAPlainDocument() {
        JsonNode doc = Fixtures.json("{'a': [1, -20, true, false, null, {}, []], 'b': {'c': 'text', 'd': [[]]}, '': ''}");

        assertThat(JsonSize.atMost(doc)).isEqualTo(textBytes(doc));
    }

    @Test
    void shouldBeExactForEveryCharacterUpToThreeBytesInValuesAndNames() {
        ObjectNode doc = JSON.objectNode();
        for (char c = 0; c < 0x900; c++) {
            doc.put("name " + c, "value " + c);
        }
        doc.put("three bytes", "€ 日本語 \u2028 \u2029 \ufeff \uffff");

        assertThat(JsonSize.atMost(doc)).isEqualTo(textBytes(doc));
    }

    @Test
    void shouldCountASurrogatePairAsFourBytesAndOneWithoutItsPartnerAsOneAsGetBytesDoes() {
        ObjectNode doc = JSON.objectNode();
        doc.put("pairs 😀 𝄞", "😀 𝄞");
        doc.put("high then text", "a\ud83dz");
        doc.put("high then high then low", "\ud83d\ud83d\ude00");
        doc.put("low alone", "\ude00x");
        doc.put("high at the end", "x\ud83d");

        assertThat(JsonSize.atMost(doc)).isEqualTo(textBytes(doc));
    }

    @Test
    void shouldBeExactForIntegersAndDecimals() {
        ObjectNode doc = JSON.objectNode();
        doc.put("int", Integer.MIN_VALUE);
        doc.put("short", (short) -7);
        doc.put("long max", Long.MAX_VALUE);
        doc.put("long min", Long.MIN_VALUE);
        doc.put("zero", 0L);
        doc.put("bigInteger", new BigInteger("-123456789012345678901234567890"));
        doc.put("bigDecimal", new BigDecimal("1.50E+30"));
        doc.put("bigDecimal plain", new BigDecimal("-0.000125"));

        assertThat(JsonSize.atMost(doc)).isEqualTo(textBytes(doc));
    }

    @Test
    void shouldNeverBeBelowTheTextForFloatingPointNumbers() {
        ArrayNode doc = JSON.arrayNode();
        for (double d : new double[] {0.0, -0.0, 1.0, 0.1, -2.2250738585072014E-308, Double.MIN_VALUE, Double.MAX_VALUE,
                1.0E-7, 123456.789, Double.NaN, Double.NEGATIVE_INFINITY}) {
            doc.add(d);
            doc.add((float) d);
            assertThat(JsonSize.atMost(JSON.numberNode(d))).isGreaterThanOrEqualTo(textBytes(JSON.numberNode(d)));
            assertThat(JsonSize.atMost(JSON.numberNode((float) d))).isGreaterThanOrEqualTo(textBytes(JSON.numberNode((float) d)));
        }

        assertThat(JsonSize.atMost(doc)).isGreaterThanOrEqualTo(textBytes(doc));
    }

    @Test
    void shouldLeaveBinaryValuesAndVeryDeepDocumentsToAnExactMeasure() {
        ObjectNode binary = JSON.objectNode().put("bytes", new byte[] {1, 2, 3});
        ArrayNode deep = JSON.arrayNode();
        ArrayNode inner = deep;
        for (int i = 0; i < JsonSize.MAX_DEPTH + 1; i++) {
            inner = inner.addArray();
        }

        assertThat(JsonSize.atMost(binary)).isEqualTo(Long.MAX_VALUE);
        assertThat(JsonSize.atMost(deep)).isEqualTo(Long.MAX_VALUE);
    }
}
