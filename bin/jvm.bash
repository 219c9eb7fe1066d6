# The JVM that runs cortex and its tools: which JDK, and which options. Sourced (not run) by
# bin/cortex, tools/bench and tools/release/build; it defines functions only and starts nothing.
#   jvm_major HOME         the feature version of the JDK at HOME, from its release file (0: unknown)
#   jvm_newest [TEST]      the newest JDK found, of those for which `TEST HOME` succeeds
#   jvm_choose WHO         the java to run: CORTEX_JAVA, else the newest JDK, else the java on the PATH
#   jvm_options NAME...    the options of these lines of bin/jvm-options
# Written for bash 3.2 (macOS) and newer, and for callers that run under `set -euo pipefail`.

jvm_options_file="${BASH_SOURCE[0]%/*}/jvm-options"

jvm_major() {
  local line
  if [[ ! -f "$1/release" ]]; then
    echo 0
    return 0
  fi
  while IFS= read -r line; do
    if [[ "$line" =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
      echo "${BASH_REMATCH[1]}"
      return 0
    fi
  done < "$1/release"
  echo 0
}

# Sets jvm_homes to the places a JDK may be: JAVA_HOME, /usr/lib/jvm/*, the macOS JDKs, and the
# home of the java on the PATH.
jvm_candidates() {
  local dir on_path
  jvm_homes=()
  if [[ -n "${JAVA_HOME:-}" ]]; then
    jvm_homes+=("$JAVA_HOME")
  fi
  for dir in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if [[ -d "$dir" ]]; then
      jvm_homes+=("$dir")
    fi
  done
  if command -v java >/dev/null; then
    on_path="$(readlink -f "$(command -v java)")"
    jvm_homes+=("${on_path%/bin/*}")
  fi
}

# Sets jvm_home and jvm_version to the newest of jvm_candidates whose bin/java runs, whose release
# file names its version and, given TEST, for which `TEST HOME` succeeds; to "" and 0 when none.
jvm_newest() {
  local home version
  jvm_home=""
  jvm_version=0
  jvm_candidates
  for home in ${jvm_homes[@]+"${jvm_homes[@]}"}; do
    version="$(jvm_major "$home")"
    if [[ -x "$home/bin/java" && "$version" -gt "$jvm_version" ]] && { [[ $# -eq 0 ]] || "$1" "$home"; }; then
      jvm_home="$home"
      jvm_version="$version"
    fi
  done
}

# Sets java_bin and major (0 when unknown) to the java that runs cortex: CORTEX_JAVA, else the
# newest JDK found, else a java on the PATH without a release file (a version manager's shim).
# Stops with exit 2, the message starting with WHO, when there is none or it is older than 17.
jvm_choose() {
  local who="$1" home
  if [[ -n "${CORTEX_JAVA:-}" ]]; then
    java_bin="$CORTEX_JAVA"
    home="$(readlink -f "$java_bin")"
    major="$(jvm_major "${home%/bin/*}")"
  else
    jvm_newest
    java_bin="${jvm_home:+$jvm_home/bin/java}"
    major="$jvm_version"
    if [[ -z "$java_bin" ]]; then
      java_bin="$(command -v java || true)"
    fi
    if [[ -z "$java_bin" ]]; then
      echo "$who: no Java found: install a JDK 17 or newer" >&2
      exit 2
    fi
  fi
  if [[ "$major" -gt 0 && "$major" -lt 17 ]]; then
    echo "$who: needs Java 17 or newer; found Java $major at $java_bin (set CORTEX_JAVA or JAVA_HOME)" >&2
    exit 2
  fi
}

# Sets jvm_opts to the options of the lines NAME... of bin/jvm-options, in that order. Stops with
# exit 2 when the file has no such line.
jvm_options() {
  local name line found words
  jvm_opts=()
  for name in "$@"; do
    found=0
    while IFS= read -r line || [[ -n "$line" ]]; do
      line="${line%$'\r'}"
      if [[ "$line" == "$name="* ]]; then
        read -r -a words <<< "${line#*=}"
        jvm_opts+=(${words[@]+"${words[@]}"})
        found=1
      fi
    done < "$jvm_options_file"
    if [[ "$found" == 0 ]]; then
      echo "cortex: $jvm_options_file has no line '$name=': restore it from the repository" >&2
      exit 2
    fi
  done
}
