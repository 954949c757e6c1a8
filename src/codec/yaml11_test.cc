// File: codec/yaml11_test.cc
//
// YAML 1.1 plain scalars against what sigs.k8s.io/yaml v1.6.0 (go-yaml v2 v2.4.4) makes of them:
// every expected value below is the JSON `yaml.YAMLToJSON([]byte("v: <text>"))` and
// `yaml.YAMLToJSON([]byte("<text>: 1"))` printed (Go 1.26, 2026-12-03).
#include "codec/yaml11.h"

#include <gtest/gtest.h>

#include "codec/yaml_documents.h"

namespace wasched::codec::internal {
namespace {

struct Case {
  const char* in;
  ValueKind kind;
  const char* json;  // the JSON value text (strings unquoted)
  const char* key;   // the JSON key
};

TEST(Yaml11Test, PlainScalarsResolveAsSigsK8sYaml) {
  const Case cases[] = {
      {"y", ValueKind::kBool, "true", "true"},        {"Y", ValueKind::kBool, "true", "true"},
      {"yes", ValueKind::kBool, "true", "true"},      {"Yes", ValueKind::kBool, "true", "true"},
      {"YES", ValueKind::kBool, "true", "true"},      {"yEs", ValueKind::kString, "yEs", "yEs"},
      {"n", ValueKind::kBool, "false", "false"},      {"N", ValueKind::kBool, "false", "false"},
      {"no", ValueKind::kBool, "false", "false"},     {"No", ValueKind::kBool, "false", "false"},
      {"NO", ValueKind::kBool, "false", "false"},     {"on", ValueKind::kBool, "true", "true"},
      {"On", ValueKind::kBool, "true", "true"},       {"ON", ValueKind::kBool, "true", "true"},
      {"off", ValueKind::kBool, "false", "false"},    {"Off", ValueKind::kBool, "false", "false"},
      {"OFF", ValueKind::kBool, "false", "false"},    {"True", ValueKind::kBool, "true", "true"},
      {"FALSE", ValueKind::kBool, "false", "false"},  {"tRue", ValueKind::kString, "tRue", "tRue"},
      {"0x10", ValueKind::kInteger, "16", "16"},      {"0X10", ValueKind::kInteger, "16", "16"},
      {"0b101", ValueKind::kInteger, "5", "5"},       {"-0b101", ValueKind::kInteger, "-5", "-5"},
      {"0o17", ValueKind::kInteger, "15", "15"},      {"010", ValueKind::kInteger, "8", "8"},
      {"08", ValueKind::kFloat, "8", "8"},            {"09", ValueKind::kFloat, "9", "9"},
      {"0", ValueKind::kInteger, "0", "0"},           {"00", ValueKind::kInteger, "0", "0"},
      {"-0", ValueKind::kInteger, "0", "0"},          {"+5", ValueKind::kInteger, "5", "5"},
      {"1_000", ValueKind::kInteger, "1000", "1000"}, {"1_", ValueKind::kInteger, "1", "1"},
      {"_1", ValueKind::kString, "_1", "_1"},         {"1__0", ValueKind::kInteger, "10", "10"},
      {"0x_10", ValueKind::kInteger, "16", "16"},     {"1.5", ValueKind::kFloat, "1.5", "1.5"},
      {"1.0", ValueKind::kFloat, "1", "1"},           {"1e3", ValueKind::kFloat, "1000", "1000"},
      {"1E3", ValueKind::kFloat, "1000", "1000"},     {"1.5e3", ValueKind::kFloat, "1500", "1500"},
      {".5", ValueKind::kFloat, "0.5", "0.5"},        {".5e3", ValueKind::kFloat, "500", "500"},
      {".5_0", ValueKind::kFloat, "0.5", "0.5"},      {"._5", ValueKind::kString, "._5", "._5"},
      {"+.5", ValueKind::kFloat, "0.5", "0.5"},       {"1.", ValueKind::kFloat, "1", "1"},
      {"1e400", ValueKind::kString, "1e400", "1e400"},
      {"1e21", ValueKind::kFloat, "1e+21", "1e+21"},
      {"1e20", ValueKind::kFloat, "100000000000000000000", "1e+20"},
      {"1e-7", ValueKind::kFloat, "1e-7", "1e-07"},
      {"0.000001", ValueKind::kFloat, "0.000001", "1e-06"},
      {"1e-400", ValueKind::kFloat, "0", "0"},        {"-0.0", ValueKind::kFloat, "-0", "-0"},
      {"123456789012345678901234", ValueKind::kFloat, "1.2345678901234569e+23", "1.2345679e+23"},
      {"9223372036854775807", ValueKind::kInteger, "9223372036854775807", "9223372036854775807"},
      {"18446744073709551615", ValueKind::kInteger, "18446744073709551615",
       "18446744073709551615"},
      {"18446744073709551616", ValueKind::kFloat, "18446744073709552000", "1.8446744e+19"},
      {"-9223372036854775809", ValueKind::kFloat, "-9223372036854776000", "-9.223372e+18"},
      {"-0x8000000000000000", ValueKind::kInteger, "-9223372036854775808",
       "-9223372036854775808"},
      {"+9223372036854775808", ValueKind::kFloat, "9223372036854776000", "9.223372e+18"},
      {"0.1e1_0", ValueKind::kFloat, "1000000000", "1e+09"},
      {"1_000.5", ValueKind::kFloat, "1000.5", "1000.5"},
      {"3.14159265358979", ValueKind::kFloat, "3.14159265358979", "3.1415927"},
      {"1.5E-3", ValueKind::kFloat, "0.0015", "0.0015"},
      {".inf", ValueKind::kFloat, ".inf", ".inf"},    {"+.inf", ValueKind::kFloat, "+.inf", ".inf"},
      {"-.Inf", ValueKind::kFloat, "-.Inf", "-.inf"}, {".NaN", ValueKind::kFloat, ".NaN", ".nan"},
      {"1:30", ValueKind::kString, "1:30", "1:30"},   {"2024-01-01", ValueKind::kString, "2024-01-01", "2024-01-01"},
      {"+", ValueKind::kString, "+", "+"},            {"0x", ValueKind::kString, "0x", "0x"},
      {"0b", ValueKind::kString, "0b", "0b"},         {"0b2", ValueKind::kString, "0b2", "0b2"},
      {"0o8", ValueKind::kString, "0o8", "0o8"},      {"0x1p3", ValueKind::kString, "0x1p3", "0x1p3"},
      {"1e", ValueKind::kString, "1e", "1e"},         {"NaN", ValueKind::kString, "NaN", "NaN"},
  };
  for (const Case& c : cases) {
    const Yaml11Scalar v = ResolveYaml11Plain(c.in);
    EXPECT_EQ(v.kind, c.kind) << c.in;
    EXPECT_EQ(v.text, c.json) << c.in;
    EXPECT_EQ(Yaml11KeyText(c.in), c.key) << c.in;
  }
  for (const char* null_text : {"", "~", "null", "Null", "NULL"}) {
    EXPECT_EQ(ResolveYaml11Plain(null_text).kind, ValueKind::kNull) << null_text;
  }
}

// The parsed tape holds the resolved texts, quoted scalars stay as written, and a type error
// names the text as written.
TEST(Yaml11Test, TapeHoldsResolvedPlainScalarsAndKeys) {
  int docs = 0;
  ForEachDocument("a: yes\nb: 'yes'\nc: 0x10\non: 1\nd: 1e400\n", [&](ParsedDocument& d) {
    ++docs;
    ASSERT_TRUE(d.error.empty()) << d.error;
    std::vector<std::pair<std::string, std::string>> seen;
    std::vector<ValueKind> kinds;
    for (const MapEntry e : d.tape.Entries(d.tape.root())) {
      seen.emplace_back(d.tape.scalar(e.key), d.tape.scalar(e.value));
      kinds.push_back(Classify(d.tape, e.value));
    }
    ASSERT_EQ(seen.size(), 5u);
    EXPECT_EQ(seen[0], (std::pair<std::string, std::string>{"a", "true"}));
    EXPECT_EQ(kinds[0], ValueKind::kBool);
    EXPECT_EQ(seen[1], (std::pair<std::string, std::string>{"b", "yes"}));
    EXPECT_EQ(kinds[1], ValueKind::kString);
    EXPECT_EQ(seen[2], (std::pair<std::string, std::string>{"c", "16"}));
    EXPECT_EQ(kinds[2], ValueKind::kInteger);
    EXPECT_EQ(seen[3].first, "true");
    EXPECT_EQ(seen[4], (std::pair<std::string, std::string>{"d", "1e400"}));
    EXPECT_EQ(kinds[4], ValueKind::kString);
    const NodeId a = (*d.tape.Entries(d.tape.root()).begin()).value;
    EXPECT_EQ(d.tape.written_scalar(a), "yes");

    Diagnostics diag(1000);
    Reader root(d.tape, d.tape.root(), "", &diag);
    root.ForEachField([&](std::string_view key, const Reader& f) {
      if (key == "a") {
        std::string s;
        f.Read(&s);
      }
      return true;
    });
    ASSERT_EQ(diag.errors().size(), 1u);
    EXPECT_EQ(diag.errors()[0].field, "a");
    EXPECT_EQ(diag.errors()[0].detail, "expected string, got boolean yes");
  });
  EXPECT_EQ(docs, 1);
}

}  // namespace
}  // namespace wasched::codec::internal
