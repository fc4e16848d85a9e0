#!/bin/sh
# Stages what the Dockerfile at the repository root copies for a service: every jar listed in
# <service>/target/classpath.txt (written by `package`: maven-dependency-plugin build-classpath, runtime scope) into
# <service>/target/lib, and the main class (the <exec.mainClass> of <service>/pom.xml) into <service>/target/main-class,
# which the image's java reads as an @argfile.
# Usage, from the repository root:  deploy/kubernetes/images/stage-libs.sh booking-service
set -eu
service=${1:?usage: stage-libs.sh <service-folder>}
classpath="$service/target/classpath.txt"
if [ ! -f "$classpath" ] || [ ! -d "$service/target/classes" ]; then
  echo "$classpath or $service/target/classes missing: run ./mvnw -B -pl $service -am package -DskipTests first" >&2
  exit 1
fi
main=$(sed -n 's:.*<exec\.mainClass>[[:space:]]*\([A-Za-z0-9_.]*\)[[:space:]]*</exec\.mainClass>.*:\1:p' "$service/pom.xml" | head -n 1)
if [ -z "$main" ]; then
  echo "$service/pom.xml names no <exec.mainClass>: the image would not know what to start" >&2
  exit 1
fi
lib="$service/target/lib"
rm -rf "$lib"
mkdir -p "$lib"
tr ":" "\n" < "$classpath" | while IFS= read -r jar || [ -n "$jar" ]; do
  [ -n "$jar" ] || continue
  name=$(basename "$jar")
  # Two artifacts with one file name would silently shadow each other on the image's classpath.
  if [ -e "$lib/$name" ]; then
    echo "duplicate jar name $name in $classpath" >&2
    exit 1
  fi
  cp "$jar" "$lib/$name"
done
printf '%s\n' "$main" > "$service/target/main-class"
echo "staged $(ls "$lib" | wc -l) jars in $lib, main class $main"
