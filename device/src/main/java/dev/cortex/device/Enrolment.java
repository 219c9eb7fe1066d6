package dev.cortex.device;

import dev.cortex.base.CortexHome;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Exchanges a one-time enrolment code for this device's credential at the hub's {@code /enrol}, and
 * keeps the credential in an owner-only file of the device's Cortex home.
 */
final class Enrolment {
  private Enrolment() {}

  /** Why enrolment failed, in a sentence for the person at the terminal. */
  static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    /** The hub's refusal, or null when the hub was not reached or gave no answer of its own. */
    private final transient HubRefusal refusal;

    Failed(String message) {
      this(message, null);
    }

    Failed(String message, HubRefusal refusal) {
      super(message, null, false, false);
      this.refusal = refusal;
    }

    HubRefusal refusal() {
      return refusal;
    }

    /**
     * Whether asking again may succeed: the device is not registered yet (a person may be adding
     * it), too many wrong codes came this minute, or the hub is starting or overloaded.
     */
    boolean retryable() {
      return refusal != null
          && (refusal.status() == 429
              || refusal.status() >= 500
              || (refusal.status() == 403 && Hub.Refusals.NOT_REGISTERED.equals(refusal.code())));
    }
  }

  static String exchange(ClientOptions options) throws Failed {
    String body =
        WireJson.mapper()
            .writeValueAsString(Map.of("device", options.name(), "code", options.enrolmentCode()));
    HttpResponse<String> response;
    try {
      HttpClient http =
          HttpClient.newBuilder()
              .sslContext(Trust.context(options.trustCertificate()))
              .connectTimeout(Duration.ofSeconds(10))
              .followRedirects(HttpClient.Redirect.NEVER)
              .build();
      response =
          http.send(
              HttpRequest.newBuilder(options.enrolment())
                  .timeout(Duration.ofSeconds(30))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException | GeneralSecurityException e) {
      throw new Failed("cannot reach the hub at " + options.enrolment() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failed("interrupted");
    }
    JsonNode answer = null;
    try {
      answer = WireJson.mapper().readTree(response.body());
    } catch (RuntimeException e) {
      // not JSON: the refusal below says so
    }
    if (response.statusCode() != 200 || answer == null || !answer.path("credential").isString()) {
      HubRefusal refusal = HubRefusal.of(response.statusCode(), response.body());
      throw new Failed(
          "the hub refused the enrolment ("
              + refusal.describe()
              + (refusal.message() == null ? ", no reason given" : "")
              + ")",
          refusal);
    }
    String credential = answer.path("credential").asString();
    CortexHome.writeAtomically(options.credentialFile(), credential + "\n");
    return credential;
  }

  /** The credential kept from an earlier enrolment, or null. */
  static String stored(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      String text = Files.readString(file).strip();
      return text.isEmpty() ? null : text;
    } catch (IOException e) {
      return null;
    }
  }
}
