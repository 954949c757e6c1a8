// File: perf/load_shapes.cc
//
// The generated dumps and the Load shapes (see load_shapes.h).
#include "perf/load_shapes.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codec/loader.h"
#include "codec/raw_parse.h"
#include "perf/cpu_time.h"
#include "perf/memory.h"

namespace wasched::perf {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kTime = "2026-01-01T00:00:00Z";

Json NodeObject(int i) {
  const std::string name = fmt::format("node-{:05d}", i);
  const std::string ip = fmt::format("172.18.{}.{}", i / 256, i % 256);
  Json conditions = Json::array();
  const char* kConditions[][4] = {
      {"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
      {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
      {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
      {"Ready", "True", "KubeletReady", "kubelet is posting ready status"}};
  for (const auto& c : kConditions) {
    conditions.push_back({{"lastHeartbeatTime", kTime}, {"lastTransitionTime", kTime},
                          {"message", c[3]}, {"reason", c[2]}, {"status", c[1]}, {"type", c[0]}});
  }
  const Json resources = {{"cpu", "64"}, {"ephemeral-storage", "1055762868Ki"},
                          {"hugepages-1Gi", "0"}, {"hugepages-2Mi", "0"},
                          {"memory", "263750704Ki"}, {"pods", "110"}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"annotations", {{"node.alpha.kubernetes.io/ttl", "0"}}},
            {"creationTimestamp", kTime},
            {"labels",
             {{"kubernetes.io/arch", "amd64"},
              {"kubernetes.io/hostname", name},
              {"kubernetes.io/os", "linux"},
              {"topology.kubernetes.io/zone", fmt::format("zone-{}", i % 4)},
              {"topology.kubernetes.io/rack", fmt::format("rack-{}", i / 40)}}},
            {"name", name},
            {"resourceVersion", std::to_string(1000 + i)},
            {"uid", fmt::format("00000000-0000-0000-0000-{:012d}", i)}}},
          {"spec", {{"podCIDR", fmt::format("10.{}.{}.0/24", i / 256, i % 256)}}},
          {"status",
           {{"addresses", {{{"address", ip}, {"type", "InternalIP"}}, {{"address", name}, {"type", "Hostname"}}}},
            {"allocatable", resources},
            {"capacity", resources},
            {"conditions", conditions},
            {"nodeInfo",
             {{"architecture", "amd64"}, {"containerRuntimeVersion", "containerd://2.1.0"},
              {"kernelVersion", "6.1.0"}, {"kubeletVersion", "v1.37.2"},
              {"operatingSystem", "linux"}, {"osImage", "Debian GNU/Linux 12 (bookworm)"}}}}}};
}

Json PodGroupObject(int g) {
  return {{"apiVersion", "scheduling.k8s.io/v1beta1"},
          {"kind", "PodGroup"},
          {"metadata",
           {{"creationTimestamp", kTime},
            {"name", fmt::format("group-{:04d}", g)},
            {"namespace", fmt::format("ns-{}", g % 50)},
            {"uid", fmt::format("10000000-0000-0000-0000-{:012d}", g)}}},
          {"spec", {{"schedulingPolicy", {{"gang", {{"minCount", 8}}}}}}}};
}

// PodObject: pod i; the first size.running run on a node with status, then size.pod_groups × 8
// pending gang members (group (i - running) / 8), then plain pending pods.
Json PodObject(int i, const DumpSize& size) {
  const bool running = i < size.running;
  const int app = i / 10;
  Json container = {
      {"env",
       {{{"name", "POD_NAME"}, {"valueFrom", {{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}},
        {{"name", "LOG_LEVEL"}, {"value", "info"}}}},
      {"image", "registry.k8s.io/e2e-test-images/agnhost:2.53"},
      {"imagePullPolicy", "IfNotPresent"},
      {"name", "main"},
      {"ports", {{{"containerPort", 8080}, {"name", "http"}, {"protocol", "TCP"}}}},
      {"resources", {{"limits", {{"cpu", "1"}, {"memory", "1Gi"}}}, {"requests", {{"cpu", "500m"}, {"memory", "512Mi"}}}}},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"},
      {"volumeMounts",
       {{{"mountPath", "/etc/config"}, {"name", "config"}},
        {{"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"}, {"name", "kube-api-access"}, {"readOnly", true}}}}};
  Json spec = {
      {"containers", Json::array({container})},
      {"dnsPolicy", "ClusterFirst"},
      {"enableServiceLinks", true},
      {"preemptionPolicy", "PreemptLowerPriority"},
      {"priority", 0},
      {"restartPolicy", "Always"},
      {"schedulerName", "default-scheduler"},
      {"securityContext", Json::object()},
      {"serviceAccountName", "default"},
      {"terminationGracePeriodSeconds", 30},
      {"tolerations",
       {{{"effect", "NoExecute"}, {"key", "node.kubernetes.io/not-ready"}, {"operator", "Exists"}, {"tolerationSeconds", 300}},
        {{"effect", "NoExecute"}, {"key", "node.kubernetes.io/unreachable"}, {"operator", "Exists"}, {"tolerationSeconds", 300}}}},
      {"volumes",
       {{{"configMap", {{"defaultMode", 420}, {"name", "app-config"}}}, {"name", "config"}},
        {{"name", "kube-api-access"},
         {"projected",
          {{"defaultMode", 420},
           {"sources",
            {{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
             {{"configMap", {{"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}}, {"name", "kube-root-ca.crt"}}}}}}}}}}}};
  Json status;
  if (running) {
    const int n = i % size.nodes;
    const std::string host = fmt::format("172.18.{}.{}", n / 256, n % 256);
    const std::string pod_ip = fmt::format("10.{}.{}.{}", n / 256, n % 256, i % 250 + 2);
    spec["nodeName"] = fmt::format("node-{:05d}", n);
    Json conditions = Json::array();
    for (const char* type : {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
      conditions.push_back({{"lastProbeTime", nullptr}, {"lastTransitionTime", kTime}, {"status", "True"}, {"type", type}});
    }
    status = {{"conditions", conditions},
              {"containerStatuses",
               {{{"containerID", fmt::format("containerd://{:064x}", i)},
                 {"image", "registry.k8s.io/e2e-test-images/agnhost:2.53"},
                 {"imageID", "registry.k8s.io/e2e-test-images/agnhost@sha256:99c6b4bb4a1e1df3f0b3752168c89358794d02258ebebc26bf21c29399011a85"},
                 {"lastState", Json::object()},
                 {"name", "main"},
                 {"ready", true},
                 {"restartCount", 0},
                 {"started", true},
                 {"state", {{"running", {{"startedAt", kTime}}}}}}}},
              {"hostIP", host},
              {"phase", "Running"},
              {"podIP", pod_ip},
              {"podIPs", {{{"ip", pod_ip}}}},
              {"qosClass", "Burstable"},
              {"startTime", kTime}};
  } else {
    const int member = i - size.running;
    if (member / 8 < size.pod_groups) {
      spec["schedulingGroup"] = {{"podGroupName", fmt::format("group-{:04d}", member / 8)}};
    }
    status = {{"phase", "Pending"}, {"qosClass", "Burstable"}};
  }
  const int ns = running ? i % 50 : (i - size.running) / 8 % 50;
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"creationTimestamp", kTime},
            {"generateName", fmt::format("app-{:05d}-", app)},
            {"labels", {{"app", fmt::format("app-{:05d}", app)}, {"pod-template-hash", "5d8f7c9b4"}}},
            {"name", fmt::format("app-{:05d}-{:06d}", app, i)},
            {"namespace", fmt::format("ns-{}", ns)},
            {"ownerReferences",
             {{{"apiVersion", "apps/v1"}, {"blockOwnerDeletion", true}, {"controller", true},
               {"kind", "ReplicaSet"}, {"name", fmt::format("app-{:05d}", app)},
               {"uid", fmt::format("20000000-0000-0000-0000-{:012d}", app)}}}},
            {"resourceVersion", std::to_string(100000 + i)},
            {"uid", fmt::format("30000000-0000-0000-0000-{:012d}", i)}}},
          {"spec", spec},
          {"status", status}};
}

// PlainSafe: a string YAML reads back as itself when written unquoted (conservative: letters,
// digits and . _ / - only, starting with a letter, and no YAML 1.1 boolean or null word).
bool PlainSafe(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (const char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '/' && c != '-') {
      return false;
    }
  }
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}) {
    if (lower == word) return false;
  }
  return true;
}

void AppendScalar(const Json& v, std::string* out) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (PlainSafe(s)) {
      out->append(s);
      return;
    }
    out->push_back('\'');
    for (const char c : s) {
      if (c == '\'') out->push_back('\'');
      out->push_back(c);
    }
    out->push_back('\'');
    return;
  }
  out->append(v.dump());  // numbers, booleans, null
}

// AppendYaml: a map in kubectl's block style (go-yaml: 2-space indent, list items at the
// indentation of their key).
void AppendYaml(const Json& map, int indent, std::string* out, bool first_line_done = false) {
  bool first = true;
  for (const auto& [key, value] : map.items()) {
    if (!(first && first_line_done)) out->append(static_cast<size_t>(indent), ' ');
    first = false;
    out->append(key).push_back(':');
    if (value.is_object() && !value.empty()) {
      out->push_back('\n');
      AppendYaml(value, indent + 2, out);
    } else if (value.is_array() && !value.empty()) {
      out->push_back('\n');
      for (const Json& item : value) {
        out->append(static_cast<size_t>(indent), ' ').append("- ");
        if (item.is_object() && !item.empty()) {
          AppendYaml(item, indent + 2, out, /*first_line_done=*/true);
        } else {
          AppendScalar(item, out);
          out->push_back('\n');
        }
      }
    } else if (value.is_object()) {
      out->append(" {}\n");
    } else if (value.is_array()) {
      out->append(" []\n");
    } else {
      out->push_back(' ');
      AppendScalar(value, out);
      out->push_back('\n');
    }
  }
}

template <typename Fn>
void ForEachObject(const DumpSize& size, Fn&& fn) {
  for (int i = 0; i < size.nodes; ++i) fn(NodeObject(i));
  for (int g = 0; g < size.pod_groups; ++g) fn(PodGroupObject(g));
  for (int i = 0; i < size.pods; ++i) fn(PodObject(i, size));
}

// TempFile: a file holding `text`, removed when the TempFile goes.
class TempFile {
 public:
  TempFile(const std::string& text, const std::string& suffix) {
    std::string pattern = (std::filesystem::temp_directory_path() / "wasched-load-XXXXXX").string() + suffix;
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) return;
    close(fd);
    std::ofstream out(pattern, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (out.good()) path_ = pattern;
  }
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// LoadFile: codec::LoadPaths of one file; the objects decoded (Nodes + Pods + PodGroups), or -1
// when the load failed.
int64_t LoadFile(const std::string& path) {
  std::istringstream no_stdin;
  auto loaded = codec::LoadPaths({path}, no_stdin);
  if (!loaded) return -1;
  return static_cast<int64_t>(loaded->objects.nodes.size() + loaded->objects.pods.size() +
                              loaded->objects.pod_groups.size());
}

tl::expected<LoadReading, std::string> RunLoad(const DumpSize& size, DumpForm form, const LoadTiming& timing) {
  LoadReading r;
  r.expected_objects = size.objects();
  r.instance = fmt::format("{}Nodes_{}Pods", size.nodes, size.pods);
  std::string text = GenerateDump(size, form);
  r.file_bytes = static_cast<int64_t>(text.size());
  const TempFile file(text, form == DumpForm::kJsonList ? ".json" : ".yaml");
  if (file.path().empty()) return tl::unexpected(std::string("cannot write the generated dump to a temporary file"));
  const int reps = timing.timing ? std::max(1, timing.repetitions) : 1;
  if (timing.timing) {
    // Memory first, in a child forked before this process has decoded anything (memory an
    // earlier load freed would be reused by the child and hide its growth), without the text.
    text = std::string();
    auto growth = MeasurePeakGrowth([&] { (void)LoadFile(file.path()); });
    if (!growth) return tl::unexpected(growth.error());
    r.peak_growth_bytes = *growth;
  }
  std::vector<double> cpu;
  std::vector<double> wall;
  for (int i = 0; i < reps; ++i) {
    const double cpu0 = ThreadCpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    r.objects = LoadFile(file.path());
    cpu.push_back(ThreadCpuSeconds() - cpu0);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
    if (r.objects < 0) return tl::unexpected(std::string("the generated dump did not load"));
  }
  r.seconds = MedianOf(cpu);
  r.wall_seconds = MedianOf(wall);
  if (!timing.timing) return r;
  text = GenerateDump(size, form);  // the same bytes again, for the parser alone
  std::vector<double> parser;
  for (int i = 0; i < reps; ++i) {
    const double cpu0 = ThreadCpuSeconds();
    const int64_t values = codec::RawParse(text);
    parser.push_back(ThreadCpuSeconds() - cpu0);
    if (values < 0) return tl::unexpected(std::string("the parser refused the generated dump"));
  }
  r.parser_seconds = MedianOf(parser);
  return r;
}

}  // namespace

DumpSize DumpSizeAt(double scale) {
  auto at = [&](int full) { return std::max(1, static_cast<int>(std::lround(full * scale))); };
  DumpSize s{at(5000), at(150000), at(120000), at(1000)};
  s.running = std::min(s.running, s.pods);
  s.pod_groups = std::min(s.pod_groups, (s.pods - s.running) / 8);
  return s;
}

std::string GenerateDump(const DumpSize& size, DumpForm form) {
  std::string out;
  if (form == DumpForm::kJsonList) {
    out.append(R"({"apiVersion":"v1","items":[)");
    bool first = true;
    ForEachObject(size, [&](const Json& o) {
      if (!first) out.push_back(',');
      first = false;
      out.append(o.dump());
    });
    out.append(R"(],"kind":"List","metadata":{"resourceVersion":""}})");
    out.push_back('\n');
    return out;
  }
  ForEachObject(size, [&](const Json& o) {
    out.append("---\n");
    AppendYaml(o, 0, &out);
  });
  return out;
}

std::vector<Shape> LoadShapes() {
  std::vector<Shape> shapes;
  for (const DumpForm form : {DumpForm::kJsonList, DumpForm::kYamlDocuments}) {
    for (const double scale : {1.0, 0.1, 0.01}) {
      const DumpSize full = DumpSizeAt(scale);
      const std::string name = fmt::format("Load/{}_{}Nodes_{}Pods", form == DumpForm::kJsonList ? "JsonList" : "YamlDocuments",
                                           full.nodes, full.pods);
      Shape s;
      s.name = name;
      s.description = fmt::format("{} dump ({}× the large cluster: {} running pods with status, {} PodGroups) through the loader",
                                  form == DumpForm::kJsonList ? "JSON List" : "YAML one-document-per-object",
                                  scale, full.running, full.pod_groups);
      s.measure = Measure::kLoad;
      s.unit = "MB/s";
      s.direction = Direction::kHigherIsBetter;
      s.load = [scale, form](Scale at, const LoadTiming& timing) {
        return RunLoad(DumpSizeAt(at == Scale::kFull ? scale : scale / 100), form, timing);
      };
      shapes.push_back(std::move(s));
    }
  }
  return shapes;
}

}  // namespace wasched::perf
