package dev.cortex.http;

import java.util.Objects;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Jetty handler that runs its child only for requests that pass a {@link RequestGuard}. The guard
 * may be supplied once the ports are bound (its allowed Host values name them); until then every
 * request is refused with 503. A child that throws is answered with a plain 500 {@code INTERNAL}
 * error; the details go to the log only.
 */
public final class GuardedHandler extends Handler.Wrapper {
  private static final Logger log = LoggerFactory.getLogger(GuardedHandler.class);
  private final Supplier<RequestGuard> guards;

  public GuardedHandler(RequestGuard guard, Handler child) {
    this(() -> guard, child);
    Objects.requireNonNull(guard, "guard");
  }

  public GuardedHandler(Supplier<RequestGuard> guards, Handler child) {
    super(child);
    this.guards = Objects.requireNonNull(guards, "guards");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    RequestGuard guard = guards.get();
    if (guard == null) {
      JsonBodies.refuse(
          request, response, callback, 503, "UNAVAILABLE", "Starting; retry shortly.");
      return true;
    }
    RequestGuard.Refusal refusal =
        guard.check(name -> request.getHeaders().get(name), request.getHttpURI().getQuery());
    if (refusal != null) {
      if (refusal.status() == 401) {
        response.getHeaders().put("WWW-Authenticate", "Bearer");
      }
      JsonBodies.refuse(
          request, response, callback, refusal.status(), refusal.code(), refusal.message());
      return true;
    }
    try {
      return super.handle(request, response, callback);
    } catch (Exception | LinkageError e) {
      // The caller learns that it failed, not how: no class names, SQL or paths of ours.
      log.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
      if (response.isCommitted()) {
        callback.failed(e);
      } else {
        JsonBodies.error(
            response,
            callback,
            500,
            "INTERNAL",
            "The agent server failed on this request; its log has the details.");
      }
      return true;
    }
  }
}
