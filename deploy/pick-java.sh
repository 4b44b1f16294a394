# Sourced by ./continuum and the build scripts: choose a JDK 21 or newer (JAVA_HOME if it is one, else Temurin 25
# or 21 where Debian's packages put them, else the java on the PATH) and export JAVA_HOME; exit 2 when none is found.
pick_java() {
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64; do
    if [ -n "$candidate" ] && [ -x "$candidate/bin/java" ]; then
      v=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2}')
      if [ "${v%%.*}" -ge 21 ] 2>/dev/null; then export JAVA_HOME="$candidate"; return; fi
    fi
  done
  if command -v java >/dev/null; then
    v=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2}')
    if [ "${v%%.*}" -ge 21 ] 2>/dev/null; then export JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"; return; fi
  fi
  echo "continuum: a JDK 21 or newer is needed (set JAVA_HOME)" >&2; exit 2
}
