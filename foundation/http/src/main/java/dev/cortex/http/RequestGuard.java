package dev.cortex.http;

import dev.cortex.base.MintedSecrets;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The checks in front of a local HTTP endpoint, before any handler runs: the Host header must name
 * this server (DNS-rebinding defence, 403), an Origin header must be allowed (403), no secret may
 * come in the query string, on any route, with a token or without (401: query strings end up in
 * logs and histories; a secret is a parameter of a secret's name, or a value of the form Cortex
 * mints secrets in ({@link MintedSecrets}) or equal to the route's token, under any name), and the
 * secret must come in the configured header (401). Reused by every listener with its own header and
 * check: {@code x-cortex-token} for the agent server's webhook, {@code Authorization: Bearer} for
 * MCP over HTTP and the device hub, none for the routes that take their secret in the body (a
 * waitpoint's signal, a device's enrolment).
 */
public final class RequestGuard {
  /** Query parameters that look like a secret; any of them is refused. */
  private static final Set<String> SECRET_PARAMETERS =
      Set.of(
          "token",
          "access_token",
          "x-cortex-token",
          "cortex_token",
          "secret",
          "credential",
          "password",
          "api_key",
          "apikey",
          "code");

  /** Endings of parameter names that look like a secret ({@code wait_secret}, {@code id-token}). */
  private static final List<String> SECRET_ENDINGS =
      List.of("_token", "-token", "_secret", "-secret", "_password");

  private final Set<String> hosts;
  private final Set<String> origins;
  private final TokenHeader header;
  private final TokenCheck check;

  private RequestGuard(Builder builder) {
    this.hosts = Set.copyOf(builder.hosts);
    this.origins = Set.copyOf(builder.origins);
    this.header = builder.header;
    this.check = builder.check;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Why a request is refused: its HTTP status, a stable code and a sentence. */
  public record Refusal(int status, String code, String message) {}

  /** Where the secret travels. */
  public record TokenHeader(String name, boolean bearerScheme) {
    /** The header carries the secret as it is, e.g. {@code x-cortex-token}. */
    public static TokenHeader raw(String name) {
      return new TokenHeader(name, false);
    }

    /** {@code Authorization: Bearer <secret>}. */
    public static TokenHeader authorizationBearer() {
      return new TokenHeader("Authorization", true);
    }

    String presented(UnaryOperator<String> headers) {
      String value = headers.apply(name);
      if (value == null) {
        return null;
      }
      if (!bearerScheme) {
        return value.strip();
      }
      return value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).strip() : null;
    }
  }

  /** Decides whether a presented secret is good, given the request's other headers. */
  @FunctionalInterface
  public interface TokenCheck {
    boolean accepts(String presented, UnaryOperator<String> headers);

    /** Accepts exactly {@code secret}, compared in constant time. */
    static TokenCheck equalTo(String secret) {
      byte[] expected = Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8);
      return (presented, headers) ->
          MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected);
    }
  }

  /**
   * Checks a request.
   *
   * @param headers looks a header up by name (case-insensitive), null when absent
   * @param query the raw query string, or null
   * @return why it is refused, or null when it may pass
   */
  public Refusal check(UnaryOperator<String> headers, String query) {
    String host = lower(headers.apply("Host"));
    if (host == null || !(hosts.contains(host) || hosts.contains("*"))) {
      return new Refusal(
          403,
          "FORBIDDEN",
          "Host header not allowed: requests must address this server by an allowed name.");
    }
    String origin = lower(headers.apply("Origin"));
    if (origin != null && !(origins.contains(origin) || origins.contains("*"))) {
      return new Refusal(403, "FORBIDDEN", "Origin not allowed: " + origin);
    }
    if (query != null && carriesSecret(query)) {
      return new Refusal(
          401,
          "UNAUTHORIZED",
          "Secrets are not accepted in the query string (it ends up in logs and histories); "
              + (header != null
                  ? "send it in the " + header.name() + " header."
                  : "send it in the request's body."));
    }
    if (check == null) {
      return null;
    }
    String presented = header.presented(headers);
    if (presented == null || presented.isEmpty() || !check.accepts(presented, headers)) {
      return new Refusal(
          401, "UNAUTHORIZED", "Missing or wrong credentials in the " + header.name() + " header.");
    }
    return null;
  }

  private boolean carriesSecret(String query) {
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (secretLike(name)
          || MintedSecrets.in(name)
          || MintedSecrets.in(value)
          || (check != null && !value.isEmpty() && check.accepts(value, n -> null))) {
        return true;
      }
    }
    return false;
  }

  private static boolean secretLike(String name) {
    return SECRET_PARAMETERS.contains(name) || SECRET_ENDINGS.stream().anyMatch(name::endsWith);
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  private static String lower(String value) {
    return value == null ? null : value.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * The Host header values by which clients may address a server bound to {@code bind} on {@code
   * port}: the loopback names for a loopback or wildcard address, this machine's addresses and name
   * for a wildcard one, and the bound address itself.
   */
  public static Set<String> hostsFor(String bind, int port) {
    Set<String> names = new HashSet<>();
    boolean wildcard = isWildcard(bind);
    if (HttpHost.isLoopback(bind) || wildcard) {
      names.add("127.0.0.1");
      names.add("localhost");
      names.add("[::1]");
    }
    if (wildcard) {
      names.addAll(localNames());
    }
    String lower = bind.toLowerCase(Locale.ROOT);
    names.add(lower.contains(":") ? "[" + lower + "]" : lower);
    Set<String> hosts = new HashSet<>();
    for (String name : names) {
      hosts.add(name + ":" + port);
    }
    return hosts;
  }

  /** The Origin values of pages served by this server itself, for the names in {@code hosts}. */
  public static Set<String> originsFor(Collection<String> hosts) {
    Set<String> origins = new HashSet<>();
    for (String host : hosts) {
      origins.add("http://" + host);
      origins.add("https://" + host);
    }
    return origins;
  }

  private static boolean isWildcard(String bind) {
    try {
      return InetAddress.getByName(bind).isAnyLocalAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static Set<String> localNames() {
    Set<String> names = new HashSet<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          String text = address.getHostAddress().toLowerCase(Locale.ROOT);
          int zone = text.indexOf('%');
          text = zone >= 0 ? text.substring(0, zone) : text;
          names.add(address instanceof Inet6Address ? "[" + text + "]" : text);
        }
      }
      names.add(InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT));
    } catch (java.io.IOException e) {
      // loopback names remain
    }
    return names;
  }

  /** Builder of a {@link RequestGuard}. */
  public static final class Builder {
    private final Set<String> hosts = new HashSet<>();
    private final Set<String> origins = new HashSet<>();
    private TokenHeader header;
    private TokenCheck check;

    private Builder() {}

    /** Allows these Host header values ({@code host:port}, lower case; {@code *} for any). */
    public Builder hosts(Collection<String> values) {
      values.forEach(v -> hosts.add(v.toLowerCase(Locale.ROOT)));
      return this;
    }

    /** Allows these Origin values; requests without an Origin header always pass this check. */
    public Builder origins(Collection<String> values) {
      values.forEach(v -> origins.add(v.toLowerCase(Locale.ROOT)));
      return this;
    }

    /** Requires a secret in {@code tokenHeader} that {@code tokenCheck} accepts. */
    public Builder token(TokenHeader tokenHeader, TokenCheck tokenCheck) {
      this.header = Objects.requireNonNull(tokenHeader, "tokenHeader");
      this.check = Objects.requireNonNull(tokenCheck, "tokenCheck");
      return this;
    }

    public RequestGuard build() {
      if (hosts.isEmpty()) {
        throw new IllegalStateException("a guard needs at least one allowed host");
      }
      return new RequestGuard(this);
    }
  }

  /** The allowed hosts, for diagnostics. */
  List<String> allowedHosts() {
    return hosts.stream().sorted().toList();
  }
}
