// File: codec/yaml_fast_parser_test.cc
//
// The fast parser's contract, checked differentially: whenever ParseFastYaml returns documents,
// yaml-cpp (ParseWithYamlCpp) must parse the same text without error into an equal YamlDom.
// Inputs: a table of YAML forms, the real manifests in tests/data, and thousands of
// deterministic random mutations of manifests.
#include "codec/yaml_fast_parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <yaml-cpp/exceptions.h>

namespace wasched::codec::internal {
namespace {

const std::string kTestData = WASCHED_TESTDATA_DIR;

enum class Expect { kHandled, kEither, kFallback };

// CheckAgainstYamlCpp: the differential check; returns whether the fast parser handled it.
bool CheckAgainstYamlCpp(const std::string& text, Expect expect = Expect::kEither) {
  std::optional<std::vector<YamlDom>> fast = ParseFastYaml(text);
  if (expect == Expect::kHandled) {
    EXPECT_TRUE(fast.has_value()) << "fast parser declined:\n" << text;
  } else if (expect == Expect::kFallback) {
    EXPECT_FALSE(fast.has_value()) << "fast parser should leave this to yaml-cpp:\n" << text;
  }
  if (!fast) return false;
  std::vector<YamlDom> slow;
  try {
    slow = ParseWithYamlCpp(text);
  } catch (const YAML::Exception& e) {
    ADD_FAILURE() << "fast parser accepted what yaml-cpp rejects (" << e.what() << "):\n"
                  << text;
    return true;
  }
  EXPECT_EQ(fast->size(), slow.size()) << text;
  for (size_t i = 0; i < std::min(fast->size(), slow.size()); ++i) {
    EXPECT_TRUE(YamlDom::Equal((*fast)[i], slow[i]))
        << "fast: " << (*fast)[i].DebugString() << "\nyaml-cpp: " << slow[i].DebugString()
        << "\ninput:\n"
        << text;
  }
  return true;
}

TEST(CodecFastYamlTest, HandledForms) {
  const char* cases[] = {
      "",
      "# only a comment\n\n",
      "---\n",
      "--- # comment\n",
      "a: 1\n",
      "a: 1",
      "a: 1\r\nb: two\r\n",
      "a:\n  b:\n    c: d\n  e: f\ng: h\n",
      "a:\n- 1\n- 2\nb: 3\n",
      "a:\n  - 1\n  -   2\n",
      "- a\n- b: 1\n  c: 2\n-\n",
      "- name: x\n  items:\n  - a\n  - b\n- name: y\n",
      "-\n  a: 1\n-\n- 3\n",
      "a: 'single ''quoted'''\nb: \"double \\\"q\\\" \\n \\t \\\\ \\/ \\u00e9 \\u20ac\"\n",
      "a: \"\"\nb: ''\nc:\nd: ~\ne: null\n",
      "\"quoted key\": 1\n'other key': 2\nplain key with spaces: 3\n",
      "url: http://example.com:8080/x?y=z#frag\nhash: a#b\nratio: 1:2\n",
      "a: value # comment\nb: 'v' # c\nc: [1, 2] # c\n",
      "a: {b: 1, c: [x, y], d: {}}\ne: []\n",
      "{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"spec\": {\"containers\": [\n  {\"name\": \"c\"}]}}\n",
      "{\n\t\"a\": 1,\n\t\"b\": [true, false, null, 1.5, -2, \"s\"]\n}\n",
      "[1, 2,\n 3]\n",
      "a: |\n  line 1\n  line 2\n\n  line 4\nb: 1\n",
      "a: |-\n  x\n  y\n\n\nb: 2\n",
      "a: >\n  folded\n  text\n\n  para\nb: 3\n",
      "a: >-\n  folded\n  text\n",
      "a: |\n    indented more\n    still\n",
      "a: |\n\n  leading empty\n",
      "a: | # comment\n  x\n",
      "- |\n  in seq\n- >\n  folded in seq\n",
      "a: |\nb: 1\n",
      "a:\n  b: |\n    deep\n  c: 2\n",
      "a: |\n  text\n# trailing comment\nb: 1\n",
      "  indented: doc\n  more: keys\n",
      "a: -1\nb: -x\nc: --flag\n",
      "a: 1.5e3\nb: .5\nc: 0x1F\nd: +7\n",
      "key: [a, 'b c', \"d\", {e: f}]\n",
      "a:    spaced\nb:  \n  c: 1\n",
      "a: x y z   \n",
      "k: v\n\n\n\n# c\n  # indented comment\nk2: v2\n",
      "a: [b]\n",
      "a: 1\r\nb:\r\n  - x\r\n  - |\r\n    lit\r\n    more\r\nc: {d: e}\r\n",
      "a: |\n  no final break",
      "a: {x: [1,\n    2, 3],\n    y: z}  # comment\nb: 1\n",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: x}\nspec:\n"
      "  containers:\n  - name: c\n    image: i\n    resources:\n      requests: {cpu: 500m}\n",
  };
  for (const char* text : cases) CheckAgainstYamlCpp(text, Expect::kHandled);
}

TEST(CodecFastYamlTest, LeftToYamlCpp) {
  const char* cases[] = {
      "a: &x 1\nb: *x\n",
      "a: !!str 5\n",
      "%YAML 1.2\n---\na: 1\n",
      "a: 1\n...\n",
      "? complex\n: key\n",
      "a: multi\n  line plain\n",
      "a: \"multi\n  line\"\n",
      "a: |+\n  keep\n\n",
      "a: |2\n   explicit\n",
      "a: >\n  folded\n    more indented\n",
      "a:\tb\n",
      "\ta: 1\n",
      "a: b: c\n",
      "a: [1, 2,]\n",
      "a: {b}\n",
      "a: [b: c]\n",
      "- - nested\n",
      "just a scalar\n",
      "a: 1\n b: 2\n",
      "a: \"\\ud83d\\ude00\"\n",
      "a: \"\\x41\"\n",
      "a: 1\n---\nb: 2\n",
      "a: {b: 1\n",
      "a: >\n  b\n    ",
      "a: |\n  x\r",
  };
  for (const char* text : cases) CheckAgainstYamlCpp(text, Expect::kFallback);
}

TEST(CodecFastYamlTest, DeepNestingIsDeclinedNotCrashing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(ParseFastYaml(deep).has_value());
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Pieces: a stream cut at `---` lines, as yaml_documents.cc does (tests only need the plain case).
std::vector<std::string> Pieces(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  std::string current;
  while (std::getline(in, line)) {
    if (line.rfind("---", 0) == 0 && !current.empty()) {
      out.push_back(current);
      current.clear();
    }
    current += line + "\n";
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

TEST(CodecFastYamlTest, RealManifestsAreHandledIdentically) {
  int handled = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kTestData + "/data")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".yaml" && ext != ".yml" && ext != ".json") continue;
    const std::string text = ReadFile(entry.path());
    const std::vector<std::string> pieces = Pieces(text);
    // The openb file has 1213 documents: check a sample of them.
    for (size_t i = 0; i < pieces.size(); i += pieces.size() > 50 ? 97 : 1) {
      if (CheckAgainstYamlCpp(pieces[i])) ++handled;
    }
  }
  EXPECT_GT(handled, 10);
}

TEST(CodecFastYamlTest, MutatedManifestsAgreeWithYamlCpp) {
  const std::vector<std::string> seeds = {
      R"(apiVersion: v1
kind: Pod
metadata:
  name: trainer-0
  namespace: ml
  labels: {app: trainer, "quoted": 'x'}
spec:
  containers:
  - name: main
    image: "trainer:v1"
    command: [python, train.py, --lr, "0.1"]
    resources:
      requests: {cpu: "1", nvidia.com/gpu: 8}
      limits:
        memory: 64Gi
  tolerations:
  - key: gpu
    operator: Exists
  # a comment
  nodeSelector:
    zone: a   # trailing
  description: |
    line one
    line two
  folded: >-
    a
    b
)",
      R"({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
 "metadata": {"name": "g", "namespace": "ns"},
 "spec": {"schedulingPolicy": {"gang": {"minCount": 4}},
          "resourceClaims": [{"name": "c", "resourceClaimName": "x\u00e9"}]}}
)",
      R"(- a: 1
  b:
  - x
  - y: [1, {z: 2}]
-
  c: 'q'
- - 
)",
  };
  const std::string alphabet = " \n-:#'\"{}[],|>&*!%?\tab1.\\";
  std::mt19937 rng(424242);
  int handled = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string text = seeds[round % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % text.size();
      switch (rng() % 4) {
        case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(pos, 1 + rng() % 4); break;
        case 2: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        default: text.insert(pos, "  "); break;
      }
    }
    if (CheckAgainstYamlCpp(text)) ++handled;
    if (HasFailure()) break;  // one reported input is enough
  }
  // The mutations must exercise the fast parser, not only the fallback.
  EXPECT_GT(handled, 1000);
}

}  // namespace
}  // namespace wasched::codec::internal
