package io.gpuaas.reclaim.model;

/** One device of a workload: its window and the pod and group it was last attributed to. */
public record DeviceState(IdlenessWindow window, String pod, String group, long podStartMillis) {

    DeviceState withPod(String newPod, String newGroup, long newPodStart) {
        return new DeviceState(window, newPod, newGroup, newPodStart);
    }
}
