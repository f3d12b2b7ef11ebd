package io.queenlake.bench.scale;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The job JVM's own management beans, through the JDK's attach API (its local JMX agent, started
 * on demand; no flag on the job's command line): used heap and heap live after the last collection,
 * and CPU time by thread group. Independent of Flink's metrics, which the REST API stops updating
 * once a task manager's metric dump outgrows Flink's RPC frame size (thousands of queues, each with
 * its own metrics, do).
 */
final class JvmProbe implements AutoCloseable {

    private final JMXConnector connector;
    private final MemoryMXBean memory;
    private final List<MemoryPoolMXBean> heapPools;
    private final com.sun.management.ThreadMXBean threads;

    private JvmProbe(JMXConnector connector) throws IOException {
        this.connector = connector;
        MBeanServerConnection mbeans = connector.getMBeanServerConnection();
        this.memory = ManagementFactory.newPlatformMXBeanProxy(mbeans, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        this.heapPools = ManagementFactory.getPlatformMXBeans(mbeans, MemoryPoolMXBean.class).stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null).toList();
        this.threads = ManagementFactory.newPlatformMXBeanProxy(mbeans, ManagementFactory.THREAD_MXBEAN_NAME,
                com.sun.management.ThreadMXBean.class);
    }

    static JvmProbe attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            return new JvmProbe(JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent())));
        } finally {
            vm.detach();
        }
    }

    long heapUsed() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    long heapMax() {
        return memory.getHeapMemoryUsage().getMax();
    }

    /** The heap pools' usage after their last collection, summed: what the JVM really holds. */
    long heapLiveAfterGc() {
        long live = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            live += pool.getCollectionUsage().getUsed();
        }
        return live;
    }

    /** CPU time so far by thread group: each live thread's name with its numbers as {@code #}. */
    Map<String, Long> cpuByThreadGroup() {
        long[] ids = threads.getAllThreadIds();
        long[] cpu = threads.getThreadCpuTime(ids);
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<String, Long> groups = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && cpu[i] > 0) {
                groups.merge(infos[i].getThreadName().replaceAll("\\d+", "#"), cpu[i], Long::sum);
            }
        }
        return groups;
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
