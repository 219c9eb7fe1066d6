package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineReaderTest {
  static StdioTransport.LineReader reader(String text, int max) {
    return new StdioTransport.LineReader(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), max);
  }

  @Test
  void next_splitsOnNewlines_stripsCarriageReturns_andEndsWithNull() throws Exception {
    StdioTransport.LineReader r = reader("a\r\nbé\n\nlast", 100);

    assertThat(r.next().text()).isEqualTo("a");
    assertThat(r.next().text()).isEqualTo("bé");
    assertThat(r.next().text()).isEmpty();
    assertThat(r.next().text()).isEqualTo("last");
    assertThat(r.next()).isNull();
  }

  @Test
  void next_lineOverTheCap_isReportedOversized_andTheNextLineIsIntact() throws Exception {
    StdioTransport.LineReader r = reader("x".repeat(200_000) + "\nok\n", 1000);

    assertThat(r.next().oversized()).isTrue();
    assertThat(r.next().text()).isEqualTo("ok");
    assertThat(r.next()).isNull();
  }
}
