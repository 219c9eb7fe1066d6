package dev.cortex.mcp.http;

import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A Jetty handler that runs its child only for requests that pass a {@link RequestGuard}. */
public final class GuardedHandler extends Handler.Wrapper {
  private final RequestGuard guard;

  public GuardedHandler(RequestGuard guard, Handler child) {
    super(child);
    this.guard = Objects.requireNonNull(guard, "guard");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
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
