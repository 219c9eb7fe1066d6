package dev.cortex.device;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The certificates a client trusts for {@code wss}: the system's, or those of a PEM file. */
final class Trust {
  private Trust() {}

  /** A trust store holding the certificates of {@code pem}. */
  static KeyStore store(Path pem) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(pem)) {
      int i = 0;
      for (Certificate certificate :
          CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("trusted-" + i++, certificate);
      }
      if (i == 0) {
        throw new GeneralSecurityException("no certificate in " + pem);
      }
    }
    return store;
  }

  /** An SSL context trusting {@code pem}, or the system's default when it is null. */
  static SSLContext context(Path pem) throws IOException, GeneralSecurityException {
    if (pem == null) {
      return SSLContext.getDefault();
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store(pem));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }
}
