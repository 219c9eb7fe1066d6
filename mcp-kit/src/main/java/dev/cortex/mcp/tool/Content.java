package dev.cortex.mcp.tool;

import java.util.Objects;

/**
 * A piece of MCP content a tool returns beside its structured result: an image, or a resource
 * embedded whole (a PDF). Text needs none: the structured result is mirrored as text.
 */
public sealed interface Content {

  /** An image, e.g. a screenshot read from a remote device. */
  record Image(String mimeType, byte[] data) implements Content {
    public Image {
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(data, "data");
    }
  }

  /** A binary resource carried inside the result, e.g. a PDF. */
  record Resource(String uri, String mimeType, byte[] data) implements Content {
    public Resource {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(data, "data");
    }
  }

  /** Extra text shown to the model after the JSON mirror, e.g. a file's AGENTS.md chain. */
  record Text(String text) implements Content {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /** Bytes this content adds to a response, roughly (base64 for binary). */
  default long size() {
    if (this instanceof Image image) {
      return image.data().length * 4L / 3;
    }
    if (this instanceof Resource resource) {
      return resource.data().length * 4L / 3;
    }
    return ((Text) this).text().length();
  }
}
