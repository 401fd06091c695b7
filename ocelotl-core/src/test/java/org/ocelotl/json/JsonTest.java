package org.ocelotl.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesCompactAndPretty() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("name", "a \"b\"\n\\");
    map.put("n", 3L);
    map.put("x", 0.5);
    map.put("nan", Double.NaN);
    map.put("list", List.of(1L, 2L));
    map.put("rows", List.of(Map.of("k", true)));
    assertEquals("{\"name\":\"a \\\"b\\\"\\n\\\\\",\"n\":3,\"x\":0.5,\"nan\":null,"
        + "\"list\":[1,2],\"rows\":[{\"k\":true}]}", Json.write(map));
    assertEquals("{\n  \"name\": \"a \\\"b\\\"\\n\\\\\",\n  \"n\": 3,\n  \"x\": 0.5,\n"
        + "  \"nan\": null,\n  \"list\": [1, 2],\n  \"rows\": [\n    {\n      \"k\": true\n    }\n  ]\n}\n",
        Json.pretty(map));
  }

  @Test
  void parsesWhatItWrites() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("s", "é\u0001\t");
    map.put("long", Long.MAX_VALUE / 10);
    map.put("neg", -7L);
    map.put("d", 1.0e-300);
    map.put("whole", 3.0);
    map.put("null", null);
    map.put("nested", List.of(List.of(), Map.of(), List.of(false, "x")));
    assertEquals(map, Json.parse(Json.write(map)));
    assertEquals(map, Json.parse(Json.pretty(map)));
  }

  @Test
  void doublesRoundTripExactly() {
    long seed = 20240611L;
    Random random = new Random(seed);
    double[] values = new double[1000];
    for (int i = 0; i < values.length; i++) {
      values[i] = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(values[i])) {
        values[i] = random.nextDouble();
      }
    }
    List<Object> list = Arrays.stream(values).boxed().map(v -> (Object) v).toList();
    @SuppressWarnings("unchecked")
    List<Object> back = (List<Object>) Json.parse(Json.write(list));
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], ((Number) back.get(i)).doubleValue(), 0.0, "seed " + seed + " index " + i);
    }
  }

  @Test
  void errorsNameTheOffsetAndWhatWasExpected() {
    assertEquals("JSON offset 7: expected a quoted key, found '1:2}'",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1,1:2}")).getMessage());
    assertEquals("JSON offset 3: expected ']', found end of input",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[1 ")).getMessage());
    assertEquals("JSON offset 2: expected end of input, found 'x'",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("1 x")).getMessage());
    assertEquals("JSON offset 0: expected a value, found '1.2.3'",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("1.2.3")).getMessage());
  }
}
