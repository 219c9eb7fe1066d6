package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.server.waitpoints.WaitException;
import dev.cortex.server.waitpoints.Waitpoints;

/**
 * The signals devices send from their spools over the hub: each is taken as {@code device:NAME} and
 * answered with its outcome, or with the refusal's code and sentence, by which the device deletes
 * the file or moves it aside. Any other failure is the hub's to answer (the device then sends the
 * file again later).
 */
final class DeviceSignals implements DeviceHub.SignalSink {
  private final Waitpoints waitpoints;

  DeviceSignals(Waitpoints waitpoints) {
    this.waitpoints = waitpoints;
  }

  @Override
  public HubMessage.SignalAck take(String device, HubMessage.SignalFile file) {
    try {
      return new HubMessage.SignalAck(
          file.file(), waitpoints.signal(file.signal(), "device:" + device), null);
    } catch (WaitException e) {
      return new HubMessage.SignalAck(file.file(), null, new ErrorBody(e.code(), e.getMessage()));
    }
  }
}
