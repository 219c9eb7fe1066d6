package dev.cortex.core;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;

/**
 * Fits an image to what a model reads well: at most {@value #MAX_EDGE} pixels on its long edge and
 * {@value #MAX_PIXELS} pixels in all (about 1,600 tokens), scaled down with its aspect kept. PNG
 * and GIF come back as PNG, JPEG as JPEG; a format the JDK cannot decode (WebP) passes as it is.
 */
final class ImageFit {
  static final int MAX_EDGE = 1568;
  static final int MAX_PIXELS = 1_150_000;

  private ImageFit() {}

  /**
   * An image as sent.
   *
   * @param width the original width, or 0 when it could not be decoded
   * @param scaled whether it was scaled down
   */
  record Fitted(
      byte[] data,
      String mimeType,
      int width,
      int height,
      int sentWidth,
      int sentHeight,
      boolean scaled) {}

  static Fitted fit(byte[] data, String mimeType) {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image;
    try {
      image = ImageIO.read(new ByteArrayInputStream(data));
    } catch (IOException | RuntimeException e) {
      image = null;
    }
    if (image == null) {
      return new Fitted(data, mimeType, 0, 0, 0, 0, false);
    }
    int width = image.getWidth();
    int height = image.getHeight();
    double scale =
        Math.min(
            1.0,
            Math.min(
                (double) MAX_EDGE / Math.max(width, height),
                Math.sqrt((double) MAX_PIXELS / ((double) width * height))));
    if (scale >= 1.0) {
      return new Fitted(data, mimeType, width, height, width, height, false);
    }
    int w = Math.max(1, (int) Math.floor(width * scale));
    int h = Math.max(1, (int) Math.floor(height * scale));
    boolean jpeg = mimeType.equals("image/jpeg");
    BufferedImage target =
        new BufferedImage(w, h, jpeg ? BufferedImage.TYPE_INT_RGB : BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = target.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      g.drawImage(image, 0, 0, w, h, null);
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(target, jpeg ? "jpeg" : "png", out);
    } catch (IOException e) {
      return new Fitted(data, mimeType, width, height, width, height, false);
    }
    return new Fitted(
        out.toByteArray(), jpeg ? "image/jpeg" : "image/png", width, height, w, h, true);
  }
}
