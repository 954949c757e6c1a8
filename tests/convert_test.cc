// File: tests/convert_test.cc
//
// The real `wasched` binary on the real-world manifests of tests/data/convert/ (issue 3's
// acceptance): every manifest converts (to v1beta1 and to v1alpha3, as YAML and as JSON) without
// warnings and the result validates clean; conversion is idempotent; objects already at the
// target version come back as themselves; `validate` says the same about the converted output as
// about the input; fragments (partial objects) behave as README documents; usage errors exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "codec/yaml_tree.h"
#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using codec::internal::YamlTree;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kConvertData = std::string(WASCHED_TESTDATA_DIR) + "/data/convert";
const std::string kWebsite = kConvertData + "/kubernetes-website/workload-api/";
const std::string kJobSet = kConvertData + "/jobset/workload-aware-scheduling/";

// TempFile: a file holding `text` under the test temp folder, removed at scope exit.
class TempFile {
 public:
  TempFile(const std::string& text, const std::string& name) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() / ("wasched-convert-" + std::to_string(::getpid()) + "-" +
                                          std::to_string(counter++) + "-" + name))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<YamlTree> Parse(const std::string& text) {
  std::string error;
  std::vector<YamlTree> trees = codec::internal::ParseTrees(text, &error);
  EXPECT_EQ(error, "") << text;
  return trees;
}

// Objects: the documents of `text`, with a JSON `List` unwrapped (convert -o json wraps).
std::vector<YamlTree> Objects(const std::string& text) {
  std::vector<YamlTree> docs = Parse(text);
  if (docs.size() == 1 && docs[0].Find("kind") != nullptr && docs[0].Find("kind")->text == "List" &&
      docs[0].Find("items") != nullptr) {
    return docs[0].Find("items")->children;
  }
  return docs;
}

bool SameObjects(const std::vector<YamlTree>& a, const std::vector<YamlTree>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!codec::internal::SameContent(a[i], b[i])) return false;
  }
  return true;
}

test::CommandResult Convert(const std::vector<std::string>& files, const std::string& to,
                            const std::string& output = "yaml") {
  std::vector<std::string> argv = {WASCHED_BINARY, "convert"};
  for (const std::string& f : files) {
    argv.push_back("-f");
    argv.push_back(f);
  }
  argv.insert(argv.end(), {"--to", to, "-o", output});
  return test::RunCommand(argv);
}

test::CommandResult Validate(const std::vector<std::string>& files) {
  std::vector<std::string> argv = {WASCHED_BINARY, "validate", "-o", "json"};
  for (const std::string& f : files) {
    argv.push_back("-f");
    argv.push_back(f);
  }
  return test::RunCommand(argv);
}

// WithoutSnippetErrors: a `validate -o json` report without the `Required spec.containers`
// errors: the kubernetes/website Pod snippets show only the fields their page is about (no
// containers), which the API server (and so `validate`) rejects; the conversion tests check
// everything else. Unparseable text comes back as it is.
std::string WithoutSnippetErrors(const std::string& report) {
  nlohmann::json doc = nlohmann::json::parse(report, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.contains("errors")) return report;
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& e : doc["errors"]) {
    if (e.value("type", "") != "Required" || e.value("field", "") != "spec.containers") {
      kept.push_back(e);
    }
  }
  doc["errors"] = kept;
  // The notes on skipped kinds that do not affect scheduling (a Namespace next to the objects)
  // are not findings.
  nlohmann::json warnings = nlohmann::json::array();
  for (const nlohmann::json& w : doc.value("warnings", nlohmann::json::array())) {
    if (w.get<std::string>().find(": not used for scheduling (first: ") == std::string::npos) {
      warnings.push_back(w);
    }
  }
  doc["warnings"] = warnings;
  return doc.dump(2) + "\n";
}

// Companions: files validated together with a manifest: the PriorityClasses the JobSet
// preemption example's PodGroups name (they live in sibling files upstream).
std::vector<std::string> Companions(const std::string& file) {
  if (file.find("/jobset/") != std::string::npos &&
      fs::path(file).filename().string().ends_with("-jobset.yaml")) {
    return {kJobSet + "preemption__high-priority.yaml", kJobSet + "preemption__low-priority.yaml"};
  }
  return {};
}

