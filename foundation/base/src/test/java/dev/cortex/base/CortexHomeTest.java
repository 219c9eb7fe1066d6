package dev.cortex.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CortexHomeTest {
  @TempDir Path temp;

  @Test
  void resolve_cortexHomeSet_usesItAndItsDataDir() {
    CortexHome home = CortexHome.resolve(Map.of("CORTEX_HOME", "/srv/cortex"), "Linux", "/home/a");

    assertThat(home.root()).isEqualTo(Path.of("/srv/cortex"));
    assertThat(home.dataDir()).isEqualTo(Path.of("/srv/cortex/data"));
    assertThat(home.toolResultsDir()).isEqualTo(Path.of("/srv/cortex/tmp/tool-results"));
  }

  @Test
  void resolve_dataDirSet_movesTheDataDirectoryAlone() {
    CortexHome home =
        CortexHome.resolve(
            Map.of("CORTEX_HOME", "/srv/cortex", "CORTEX_DATA_DIR", "/fast/db"),
            "Linux",
            "/home/a");

    assertThat(home.root()).isEqualTo(Path.of("/srv/cortex"));
    assertThat(home.dataDir()).isEqualTo(Path.of("/fast/db"));
  }

  @Test
  void resolve_linux_followsXdgThenLocalShare() {
    assertThat(CortexHome.resolve(Map.of("XDG_DATA_HOME", "/x"), "Linux", "/home/a").root())
        .isEqualTo(Path.of("/x/cortex"));
    assertThat(CortexHome.resolve(Map.of(), "Linux", "/home/a").root())
        .isEqualTo(Path.of("/home/a/.local/share/cortex"));
  }

  /** Regression: the default home followed user.home while the MCP clients' files followed HOME. */
  @Test
  void resolve_homeSet_followsHomeRatherThanTheJvmsUserHome() {
    assertThat(CortexHome.resolve(Map.of("HOME", "/home/b"), "Linux", "/home/a").root())
        .isEqualTo(Path.of("/home/b/.local/share/cortex"));
    assertThat(CortexHome.resolve(Map.of("HOME", "/Users/b"), "Mac OS X", "/Users/a").root())
        .isEqualTo(Path.of("/Users/b/Library/Application Support/Cortex"));
  }

  @Test
  void userHome_homeBlankOrRelative_fallsBackToTheJvmsUserHome() {
    assertThat(CortexHome.userHome(Map.of("HOME", " "), "Linux", "/home/a"))
        .isEqualTo(Path.of("/home/a"));
    assertThat(CortexHome.userHome(Map.of("HOME", "relative"), "Linux", "/home/a"))
        .isEqualTo(Path.of("/home/a"));
    assertThat(CortexHome.userHome(Map.of(), "Linux", "/home/a")).isEqualTo(Path.of("/home/a"));
  }

  @Test
  void userHome_onWindows_followsUserProfileNotHome() {
    assertThat(
            CortexHome.userHome(
                Map.of("HOME", "/c/msys/home", "USERPROFILE", "/c/Users/b"),
                "Windows 11",
                "/c/Users/a"))
        .isEqualTo(Path.of("/c/Users/b"));
  }

  @Test
  void resolve_macOs_usesApplicationSupport() {
    assertThat(CortexHome.resolve(Map.of(), "Mac OS X", "/Users/a").root())
        .isEqualTo(Path.of("/Users/a/Library/Application Support/Cortex"));
  }

  @Test
  void resolve_windows_usesLocalAppData() {
    assertThat(
            CortexHome.resolve(Map.of("LOCALAPPDATA", "/c/Local"), "Windows 11", "/c/Users/a")
                .root())
        .isEqualTo(Path.of("/c/Local/Cortex"));
    assertThat(CortexHome.resolve(Map.of(), "Windows 11", "/c/Users/a").root())
        .isEqualTo(Path.of("/c/Users/a/AppData/Local/Cortex"));
  }

  @Test
  void resolve_relativeOverride_isRefused() {
    assertThatThrownBy(
            () -> CortexHome.resolve(Map.of("CORTEX_DATA_DIR", "data"), "Linux", "/home/a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CORTEX_DATA_DIR must be an absolute directory path");
  }

  @Test
  void ensureDirectory_createsMissingParentsOwnerOnly_andLeavesExistingAlone() throws Exception {
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path deep = temp.resolve("a/b/c");

    CortexHome.ensureDirectory(deep);

    assertThat(deep).isDirectory();
    for (Path p : new Path[] {temp.resolve("a"), temp.resolve("a/b"), deep}) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
          .isEqualTo("rwx------");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp)))
        .isEqualTo("rwxr-xr-x");
  }

  @Test
  void writeAtomically_replacesContentOwnerOnly_leavingNoTemporaryFiles() throws Exception {
    Path file = temp.resolve("conf/x.json");

    CortexHome.writeAtomically(file, "one");
    CortexHome.writeAtomically(file, "two");

    assertThat(Files.readString(file)).isEqualTo("two");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("x.json");
    }
  }
}
