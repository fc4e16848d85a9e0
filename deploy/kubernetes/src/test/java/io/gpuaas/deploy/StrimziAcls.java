package io.gpuaas.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka ACL bindings Strimzi's user operator creates for a {@code KafkaUser} (v1, {@code authorization.type:
 * simple}): one binding per resource and operation, principal {@code User:<name>} (SCRAM), host {@code *} and type
 * {@code allow} unless the rule says otherwise.
 */
final class StrimziAcls {

    private StrimziAcls() {}

    static List<AclBinding> of(Map<String, Object> kafkaUser) {
        String principal = "User:" + Rendering.name(kafkaUser);
        List<AclBinding> bindings = new ArrayList<>();
        for (Map<String, Object> rule : Yaml.list(kafkaUser, "spec", "authorization", "acls")) {
            ResourcePattern resource = resource(Yaml.map(rule, "resource"));
            String host = rule.get("host") == null ? "*" : String.valueOf(rule.get("host"));
            AclPermissionType permission =
                    "deny".equals(rule.get("type")) ? AclPermissionType.DENY : AclPermissionType.ALLOW;
            for (Object operation : (List<?>) rule.getOrDefault("operations", List.of())) {
                bindings.add(new AclBinding(
                        resource,
                        new AccessControlEntry(principal, host, operation(String.valueOf(operation)), permission)));
            }
        }
        return bindings;
    }

    private static ResourcePattern resource(Map<String, Object> resource) {
        String type = String.valueOf(resource.get("type"));
        ResourceType kafkaType =
                switch (type) {
                    case "topic" -> ResourceType.TOPIC;
                    case "group" -> ResourceType.GROUP;
                    case "transactionalId" -> ResourceType.TRANSACTIONAL_ID;
                    case "cluster" -> ResourceType.CLUSTER;
                    default -> throw new AssertionError("unknown Strimzi ACL resource type " + type);
                };
        String name = kafkaType == ResourceType.CLUSTER ? "kafka-cluster" : String.valueOf(resource.get("name"));
        PatternType pattern = "prefix".equals(resource.get("patternType")) ? PatternType.PREFIXED : PatternType.LITERAL;
        return new ResourcePattern(kafkaType, name, pattern);
    }

    /** Strimzi's {@code DescribeConfigs} is Kafka's {@code DESCRIBE_CONFIGS}. */
    private static AclOperation operation(String strimzi) {
        String kafka = strimzi.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
        AclOperation operation = AclOperation.fromString(kafka);
        if (operation == AclOperation.UNKNOWN) {
            throw new AssertionError("unknown Strimzi ACL operation " + strimzi);
        }
        return operation;
    }
}
