package dev.cortex.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The checks in front of a local endpoint, before any handler runs. */
class RequestGuardTest {
  static final String HOST = "127.0.0.1:3001";

  static UnaryOperator<String> headers(Map<String, String> values) {
    return name -> values.get(name);
  }

  static RequestGuard tokenless() {
    return RequestGuard.builder().hosts(List.of(HOST)).build();
  }

  static RequestGuard withToken() {
    return RequestGuard.builder()
        .hosts(List.of(HOST))
        .token(
            RequestGuard.TokenHeader.raw("x-cortex-token"),
            RequestGuard.TokenCheck.equalTo("0123456789abcdef"))
        .build();
  }

  /**
   * Regression: a route that takes no token (the waitpoints' signal route, health, enrolment) let a
   * secret in the query string through to its handler.
   */
  @Test
  void check_secretInTheQueryOfARouteWithoutToken_isRefusedBeforeAnyHandler() {
    for (String query :
        List.of(
            "secret=wps_abc",
            "x=1&token=t",
            "Access_Token=t",
            "cortex_token=t",
            "credential=c",
            "password=p",
            "api_key=k",
            "code=123456",
            "wait_secret=s",
            "session-token=t",
            "secret",
            "%73ecret=s")) {
      RequestGuard.Refusal refusal = tokenless().check(headers(Map.of("Host", HOST)), query);

      assertThat(refusal).as(query).isNotNull();
      assertThat(refusal.status()).isEqualTo(401);
      assertThat(refusal.code()).isEqualTo("UNAUTHORIZED");
      assertThat(refusal.message()).contains("query string").doesNotContain("wps_abc");
    }
  }

  /** Regression: a secret of Cortex's forms under a harmless name ({@code ?s=wps_…}) passed. */
  @Test
  void check_aValueOfASecretsFormUnderAnyName_isRefused() {
    for (String query :
        List.of(
            "s=wps_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0u-_",
            "limit=5&q=wps_A1b2C3d4E5",
            "q=%77ps_A1b2C3d4E5f6",
            "q=see%20cxd_A1b2C3d4E5f6G7h8",
            "wps_A1b2C3d4E5f6G7h8")) {
      RequestGuard.Refusal refusal = tokenless().check(headers(Map.of("Host", HOST)), query);

      assertThat(refusal).as(query).isNotNull();
      assertThat(refusal.status()).isEqualTo(401);
      assertThat(refusal.message()).doesNotContain("A1b2");
    }
    assertThat(tokenless().check(headers(Map.of("Host", HOST)), "q=wps_short")).isNull();
  }

  @Test
  void check_harmlessQueryOfARouteWithoutToken_passes() {
    assertThat(tokenless().check(headers(Map.of("Host", HOST)), "limit=5&after=2")).isNull();
    assertThat(tokenless().check(headers(Map.of("Host", HOST)), null)).isNull();
  }

  @Test
  void check_theTokenItselfInAnyParameter_isRefusedEvenWithTheHeader() {
    RequestGuard.Refusal refusal =
        withToken()
            .check(
                headers(Map.of("Host", HOST, "x-cortex-token", "0123456789abcdef")),
                "q=0123456789abcdef");

    assertThat(refusal).isNotNull();
    assertThat(refusal.status()).isEqualTo(401);
    assertThat(refusal.message()).contains("x-cortex-token header");
  }

  @Test
  void check_hostIsCheckedFirst_thenTheToken() {
    assertThat(withToken().check(headers(Map.of("Host", "evil:80")), "secret=s").status())
        .isEqualTo(403);
    assertThat(withToken().check(headers(Map.of("Host", HOST)), null).status()).isEqualTo(401);
    assertThat(
            withToken()
                .check(headers(Map.of("Host", HOST, "x-cortex-token", "0123456789abcdef")), null))
        .isNull();
  }
}
