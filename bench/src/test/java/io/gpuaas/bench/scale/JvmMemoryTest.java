package io.gpuaas.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JvmMemoryTest {

    @Test
    void shouldAddYoungAndOldWhenTheServiceRunsSerialGc() {
        String heapInfo = """
                12345:
                 def new generation   total 19648K, used 1234K [0x00000000e0000000, 0x00000000e1550000, 0x00000000eaaa0000)
                  eden space 17472K,   7% used [0x00000000e0000000, 0x00000000e0134a30, 0x00000000e1110000)
                 tenured generation   total 43712K, used 30000K [0x00000000eaaa0000, 0x00000000ed550000, 0x0000000100000000)
                 Metaspace       used 60000K, committed 61000K, reserved 1114112K
                """;

        assertThat(JvmMemory.heapUsedKib(heapInfo)).isEqualTo(31234);
    }

    @Test
    void shouldAddDefNewAndTenuredWhenJdk25PrintsSerialGcHeap() {
        String heapInfo = """
                31981:
                DefNew     total 116480K, used 7411K [0x00000000a0000000, 0x00000000a7e60000, 0x00000000c0000000)
                 eden space 103552K,   7% used [0x00000000a0000000, 0x00000000a073ccb8, 0x00000000a6520000)
                Tenured    total 258048K, used 72250K [0x00000000c0000000, 0x00000000cfc00000, 0x0000000100000000)
                 the  space 258048K,  27% used [0x00000000c0000000, 0x00000000c468e9a0, 0x00000000cfc00000)
                 Metaspace       used 60000K, committed 61000K, reserved 1114112K
                """;

        assertThat(JvmMemory.heapUsedKib(heapInfo)).isEqualTo(79661);
    }

    @Test
    void shouldReadTheOneHeapLineWhenTheJvmRunsG1() {
        assertThat(JvmMemory.heapUsedKib(
                        " garbage-first heap   total 262144K, used 81920K [0x0000000700000000, 0x0000000800000000)\n"))
                .isEqualTo(81920);
    }

    @Test
    void shouldNameEachServiceJvmByItsMainClass() {
        assertThat(JvmMemory.role(List.of("-Xmx384m", "-cp", "x", "io.gpuaas.metrics.MetricsGatewayApplication")))
                .isEqualTo("metrics-gateway");
        assertThat(JvmMemory.role(List.of("-cp", "x", "io.gpuaas.local.LocalStack")))
                .isNull();
    }

    @Test
    void shouldSumEveryLabelSetWhenReadingACounter() {
        String text = """
                # TYPE gpuaas_gpu_samples_published counter
                gpuaas_gpu_samples_published_total{target="a"} 100.0
                gpuaas_gpu_samples_published_total{target="b"} 50.0
                gpuaas_gpu_samples_published_errors_total 3.0
                """;

        assertThat(MetricsProbe.sum(text, "gpuaas_gpu_samples_published_total")).isEqualTo(150.0);
        assertThat(MetricsProbe.series(text)).isEqualTo(3);
    }
}
