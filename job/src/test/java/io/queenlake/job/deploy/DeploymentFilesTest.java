package io.queenlake.job.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.Origin;
import io.queenlake.job.config.Setting;
import io.queenlake.job.config.SettingsLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.RpcOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The deployment files keep the promises of {@code k8s-operator/README.md}: every FlinkDeployment
 * in {@code k8s-operator/} is accepted by the Flink Kubernetes operator's own schema (made strict
 * about unknown fields, with one named tolerance: {@link OperatorSchema#TOLERATED_FLINK_VERSION}),
 * the Secret template, PodMonitor and Dockerfile agree with it, and
 * {@code flink-conf/config.yaml} is a Flink 2.3 configuration with the production settings the
 * deployment mirrors.
 */
class DeploymentFilesTest {

    // Surefire runs with the job/ module as working directory: the repository root is its parent.
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    // The operator's CRD, unpacked from its API jar by job/pom.xml (execution operator-crd-for-tests).
    private static final String CRD_ARTIFACT = "org.apache.flink:flink-kubernetes-operator-api:1.10.0";
    private static final Path CRD =
            Path.of("target/operator-crd/META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml").toAbsolutePath();
    private static final Path K8S = REPOSITORY.resolve("k8s-operator");
    private static final Path DEPLOYMENT = K8S.resolve("flinkdeployment.yaml");
    private static final Path FLINK_CONF = REPOSITORY.resolve("flink-conf");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Keys the operator sets itself from {@code spec.jobManager/taskManager.resource.memory}. */
    private static final Map<String, String> MEMORY_FROM_RESOURCES = Map.of(
            "jobmanager.memory.process.size", "/spec/jobManager/resource/memory",
            "taskmanager.memory.process.size", "/spec/taskManager/resource/memory");

    /** The artifact's openAPIV3Schema as it is, and the validator every test below uses. */
    private static ObjectNode artifactSchema;
    private static JsonSchema operatorSchema;

    @BeforeAll
    static void readTheOperatorsSchema() {
        artifactSchema = OperatorSchema.openApiFrom(CRD);
        operatorSchema = OperatorSchema.strictValidator(OperatorSchema.tolerated(artifactSchema));
    }

    // ---------------------------------------------------------------- the operator's schema

    @Test
    void everyFlinkDeploymentInK8sOperatorPassesTheOperatorsSchema() {
        Map<String, List<String>> problems = new TreeMap<>();
        int deployments = 0;
        for (Path file : yamlFilesIn(K8S)) {
            List<JsonNode> docs = documents(file);
            for (int i = 0; i < docs.size(); i++) {
                if (!"FlinkDeployment".equals(docs.get(i).path("kind").asText())) {
                    continue;
                }
                deployments++;
                List<String> found = describe(operatorSchema.validate(docs.get(i)));
                if (!found.isEmpty()) {
                    problems.put(REPOSITORY.relativize(file) + " document " + (i + 1), found);
                }
            }
        }
        assertThat(deployments).as("FlinkDeployment documents in %s", K8S).isPositive();
        assertThat(problems).as("schema violations per document").isEmpty();
    }

    @ParameterizedTest(name = "{2} instead of {1} under {0}")
    @CsvSource({
        "/spec/job,                                upgradeMode,  upgradeMod,   $.spec.job",
        "/spec,                                    flinkVersion, flinkversion, $.spec",
        "/spec/taskManager/resource,               memory,       memmory,      $.spec.taskManager.resource",
        "/spec/podTemplate/spec/containers/0,      ports,        port,         $.spec.podTemplate.spec.containers[0]",
        "/metadata,                                name,         nmae,         $.metadata",
    })
    void aMisspeltFieldIsRefusedWhereverItIs(String parent, String field, String misspelt, String where) {
        ObjectNode deployment = realDeployment();
        ObjectNode holder = (ObjectNode) deployment.at(parent);
        holder.set(misspelt, holder.remove(field));

        Set<ValidationMessage> messages = operatorSchema.validate(deployment);

        assertThat(messages)
                .as(String.join("\n", describe(messages)))
                .anySatisfy(m -> {
                    assertThat(m.getType()).isEqualTo("additionalProperties");
                    assertThat(m.getInstanceLocation()).hasToString(where);
                    assertThat(m.getMessage()).contains("'" + misspelt + "'");
                });
    }

    @ParameterizedTest(name = "{1} = \"{2}\" under {0}")
    @CsvSource({
        "/spec/job,                                    parallelism,   two,       $.spec.job.parallelism,                              type",
        "/spec/taskManager/resource,                   cpu,           2 cores,   $.spec.taskManager.resource.cpu,                     type",
        "/spec/podTemplate/spec/containers/0/ports/0,  containerPort, metrics,   $.spec.podTemplate.spec.containers[0].ports[0].containerPort, type",
        "/spec/job,                                    upgradeMode,   Savepoint, $.spec.job.upgradeMode,                              enum",
        "/spec,                                        flinkVersion,  v2_30,     $.spec.flinkVersion,                                 enum",
    })
    void aValueOfTheWrongTypeOrOutsideItsListIsRefused(
            String parent, String field, String value, String where, String rule) {
        ObjectNode deployment = realDeployment();
        ((ObjectNode) deployment.at(parent)).set(field, TextNode.valueOf(value));

        Set<ValidationMessage> messages = operatorSchema.validate(deployment);

        assertThat(messages)
                .as(String.join("\n", describe(messages)))
                .anySatisfy(m -> {
                    assertThat(m.getType()).isEqualTo(rule);
                    assertThat(m.getInstanceLocation()).hasToString(where);
                });
    }

    @Test
    void anotherKindOrApiVersionIsNotAFlinkDeployment() {
        ObjectNode wrongVersion = realDeployment();
        wrongVersion.put("apiVersion", "flink.apache.org/v1");
        ObjectNode wrongKind = realDeployment();
        wrongKind.put("kind", "FlinkSessionJob");

        assertThat(operatorSchema.validate(wrongVersion))
                .anySatisfy(m -> assertThat(m.getInstanceLocation()).hasToString("$.apiVersion"));
        assertThat(operatorSchema.validate(wrongKind))
                .anySatisfy(m -> assertThat(m.getInstanceLocation()).hasToString("$.kind"));
    }

    @Test
    void flinkConfigurationStillTakesAnyFlinkKeyAsTheOperatorDoes() {
        // The CRD takes any key under flinkConfiguration: strictness must not reach into it.
        ObjectNode deployment = realDeployment();
        ((ObjectNode) deployment.at("/spec/flinkConfiguration")).put("queen.s3.queues", "orders");

        assertThat(describe(operatorSchema.validate(deployment))).isEmpty();
    }

    // ---------------------------------------------------------------- the one tolerance

    @Test
    void theToleranceAddsTheDeploymentsFlinkVersionToOneEnumAndNothingElse() {
        String[] version = EnvironmentInformation.getVersion().split("\\.");
        ObjectNode tolerated = OperatorSchema.tolerated(artifactSchema);
        ArrayNode enumAsShipped = (ArrayNode) artifactSchema.at(OperatorSchema.FLINK_VERSION_ENUM);
        ArrayNode enumTolerated = (ArrayNode) tolerated.at(OperatorSchema.FLINK_VERSION_ENUM);

        assertThat(OperatorSchema.TOLERATED_FLINK_VERSION).isEqualTo("v" + version[0] + "_" + version[1]);
        assertThat(enumAsShipped)
                .as("%s lists %s now: drop the tolerance", CRD_ARTIFACT, OperatorSchema.TOLERATED_FLINK_VERSION)
                .doesNotContain(TextNode.valueOf(OperatorSchema.TOLERATED_FLINK_VERSION));
        assertThat(enumTolerated).containsExactlyElementsOf(
                concat(enumAsShipped, TextNode.valueOf(OperatorSchema.TOLERATED_FLINK_VERSION)));
        // Take that one value out again and the rest is the artifact's schema, node for node.
        enumTolerated.remove(enumTolerated.size() - 1);
        assertThat(tolerated).isEqualTo(artifactSchema);
    }

    @Test
    void withoutTheToleranceTheDeploymentsOnlyProblemIsItsFlinkVersion() {
        JsonSchema asShipped = OperatorSchema.strictValidator(artifactSchema);

        assertThat(asShipped.validate(realDeployment())).singleElement().satisfies(m -> {
            assertThat(m.getType()).isEqualTo("enum");
            assertThat(m.getInstanceLocation()).hasToString("$.spec.flinkVersion");
        });
    }

    @Test
    void theToleratedSchemaStillRefusesAMisspeltFieldAWrongTypeAndAnyOtherFlinkVersion() {
        ObjectNode misspelt = realDeployment();
        ObjectNode spec = (ObjectNode) misspelt.get("spec");
        spec.set("flinkVersoin", spec.remove("flinkVersion"));
        ObjectNode wrongType = realDeployment();
        ((ObjectNode) wrongType.get("spec")).put("flinkVersion", 23);
        ObjectNode neighbour = realDeployment();
        ((ObjectNode) neighbour.get("spec")).put("flinkVersion", "v2_2");

        assertThat(describe(operatorSchema.validate(realDeployment()))).isEmpty();
        assertThat(operatorSchema.validate(misspelt)).anySatisfy(m -> {
            assertThat(m.getType()).isEqualTo("additionalProperties");
            assertThat(m.getMessage()).contains("'flinkVersoin'");
        });
        assertThat(operatorSchema.validate(wrongType)).anySatisfy(m -> {
            assertThat(m.getType()).isEqualTo("type");
            assertThat(m.getInstanceLocation()).hasToString("$.spec.flinkVersion");
        });
        // A release the operator knows but the artifact does not: only the one value was added.
        assertThat(operatorSchema.validate(neighbour)).anySatisfy(m -> {
            assertThat(m.getType()).isEqualTo("enum");
            assertThat(m.getInstanceLocation()).hasToString("$.spec.flinkVersion");
        });
    }

    // ---------------------------------------------------------------- the files around it

    @Test
    void theDeploymentRunsThisFlinkWithItsS3PluginInApplicationMode() {
        ObjectNode deployment = realDeployment();
        String[] version = EnvironmentInformation.getVersion().split("\\.");

        assertThat(deployment.at("/spec/flinkVersion").asText()).isEqualTo("v" + version[0] + "_" + version[1]);
        assertThat(environment(deployment)).containsEntry(
                "ENABLE_BUILT_IN_PLUGINS", "flink-s3-fs-hadoop-" + EnvironmentInformation.getVersion() + ".jar");
        assertThat(deployment.at("/spec/job/jarURI").asText())
                .isEqualTo("local:///opt/flink/usrlib/queen-lake-0.1.0.jar");
        assertThat(deployment.at("/spec/job/upgradeMode").asText()).isEqualTo("savepoint");
        assertThat(deployment.at("/spec/job/args")).isNotEmpty();
    }

    @Test
    void theImageFromTheDockerfileHoldsTheJarTheDeploymentRuns() throws IOException {
        String dockerfile = Files.readString(K8S.resolve("Dockerfile"));
        String[] version = EnvironmentInformation.getVersion().split("\\.");

        Matcher from = Pattern.compile("(?m)^FROM\\s+(\\S+)").matcher(dockerfile);
        assertThat(from.find()).as("a FROM line in k8s-operator/Dockerfile").isTrue();
        assertThat(from.group(1)).startsWith("flink:" + version[0] + "." + version[1]);
        Matcher copy = Pattern.compile("(?m)^COPY\\s+(?:--\\S+\\s+)*dist/target/(\\S+)\\s+(\\S+)$").matcher(dockerfile);
        assertThat(copy.find()).as("a COPY of the job jar in k8s-operator/Dockerfile").isTrue();
        assertThat("local://" + copy.group(2)).isEqualTo(realDeployment().at("/spec/job/jarURI").asText());
        assertThat(copy.group(2)).endsWith("/" + copy.group(1));
    }

    @Test
    void theSecretTemplateHoldsEveryKeyThePodsReadAndNoRealValue() {
        JsonNode secret = documents(K8S.resolve("secret.example.yaml")).get(0);
        String secretName = secret.at("/metadata/name").asText();
        List<JsonNode> refs = realDeployment().at("/spec/podTemplate/spec/containers/0/env").findValues("secretKeyRef");

        assertThat(refs).isNotEmpty().allSatisfy(ref -> {
            assertThat(ref.path("name").asText()).isEqualTo(secretName);
            assertThat(secret.at("/stringData").has(ref.path("key").asText()))
                    .as("key %s in secret.example.yaml", ref.path("key").asText()).isTrue();
        });
        assertThat(secret.at("/stringData").properties())
                .allSatisfy(e -> assertThat(e.getValue().asText()).as(e.getKey()).matches("<[^<>]+>"));
        assertThat(secret.has("data")).as("base64 data in a template").isFalse();
    }

    @Test
    void thePodMonitorScrapesThePrometheusPortOfTheDeploymentsPods() {
        JsonNode monitor = documents(K8S.resolve("podmonitor.yaml")).get(0);
        ObjectNode deployment = realDeployment();
        JsonNode metricsPort = null;
        for (JsonNode port : deployment.at("/spec/podTemplate/spec/containers/0/ports")) {
            if (port.path("name").asText().equals(monitor.at("/spec/podMetricsEndpoints/0/port").asText())) {
                metricsPort = port;
            }
        }

        assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.path("kind").asText()).isEqualTo("PodMonitor");
        assertThat(metricsPort).as("the container port the PodMonitor names").isNotNull();
        assertThat(metricsPort.path("containerPort").asText())
                .isEqualTo(deployment.at("/spec/flinkConfiguration/metrics.reporter.prom.port").asText())
                .isEqualTo("9249");
        // Labels Flink's native Kubernetes integration puts on every pod of the cluster.
        assertThat(monitor.at("/spec/selector/matchLabels/app").asText())
                .isEqualTo(deployment.at("/metadata/name").asText());
        assertThat(monitor.at("/spec/selector/matchLabels/type").asText()).isEqualTo("flink-native-kubernetes");
    }

    @Test
    void theJobTakesTheDeploymentsArgumentsAndSetsUpTheS3FileSystemAsTheClusterDoes() {
        ObjectNode deployment = realDeployment();
        Map<String, String> cluster = deploymentFlinkConfiguration();
        List<String> args = new ArrayList<>();
        deployment.at("/spec/job/args").forEach(arg -> args.add(arg.asText()));

        LakeSettings settings = SettingsLoader.load(
                Map.of("QUEEN_TOKEN", "from-the-secret"), args.toArray(String[]::new), Configuration.fromMap(cluster));

        assertThat(settings.originOf(Setting.QUEUES)).isEqualTo(Origin.ARGUMENT);
        assertThat(settings.originOf(Setting.BUCKET)).isEqualTo(Origin.ARGUMENT);
        // No static keys in the job: the pods' environment (the Secret) or IRSA carries the credentials.
        assertThat(settings.staticKeys()).isFalse();
        // The job sets these on the JobManager's file system only; the TaskManagers have the cluster's.
        assertThat(cluster).containsAllEntriesOf(settings.fileSystemOptions());
        // Checkpoints and savepoints share the bucket but stay outside the lake's prefix.
        assertThat(cluster.get("execution.checkpointing.dir"))
                .startsWith("s3://" + settings.bucket() + "/")
                .doesNotStartWith(settings.lakePath() + "/");
        assertThat(cluster.get("execution.checkpointing.savepoint-dir"))
                .startsWith("s3://" + settings.bucket() + "/")
                .doesNotStartWith(settings.lakePath() + "/");
    }

    // ---------------------------------------------------------------- flink-conf/config.yaml

    @Test
    void flinkConfParsesAsYamlAndFlinkReadsTheProductionSettingsFromIt() {
        assertThat(documents(FLINK_CONF.resolve("config.yaml"))).singleElement().isInstanceOf(ObjectNode.class);
        Configuration conf = flinkConf();

        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofMinutes(1));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE)).isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        // The job's state is about 100 bytes per partition and none of it keyed: on the heap, written whole.
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
        assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isFalse();
        assertThat(conf.get(TaskManagerOptions.MANAGED_MEMORY_FRACTION)).isZero();
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).startsWith("s3://");
        assertThat(conf.get(CheckpointingOptions.SAVEPOINT_DIRECTORY)).startsWith("s3://");
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
        assertThat(conf.getString("metrics.reporter.prom.factory.class", null))
                .isEqualTo("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        assertThat(conf.getString("metrics.reporter.prom.port", null)).isEqualTo("9249");
        assertThat(conf.getString("s3.path.style.access", null)).isNotNull();
        assertThat(conf.getString("s3.endpoint", null)).startsWith("https://");
        assertThat(conf.get(CoreOptions.FLINK_JVM_OPTIONS))
                .contains("--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED");
    }

    @Test
    void everyFlinkKeyIsAFlink23OptionUnderItsCurrentName() {
        Map<String, Boolean> known = currentAndDeprecatedKeys();
        Map<String, String> deploymentConf = deploymentFlinkConfiguration();
        List<String> keys = new ArrayList<>(flinkConf().keySet());
        keys.addAll(deploymentConf.keySet());

        assertThat(keys)
                // Passed on as they are: to the S3 plugin (fs.s3a.*), to a reporter, to the job itself.
                .filteredOn(k -> !k.startsWith("s3.") && !k.startsWith("metrics.reporter.") && !k.startsWith("queen."))
                .allSatisfy(key -> assertThat(known.get(key))
                        .as("%s: a current Flink %s key (false: deprecated, null: unknown)",
                                key, EnvironmentInformation.getVersion())
                        .isTrue());
    }

    @Test
    void neitherFileHoldsCredentialsNorPurgesStagedUploads() {
        Map<String, String> flinkConf = flinkConf().toMap();
        Map<String, String> deploymentConf = deploymentFlinkConfiguration();

        for (Map<String, String> conf : List.of(flinkConf, deploymentConf)) {
            assertThat(conf.keySet())
                    .noneMatch(GlobalConfiguration::isSensitive)
                    .noneMatch(k -> k.matches("(fs\\.)?s3a?\\.(access|secret)[.-]key"))
                    .noneMatch(k -> k.startsWith("queen.token"));
            // A purge on start would abort the staged windows of the checkpoint being restored.
            assertThat(conf).allSatisfy((k, v) -> {
                if (k.endsWith("multipart.purge")) {
                    assertThat(v).as(k).isEqualToIgnoringCase("false");
                }
            });
        }
    }

    @Test
    void theDeploymentMirrorsFlinkConf() {
        Map<String, String> flinkConf = flinkConf().toMap();
        Map<String, String> deploymentConf = deploymentFlinkConfiguration();
        ObjectNode deployment = realDeployment();

        assertThat(flinkConf).allSatisfy((key, value) -> {
            if (MEMORY_FROM_RESOURCES.containsKey(key)) {
                assertThat(deployment.at(MEMORY_FROM_RESOURCES.get(key)).asText()).as(key).isEqualTo(value);
                assertThat(deploymentConf).doesNotContainKey(key);
            } else {
                assertThat(deploymentConf).as("flinkConfiguration of %s", DEPLOYMENT).containsEntry(key, value);
            }
        });
    }

    @Test
    void flinkConfGivesTheMetricDumpRoomForThousandsOfQueuesAsTheLauncherDoes() {
        assertThat(flinkConf().toMap()).containsAllEntriesOf(io.queenlake.connector.metrics.MetricDumpFrame.SETTINGS);
    }

    @Test
    void flinkConfBoundsS3CallsAsTheLauncherDoes() {
        // Without the bounds a call against a stopped bucket retries inside S3A for many minutes, unlogged.
        assertThat(flinkConf().toMap()).containsAllEntriesOf(io.queenlake.connector.sink.S3CallBounds.SETTINGS);
    }

    @Test
    void theCommentedQueenSettingsInFlinkConfAreKeysTheJobTakes() throws IOException {
        Map<String, String> examples = new LinkedHashMap<>();
        Pattern example = Pattern.compile("^# (queen\\.[a-z0-9.-]+): (.+)$");
        for (String line : Files.readAllLines(FLINK_CONF.resolve("config.yaml"))) {
            Matcher m = example.matcher(line);
            if (m.matches()) {
                examples.put(m.group(1), m.group(2));
            }
        }
        assertThat(examples).containsKeys("queen.url", "queen.s3.queues", "queen.s3.bucket");
        assertThat(flinkConf().keySet()).as("queen.* keys left active").noneMatch(k -> k.startsWith("queen."));

        LakeSettings settings = SettingsLoader.load(Map.of(), new String[0], Configuration.fromMap(examples));

        for (Setting setting : Setting.values()) {
            if (examples.containsKey(setting.flinkKey())) {
                assertThat(settings.originOf(setting)).as(setting.flinkKey()).isEqualTo(Origin.FLINK_CONFIGURATION);
                examples.remove(setting.flinkKey());
            }
        }
        assertThat(examples).as("examples that are no queen-lake setting").isEmpty();
    }

    // ---------------------------------------------------------------- helpers

    private static Configuration flinkConf() {
        Path file = FLINK_CONF.resolve("config.yaml");
        assertThat(file).as("flink-conf/config.yaml at %s", file).isRegularFile();
        return GlobalConfiguration.loadConfiguration(FLINK_CONF.toString());
    }

    private static Map<String, String> deploymentFlinkConfiguration() {
        Map<String, String> conf = new LinkedHashMap<>();
        realDeployment().at("/spec/flinkConfiguration").properties()
                .forEach(e -> conf.put(e.getKey(), e.getValue().asText()));
        return conf;
    }

    private static ObjectNode realDeployment() {
        assertThat(DEPLOYMENT).as("the FlinkDeployment at %s", DEPLOYMENT).isRegularFile();
        return (ObjectNode) documents(DEPLOYMENT).get(0);
    }

    private static Map<String, String> environment(JsonNode deployment) {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode var : deployment.at("/spec/podTemplate/spec/containers/0/env")) {
            if (var.has("value")) {
                env.put(var.path("name").asText(), var.path("value").asText());
            }
        }
        return env;
    }

    /** Every key Flink 2.3's option classes for this file define: true when current, false when only a deprecated name. */
    private static Map<String, Boolean> currentAndDeprecatedKeys() {
        Map<String, Boolean> keys = new TreeMap<>();
        List<Class<?>> optionClasses = List.of(CoreOptions.class, PipelineOptions.class, CheckpointingOptions.class,
                StateBackendOptions.class, RestartStrategyOptions.class, JobManagerOptions.class,
                TaskManagerOptions.class, HighAvailabilityOptions.class, MetricOptions.class, RpcOptions.class);
        for (Class<?> options : optionClasses) {
            for (Field field : options.getFields()) {
                if (!Modifier.isStatic(field.getModifiers()) || !ConfigOption.class.isAssignableFrom(field.getType())) {
                    continue;
                }
                ConfigOption<?> option;
                try {
                    option = (ConfigOption<?>) field.get(null);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                keys.put(option.key(), !field.isAnnotationPresent(Deprecated.class));
                for (FallbackKey fallback : option.fallbackKeys()) {
                    keys.putIfAbsent(fallback.getKey(), false);
                }
            }
        }
        return keys;
    }

    private static List<Path> yamlFilesIn(Path dir) {
        assertThat(dir).as("the folder %s", dir).isDirectory();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<JsonNode> concat(ArrayNode values, JsonNode last) {
        List<JsonNode> all = new ArrayList<>();
        values.forEach(all::add);
        all.add(last);
        return all;
    }

    private static List<JsonNode> documents(Path file) {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            return docs.readAll().stream().filter(JsonNode::isObject).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " as YAML: " + e.getMessage(), e);
        }
    }

    private static List<String> describe(Set<ValidationMessage> messages) {
        return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    /**
     * The FlinkDeployment schema as the API server applies it, from the operator's CRD: version
     * {@code v1beta1}'s {@code openAPIV3Schema}, turned into a JSON schema the validator reads.
     */
    static final class OperatorSchema {

        /**
         * The one difference from the artifact's schema this test allows. The newest
         * flink-kubernetes-operator-api the build resolves, 1.10.0, predates Flink 2: its
         * {@code spec.flinkVersion} enum ends at {@code v1_20}, while the operator releases that
         * run Flink 2 list {@code v2_0} and up, and the deployment must say {@code v2_3}, the
         * Flink it runs. So this value, and only it, is appended to that one enum. The 1.10.0 CRD
         * differs from the current operator's elsewhere too (newer pod template fields,
         * {@code job.autoscalerResetNonce}, string-only values under {@code flinkConfiguration});
         * none is tolerated: a deployment that needs them fails here.
         */
        static final String TOLERATED_FLINK_VERSION = "v2_3";
        static final String FLINK_VERSION_ENUM = "/properties/spec/properties/flinkVersion/enum";

        private OperatorSchema() {}

        /** Version {@code v1beta1}'s openAPIV3Schema, as the CRD has it. */
        static ObjectNode openApiFrom(Path crd) {
            if (!Files.isRegularFile(crd)) {
                throw new IllegalStateException("The Flink operator's CRD is missing: expected " + crd
                        + ", unpacked from " + CRD_ARTIFACT + " by job/pom.xml (execution operator-crd-for-tests)"
                        + " in generate-test-resources; run the test through Maven (mvn -pl job -am test).");
            }
            JsonNode openApi = null;
            for (JsonNode version : documents(crd).get(0).at("/spec/versions")) {
                if (version.path("name").asText().equals("v1beta1")) {
                    openApi = version.at("/schema/openAPIV3Schema");
                }
            }
            if (!(openApi instanceof ObjectNode)) {
                throw new IllegalStateException(crd + " (from " + CRD_ARTIFACT + ") has no version v1beta1 with a"
                        + " schema.openAPIV3Schema; it is not the FlinkDeployment CRD this test expects.");
            }
            return (ObjectNode) openApi;
        }

        /** A copy with {@link #TOLERATED_FLINK_VERSION} appended to the flinkVersion enum, if it is missing. */
        static ObjectNode tolerated(ObjectNode openApi) {
            ObjectNode copy = openApi.deepCopy();
            if (!(copy.at(FLINK_VERSION_ENUM) instanceof ArrayNode versions)) {
                throw new IllegalStateException("The CRD from " + CRD_ARTIFACT + " has no " + FLINK_VERSION_ENUM
                        + " to add " + TOLERATED_FLINK_VERSION + " to; revisit OperatorSchema.TOLERATED_FLINK_VERSION.");
            }
            boolean listed = false;
            for (JsonNode version : versions) {
                listed |= version.asText().equals(TOLERATED_FLINK_VERSION);
            }
            if (!listed) {
                versions.add(TOLERATED_FLINK_VERSION);
            }
            return copy;
        }

        static JsonSchema strictValidator(ObjectNode openApi) {
            ObjectNode schema = openApi.deepCopy();
            strict(schema);
            addObjectEnvelope(schema);
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schema);
        }

        /**
         * Drops what JSON schema does not know ({@code x-kubernetes-*}, {@code nullable}: both
         * ignored here) and, because the operator's CRD does not say {@code additionalProperties:
         * false} while the API server prunes (and {@code kubectl --validate=strict} refuses) any
         * field it does not list, adds {@code additionalProperties: false} to every object schema
         * that lists {@code properties} and says nothing of additional ones: a misspelt field
         * would otherwise pass silently and be dropped. An object marked
         * {@code x-kubernetes-preserve-unknown-fields} keeps taking any field, as on the server.
         */
        private static void strict(ObjectNode schema) {
            boolean preservesUnknown = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
            Iterator<String> keywords = schema.fieldNames();
            while (keywords.hasNext()) {
                String keyword = keywords.next();
                if (keyword.startsWith("x-kubernetes-") || keyword.equals("nullable")) {
                    keywords.remove();
                }
            }
            if (schema.get("properties") instanceof ObjectNode properties) {
                properties.forEach(property -> strict((ObjectNode) property));
                if (!schema.has("additionalProperties") && !preservesUnknown) {
                    schema.set("additionalProperties", BooleanNode.FALSE);
                }
            }
            if (schema.get("additionalProperties") instanceof ObjectNode values) {
                strict(values);
            }
            if (schema.get("items") instanceof ObjectNode items) {
                strict(items);
            }
            for (String combinator : List.of("anyOf", "allOf", "oneOf")) {
                if (schema.get(combinator) instanceof ArrayNode choices) {
                    choices.forEach(choice -> strict((ObjectNode) choice));
                }
            }
            if (schema.get("not") instanceof ObjectNode not) {
                strict(not);
            }
        }

        /**
         * The API server checks apiVersion, kind and metadata of every custom resource itself, so
         * the CRD's schema lists only spec and status; with the root now strict they are added:
         * this version and kind, and the CRD's own ObjectMeta schema (from the pod template) with
         * the name a resource must have.
         */
        private static void addObjectEnvelope(ObjectNode root) {
            ObjectNode properties = (ObjectNode) root.get("properties");
            ObjectNode metadata = root.at("/properties/spec/properties/podTemplate/properties/metadata").deepCopy();
            metadata.putArray("required").add("name");
            properties.putObject("apiVersion").put("type", "string").putArray("enum").add("flink.apache.org/v1beta1");
            properties.putObject("kind").put("type", "string").putArray("enum").add("FlinkDeployment");
            properties.set("metadata", metadata);
            root.putArray("required").add("apiVersion").add("kind").add("metadata").add("spec");
        }
    }
}
