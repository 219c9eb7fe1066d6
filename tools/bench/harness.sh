# Shared by the bench scripts (sourced, not run): help from the calling script's header comment,
# the harness build, the JVM, and the run of one harness class.
#   bench_harness SCRIPT CLASS [--with-cortex] [ARGS...]
# --with-cortex: the harness drives bin/cortex, whose jar is built first and passed as --launcher.
# The JVM runs as bin/cortex runs the server: the newest JDK among JAVA_HOME, /usr/lib/jvm/* and
# the java on the PATH (CORTEX_JAVA overrides; bin/jvm.bash chooses), with the short-lived options
# of bin/jvm-options (serial GC, C1 only, compiling early). CORTEX_BENCH_JAVA_OPTS replaces these
# options, e.g. with "-XX:+UseSerialGC" for C2 figures.

bench_harness() {
  local script="$1" class="$2" with_cortex=0
  shift 2
  if [[ "${1:-}" == --with-cortex ]]; then
    with_cortex=1
    shift
  fi
  local bench root
  bench="$(cd "$(dirname "$(readlink -f "$script")")" && pwd)"
  root="$(dirname "$(dirname "$bench")")"

  local arg
  for arg in "$@"; do
    if [[ "$arg" == -h || "$arg" == --help ]]; then
      sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$script"
      exit 0
    fi
  done

  local tool
  for tool in mvn flock; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is needed" >&2; exit 2; }
  done

  echo "bench: building the harness ..." >&2
  mkdir -p "$root/app/cli/target"
  (cd "$root" && flock "$root/app/cli/target/.build.lock" \
    mvn -q -B -DskipTests -Dspotless.check.skip=true -pl tools/bench -am package) 1>&2

  # The JVM: bin/jvm.bash's choice, with bin/jvm-options' short-lived profile unless replaced.
  source "$root/bin/jvm.bash"
  local java_bin major
  jvm_choose bench
  local opts
  if [[ -n "${CORTEX_BENCH_JAVA_OPTS:-}" ]]; then
    read -r -a opts <<< "$CORTEX_BENCH_JAVA_OPTS"
  else
    jvm_options short-lived
    opts=("${jvm_opts[@]}")
  fi

  if [[ "$with_cortex" == 1 ]]; then
    "$root/bin/cortex" --version >/dev/null
    set -- --launcher "$root/bin/cortex" "$@"
  fi
  # A copy of the jar, so that a build while the bench runs does not change its classes under it.
  local jar status=0
  jar="$(mktemp "${TMPDIR:-/tmp}/cortex-bench-XXXXXX.jar")"
  cp "$bench/target/cortex-bench.jar" "$jar"
  "$java_bin" "${opts[@]}" --enable-native-access=ALL-UNNAMED -Djava.io.tmpdir="${TMPDIR:-/tmp}" \
    -cp "$jar" "dev.cortex.bench.$class" "$@" || status=$?
  rm -f "$jar"
  return "$status"
}
