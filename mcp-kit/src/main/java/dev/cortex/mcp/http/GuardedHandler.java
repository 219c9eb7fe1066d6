package dev.cortex.mcp.http;

import java.util.Objects;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A Jetty handler that runs its child only for requests that pass a {@link RequestGuard}. The guard
 * may be supplied once the ports are bound (its allowed Host values name them); until then every
 * request is refused with 503.
 */
public final class GuardedHandler extends Handler.Wrapper {
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
      JsonBodies.error(response, callback, 503, "UNAVAILABLE", "Starting; retry shortly.");
      return true;
    }
    RequestGuard.Refusal refusal =
        guard.check(name -> request.getHeaders().get(name), request.getHttpURI().getQuery());
    if (refusal != null) {
      if (refusal.status() == 401) {
        response.getHeaders().put("WWW-Authenticate", "Bearer");
      }
      JsonBodies.error(response, callback, refusal.status(), refusal.code(), refusal.message());
      return true;
    }
    return super.handle(request, response, callback);
  }
}
