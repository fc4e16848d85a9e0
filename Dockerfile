# The image of one gpuaas service: its compiled classes plus the runtime jars of target/classpath.txt on a JRE, run as
# a non-root user. MODULE names the service's folder (booking-service, quota-projector, idle-reclaimer or
# metrics-gateway). Built with the repository root as context (see deploy/README.md "Images"):
#   ./mvnw -B -pl booking-service -am package -DskipTests
#   deploy/kubernetes/images/stage-libs.sh booking-service
#   docker build --build-arg MODULE=booking-service -t gpuaas/booking-service:0.1.0-SNAPSHOT .
# For OpenShift, the UBI variant:
#   docker build --build-arg MODULE=booking-service \
#     --build-arg BASE_IMAGE=registry.access.redhat.com/ubi9/openjdk-21-runtime:latest \
#     -t gpuaas/booking-service:0.1.0-SNAPSHOT-ubi9 .
ARG BASE_IMAGE=eclipse-temurin:21-jre-alpine
FROM ${BASE_IMAGE}
ARG MODULE

WORKDIR /app
# Jars change less often than the classes: separate layers keep a code change's push small.
# Group 0 owns the files so OpenShift's arbitrary UID (always in group 0) can read them; nothing is writable.
COPY --chown=10001:0 ${MODULE}/target/lib/ /app/lib/
COPY --chown=10001:0 ${MODULE}/target/classes/ /app/classes/
# The service's main class (its pom's exec.mainClass), written by stage-libs.sh; java reads it as an @argfile.
COPY --chown=10001:0 ${MODULE}/target/main-class /app/main-class

# Numeric, so the kubelet can verify runAsNonRoot without a passwd entry.
USER 10001:0
EXPOSE 8080
# Heap sizing and temp dir come from JDK_JAVA_OPTIONS in the Deployment; the root filesystem is read-only there.
ENTRYPOINT ["java", "-cp", "/app/classes:/app/lib/*", "@/app/main-class"]
