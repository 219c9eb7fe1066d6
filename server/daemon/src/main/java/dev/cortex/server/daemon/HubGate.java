package dev.cortex.server.daemon;

import dev.cortex.http.GuardedHandler;
import dev.cortex.http.JsonBodies;
import dev.cortex.http.RequestGuard;
import dev.cortex.protocol.hub.Hub;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The checks in front of each route of the hub's port, before any handler runs: a request that
 * carries an {@code Origin} comes from a browser's page and is refused (devices never send one, and
 * browsers cannot leave it out), its {@code Host} must be a name the hub answers to ({@link
 * HubHosts}), and, where the route takes one, its credential must be good ({@link RequestGuard}).
 * Every refusal is answered with its stable code and sentence, and logged ({@link RefusalLog}).
 */
final class HubGate extends Handler.Wrapper {
  /** Lets any request through: the checks are this gate's; the guard only catches failures. */
  private static final RequestGuard ANY =
      RequestGuard.builder().hosts(List.of("*")).origins(List.of("*")).build();

  private final String what;
  private final HubHosts hosts;
  private final RequestGuard credential;
  private final RefusalLog refusals;

  /**
   * @param what what the route gives, for the log: {@code the connection}, {@code an enrolment}
   * @param credential checks the route's credential, or null when it takes none
   */
  HubGate(
      String what, HubHosts hosts, RequestGuard credential, RefusalLog refusals, Handler child) {
    super(new GuardedHandler(ANY, child));
    this.what = Objects.requireNonNull(what, "what");
    this.hosts = Objects.requireNonNull(hosts, "hosts");
    this.credential = credential;
    this.refusals = Objects.requireNonNull(refusals, "refusals");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    RequestGuard.Refusal refusal = check(request);
    if (refusal == null) {
      return super.handle(request, response, callback);
    }
    refusals.refused(
        what,
        Request.getRemoteAddr(request),
        request.getHeaders().get(Hub.DEVICE_HEADER),
        refusal.code(),
        refusal.message());
    if (refusal.status() == 401) {
      response.getHeaders().put("WWW-Authenticate", "Bearer");
    }
    JsonBodies.refuse(
        request, response, callback, refusal.status(), refusal.code(), refusal.message());
    return true;
  }

  private RequestGuard.Refusal check(Request request) {
    if (request.getHeaders().get("Origin") != null) {
      return new RequestGuard.Refusal(
          403,
          Hub.Refusals.ORIGIN_NOT_ALLOWED,
          "The hub takes no requests from web pages (this one carried an Origin header):"
              + " devices connect with 'cortex client'.");
    }
    String host = hosts.refusal(request.getHeaders().get("Host"));
    if (host != null) {
      return new RequestGuard.Refusal(403, Hub.Refusals.HOST_NOT_ALLOWED, host);
    }
    if (credential == null) {
      return null;
    }
    return credential.check(
        name -> request.getHeaders().get(name), request.getHttpURI().getQuery());
  }
}
