package dev.cortex.mcp.compose;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every capability group this program knows, by name, and the default composition. Plain code:
 * groups are added explicitly by whoever assembles the program. A group is built only when it is
 * selected.
 */
public final class GroupRegistry {
  private final Map<String, Supplier<CapabilityGroup>> groups = new LinkedHashMap<>();
  private final Map<String, GroupDescriptor> descriptors = new LinkedHashMap<>();
  private final List<String> defaults;
  private final String defaultServerKey;

  private GroupRegistry(Builder builder) {
    groups.putAll(builder.groups);
    descriptors.putAll(builder.descriptors);
    this.defaults = List.copyOf(builder.defaults);
    this.defaultServerKey = builder.defaultServerKey;
    for (String name : defaults) {
      if (!groups.containsKey(name)) {
        throw new IllegalArgumentException("default group is not registered: " + name);
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Known group names in registration order. */
  public List<String> names() {
    return List.copyOf(groups.keySet());
  }

  public List<String> defaults() {
    return defaults;
  }

  /** The server key of the default composition. */
  public String defaultServerKey() {
    return defaultServerKey;
  }

  /** The server key a client configuration uses for a composition led by {@code name}. */
  public String serverKey(String name) {
    GroupDescriptor descriptor = descriptors.get(name);
    return descriptor == null ? null : descriptor.serverKey();
  }

  /** Every group's descriptor, in registration order. */
  public List<GroupDescriptor> descriptors() {
    return List.copyOf(descriptors.values());
  }

  /** The descriptor of {@code name}, if it is known. */
  public Optional<GroupDescriptor> descriptor(String name) {
    return Optional.ofNullable(descriptors.get(name));
  }

  /** Builds the named group, if it is known. */
  public Optional<CapabilityGroup> create(String name) {
    Supplier<CapabilityGroup> supplier = groups.get(name);
    if (supplier == null) {
      return Optional.empty();
    }
    CapabilityGroup group = supplier.get();
    GroupDescriptor descriptor = descriptors.get(name);
    if (!group.name().equals(name) || !group.serverKey().equals(descriptor.serverKey())) {
      throw new IllegalStateException(
          "group registered as "
              + descriptor
              + " builds "
              + group.name()
              + "/"
              + group.serverKey());
    }
    return Optional.of(group);
  }

  /** Builder of a {@link GroupRegistry}. */
  public static final class Builder {
    private final Map<String, Supplier<CapabilityGroup>> groups = new LinkedHashMap<>();
    private final Map<String, GroupDescriptor> descriptors = new LinkedHashMap<>();
    private List<String> defaults = List.of();
    private String defaultServerKey;

    private Builder() {}

    /** Registers a group, built by {@code group} only when it is selected. */
    public Builder add(GroupDescriptor descriptor, Supplier<CapabilityGroup> group) {
      if (groups.put(descriptor.name(), group) != null) {
        throw new IllegalArgumentException("group registered twice: " + descriptor.name());
      }
      descriptors.put(descriptor.name(), descriptor);
      return this;
    }

    /** Registers a group whose tools are not served by this version yet: selectable, empty. */
    public Builder pending(GroupDescriptor descriptor) {
      return add(
          descriptor,
          () ->
              new GroupDescriptor(
                      descriptor.name(),
                      descriptor.serverKey(),
                      descriptor.description() + " (no tools in this version yet)",
                      descriptor.configFile())
                  .group(List.of()));
    }

    /** The default composition: its server key and its groups. */
    public Builder defaults(String serverKey, String... names) {
      this.defaultServerKey = serverKey;
      this.defaults = List.of(names);
      return this;
    }

    public GroupRegistry build() {
      return new GroupRegistry(this);
    }
  }
}