std::vector<std::string> Manifests() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kConvertData)) {
    const std::string path = entry.path().string();
    if (entry.is_regular_file() && path.ends_with(".yaml") && !path.ends_with(".fragment.yaml")) {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct ManifestCase {
  std::string file;
  std::string to;
  std::string output;
};

void PrintTo(const ManifestCase& c, std::ostream* os) {
  *os << fs::path(c.file).filename().string() << " --to " << c.to << " -o " << c.output;
}

class ManifestConvertTest : public ::testing::TestWithParam<ManifestCase> {};

TEST_P(ManifestConvertTest, ConvertsWithoutWarningsAndValidatesClean) {
  const ManifestCase& c = GetParam();
  const test::CommandResult converted = Convert({c.file}, c.to, c.output);
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  EXPECT_EQ(converted.err, "");
  ASSERT_NE(converted.out, "");
  const TempFile out(converted.out, "converted." + c.output);
  std::vector<std::string> inputs = {out.path()};
  for (const std::string& f : Companions(c.file)) inputs.push_back(f);
  const test::CommandResult validated = Validate(inputs);
  const std::string report = WithoutSnippetErrors(validated.out);
  const bool snippet_errors =
      nlohmann::json::parse(validated.out)["errors"].size() !=
      nlohmann::json::parse(report)["errors"].size();
  EXPECT_EQ(validated.exit_code, snippet_errors ? 1 : 0)
      << validated.out << validated.err << "\nconverted:\n" << converted.out;
  EXPECT_EQ(report, "{\n  \"errors\": [],\n  \"warnings\": []\n}\n")
      << "converted:\n" << converted.out;
  // Nothing of the removed versions is left.
  EXPECT_THAT(converted.out, Not(HasSubstr("scheduling.k8s.io/v1alpha1")));
  EXPECT_THAT(converted.out, Not(HasSubstr("scheduling.k8s.io/v1alpha2")));
  EXPECT_THAT(converted.out, Not(HasSubstr("podGroupTemplateRef")));
  EXPECT_THAT(converted.out, Not(HasSubstr("workloadRef:\n    name:")));
}

TEST_P(ManifestConvertTest, ConvertingTwiceChangesNothingMore) {
  const ManifestCase& c = GetParam();
  const test::CommandResult once = Convert({c.file}, c.to, c.output);
  ASSERT_EQ(once.exit_code, 0) << once.err;
  const TempFile out(once.out, "once." + c.output);
  const test::CommandResult twice = Convert({out.path()}, c.to, c.output);
  ASSERT_EQ(twice.exit_code, 0) << twice.err;
  EXPECT_EQ(twice.err, "");
  EXPECT_TRUE(SameObjects(Objects(once.out), Objects(twice.out))) << once.out << "\n" << twice.out;
}

// CurrentManifestTest: the manifests without removed versions (v1beta1 / v1alpha3 / other
// kinds only), whose validation is meaningful before conversion too.
class CurrentManifestTest : public ManifestConvertTest {};

TEST_P(CurrentManifestTest, ValidateSaysTheSameAboutInputAndOutput) {
  const ManifestCase& c = GetParam();
  const test::CommandResult converted = Convert({c.file}, c.to, c.output);
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  const TempFile out(converted.out, "converted." + c.output);
  std::vector<std::string> before = {c.file};
  std::vector<std::string> after = {out.path()};
  for (const std::string& f : Companions(c.file)) {
    before.push_back(f);
    after.push_back(f);
  }
  const test::CommandResult v_in = Validate(before);
  const test::CommandResult v_out = Validate(after);
  EXPECT_EQ(v_in.exit_code, v_out.exit_code);
  EXPECT_EQ(v_in.out, v_out.out);
}

std::vector<ManifestCase> AllCases() {
  std::vector<ManifestCase> cases;
  for (const std::string& file : Manifests()) {
    for (const char* to : {"scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha3"}) {
      for (const char* output : {"yaml", "json"}) cases.push_back({file, to, output});
    }
  }
  return cases;
}

std::vector<ManifestCase> CurrentCases() {
  std::vector<ManifestCase> cases;
  for (const ManifestCase& c : AllCases()) {
    const std::string text = test::ReadFile(c.file);
    if (text.find("scheduling.k8s.io/v1alpha1") == std::string::npos &&
        text.find("scheduling.k8s.io/v1alpha2") == std::string::npos) {
      cases.push_back(c);
    }
  }
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<ManifestCase>& info) {
  std::string name = fs::path(info.param.file).parent_path().filename().string() + "_" +
                     fs::path(info.param.file).stem().string() + "_" +
                     fs::path(info.param.to).filename().string() + "_" + info.param.output;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(RealManifests, ManifestConvertTest, ::testing::ValuesIn(AllCases()),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(RealManifests, CurrentManifestTest, ::testing::ValuesIn(CurrentCases()),
                         CaseName);

TEST(ConvertCliTest, AllCopiedManifestsAreCovered) {
  // 5 website (2 of them v1beta1/v1alpha3) + 10 JobSet + 1 DRA driver files, 2 fragments aside.
  EXPECT_EQ(Manifests().size(), 16u);
}

TEST(ConvertCliTest, TargetVersionObjectsRoundTripAsThemselves) {
  for (const auto& [file, version] :
       {std::pair{kWebsite + "main-v1beta1_workload-with-priority-disruption.yaml",
                  std::string("scheduling.k8s.io/v1beta1")},
        std::pair{kWebsite + "main-v1alpha3_composite-gang-of-gangs.yaml",
                  std::string("scheduling.k8s.io/v1alpha3")}}) {
    for (const char* output : {"yaml", "json"}) {
      const test::CommandResult r = Convert({file}, version, output);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.err, "");
      EXPECT_TRUE(SameObjects(Parse(test::ReadFile(file)), Objects(r.out))) << r.out;
    }
  }
}

TEST(ConvertCliTest, V1alpha1ManifestGetsItsPodGroup) {
  const test::CommandResult r =
      Convert({kWebsite + "v1.35-v1alpha1_workload-and-pod-workloadRef.yaml"}, "v1beta1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<YamlTree> docs = Parse(r.out);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[1].Find("kind")->text, "PodGroup");
  EXPECT_EQ(docs[1].Find("metadata")->Find("name")->text, "training-job-workload-workers");
  EXPECT_EQ(docs[1].Find("spec")->Find("schedulingPolicy")->Find("gang")->Find("minCount")->text,
            "4");
  EXPECT_EQ(docs[2].Find("spec")->Find("schedulingGroup")->Find("podGroupName")->text,
            "training-job-workload-workers");
}

TEST(ConvertCliTest, PodGroupFragmentConvertsAndReportsTheMissingPolicy) {
  const std::string file =
      kWebsite + "v1.36-v1alpha2_podgroup-with-dra-resourceclaims.fragment.yaml";
  const test::CommandResult r = Convert({file}, "scheduling.k8s.io/v1beta1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "warning: " + file +
                       ": document 1: PodGroup some-ns/training-group: spec.schedulingPolicy: "
                       "cannot convert: required field is missing (a fragment?); the rest is "
                       "converted, the output will not validate\n");
  EXPECT_THAT(r.out, HasSubstr("apiVersion: scheduling.k8s.io/v1beta1\n"));
  EXPECT_THAT(r.out, HasSubstr("resourceClaimTemplateName: my-pg-template\n"));
  // validate reports the missing policy, and only that.
  const TempFile out(r.out, "fragment.yaml");
  const test::CommandResult v = Validate({out.path()});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.out, HasSubstr("\"field\": \"spec.schedulingPolicy\""));
  std::string rest = v.out;
  size_t fields = 0;
  for (size_t at = rest.find("\"field\": "); at != std::string::npos;
       at = rest.find("\"field\": ", at + 1)) {
    ++fields;
    const std::string expected = "\"field\": \"spec.schedulingPolicy\"";
    EXPECT_EQ(rest.compare(at, expected.size(), expected), 0) << v.out;
  }
  EXPECT_GE(fields, 1u);
}

TEST(ConvertCliTest, PodSpecFragmentNeedsAnObjectAroundIt) {
  const std::string fragment = kWebsite + "v1.35-v1alpha1_pod-workloadRef-replicaKey.fragment.yaml";
  const test::CommandResult bare = Convert({fragment}, "v1beta1");
  EXPECT_EQ(bare.exit_code, 1);
  EXPECT_EQ(bare.out, "");
  EXPECT_THAT(bare.err, HasSubstr("document 1: apiVersion: Required value: every object needs "
                                  "apiVersion and kind"));
  // Wrapped into a Pod next to the Workload of the same page, it becomes the replica-"0" gang.
  const TempFile pod(
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: worker-1\n  namespace: "
      "some-ns\n" +
          test::ReadFile(fragment),
      "pod.yaml");
  const test::CommandResult r = Convert(
      {kWebsite + "v1.35-v1alpha1_workload-and-pod-workloadRef.yaml", pod.path()}, "v1beta1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<YamlTree> docs = Parse(r.out);
  ASSERT_EQ(docs.size(), 5u);  // Workload, its 2 PodGroups, 2 Pods
  EXPECT_EQ(docs[1].Find("metadata")->Find("name")->text, "training-job-workload-workers");
  EXPECT_EQ(docs[2].Find("metadata")->Find("name")->text, "training-job-workload-workers-0");
  EXPECT_EQ(docs[4].Find("spec")->Find("schedulingGroup")->Find("podGroupName")->text,
            "training-job-workload-workers-0");
  const TempFile out(r.out, "wrapped.yaml");
  const test::CommandResult v = Validate({out.path()});
  // No errors left but the snippet's missing containers.
  EXPECT_EQ(WithoutSnippetErrors(v.out), "{\n  \"errors\": [],\n  \"warnings\": []\n}\n")
      << v.out;
}

TEST(ConvertCliTest, FoldersAreReadWhole) {
  const test::CommandResult r = Convert({kConvertData + "/dra-example-driver"}, "v1beta1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Objects(r.out).size(), 6u);
}

TEST(ConvertCliTest, MalformedInputExitsOneWithAFieldPath) {
  const TempFile bad(
      "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w}\nspec:\n  "
      "podGroups: {name: g}\n",
      "bad.yaml");
  const test::CommandResult r = Convert({bad.path()}, "v1beta1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: " + bad.path() +
                       ": document 1: Workload default/w: spec.podGroups: Invalid value: "
                       "expected list, got object\n");
  const test::CommandResult missing = Convert({kConvertData + "/nope.yaml"}, "v1beta1");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("nope.yaml: Not found"));
}

TEST(ConvertCliTest, UsageErrorsExitTwo) {
  const std::string file = kWebsite + "main-v1beta1_workload-with-priority-disruption.yaml";
  EXPECT_EQ(Convert({file}, "scheduling.k8s.io/v1").exit_code, 2);
  EXPECT_EQ(Convert({file}, "v1beta1", "table").exit_code, 2);
  EXPECT_EQ(test::RunCommand({WASCHED_BINARY, "convert", "-f", file}).exit_code, 2);
  const test::CommandResult help = test::RunCommand({WASCHED_BINARY, "convert", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--to"));
  const test::CommandResult top = test::RunCommand({WASCHED_BINARY, "--help"});
  EXPECT_THAT(top.out, HasSubstr("convert"));
}

// An input without objects is not a conversion: exit 1 and no output, as validate and schedule
// (new-user trial: `convert` of an empty file exited 0 with nothing on stdout).
TEST(ConvertCommandTest, EmptyInputIsAnError) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("wasched-convert-empty-" + std::to_string(::getpid()) + ".yaml"))
                               .string();
  std::ofstream(file) << "";
  const test::CommandResult r = test::RunCommand(
      {WASCHED_BINARY, "convert", "-f", file, "--to", "scheduling.k8s.io/v1beta1"});
  std::filesystem::remove(file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("error: no object in the input to convert"));
}

}  // namespace
}  // namespace wasched
