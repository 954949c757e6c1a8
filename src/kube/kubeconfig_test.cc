// File: kube/kubeconfig_test.cc
#include "kube/kubeconfig.h"

#include <gtest/gtest.h>

#include <map>

#include "kube/base64.h"

namespace wasched::kube {
namespace {

// FakeFs: files and environment in memory.
struct FakeFs {
  std::map<std::string, std::string> files;
  std::map<std::string, std::string> env;
  FileSystem Get() {
    FileSystem fs;
    fs.read = [this](const std::string& p, std::string* error) -> std::optional<std::string> {
      auto it = files.find(p);
      if (it == files.end()) {
        *error = "No such file or directory";
        return std::nullopt;
      }
      return it->second;
    };
    fs.exists = [this](const std::string& p) { return files.count(p) > 0; };
    fs.getenv = [this](const std::string& n) -> std::optional<std::string> {
      auto it = env.find(n);
      if (it == env.end()) return std::nullopt;
      return it->second;
    };
    return fs;
  }
};

constexpr const char* kConfig = R"(apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443/
    certificate-authority-data: Q0EtUEVN
- name: lab
  cluster:
    server: https://lab:6443
    certificate-authority: certs/ca.crt
- name: loose
  cluster:
    server: https://loose:6443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
- name: robot
  user:
    tokenFile: token.txt
- name: plugin
  user:
    exec: {command: aws}
contexts:
- name: prod
  context: {cluster: prod, user: admin}
- name: lab
  context: {cluster: lab, user: robot}
- name: loose
  context: {cluster: loose, user: admin}
- name: broken
  context: {cluster: nowhere, user: admin}
- name: plugin
  context: {cluster: prod, user: plugin}
current-context: prod
)";

TEST(Base64, DecodesStandardAlphabetWithPadding) {
  EXPECT_EQ(DecodeBase64("Q0VSVA=="), "CERT");
  EXPECT_EQ(DecodeBase64("S0VZ"), "KEY");
  EXPECT_EQ(DecodeBase64("Q0Et\nUEVN"), "CA-PEM");
  EXPECT_EQ(DecodeBase64(""), "");
  EXPECT_FALSE(DecodeBase64("Q0V").has_value());
  EXPECT_FALSE(DecodeBase64("Q=VT").has_value());
  EXPECT_FALSE(DecodeBase64("Q0V*").has_value());
}

TEST(Kubeconfig, CurrentContextWithEmbeddedCertificates) {
  FakeFs fs;
  fs.files["/home/u/.kube/config"] = kConfig;
  auto c = ResolveConfig({"/home/u/.kube/config", "", false}, fs.Get());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->server, "https://10.0.0.1:6443");
  EXPECT_EQ(c->ca_pem, "CA-PEM");
  EXPECT_EQ(c->client_cert_pem, "CERT");
  EXPECT_EQ(c->client_key_pem, "KEY");
  EXPECT_FALSE(c->insecure_skip_tls_verify);
}

TEST(Kubeconfig, ContextFlagAndFilesRelativeToTheKubeconfig) {
  FakeFs fs;
  fs.files["/k/config"] = kConfig;
  fs.files["/k/certs/ca.crt"] = "LAB-CA";
  fs.files["/k/token.txt"] = "s3cret\n";
  auto c = ResolveConfig({"/k/config", "lab", false}, fs.Get());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->server, "https://lab:6443");
  EXPECT_EQ(c->ca_pem, "LAB-CA");
  EXPECT_EQ(c->bearer_token, "s3cret");
}

TEST(Kubeconfig, InsecureSkipTlsVerifyIsRefusedUnlessAllowed) {
  FakeFs fs;
  fs.files["/k/config"] = kConfig;
  auto refused = ResolveConfig({"/k/config", "loose", false}, fs.Get());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, KubeErrorKind::kConfig);
  EXPECT_NE(refused.error().message.find("insecure-skip-tls-verify: refused"), std::string::npos)
      << refused.error().message;
  auto allowed = ResolveConfig({"/k/config", "loose", true}, fs.Get());
  ASSERT_TRUE(allowed) << allowed.error().message;
  EXPECT_TRUE(allowed->insecure_skip_tls_verify);
}

TEST(Kubeconfig, ClearErrors) {
  FakeFs fs;
  fs.files["/k/config"] = kConfig;
  fs.files["/k/bad"] = "clusters: [\n";
  auto missing = ResolveConfig({"/k/none", "", false}, fs.Get());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "kubeconfig /k/none: cannot read: No such file or directory");
  auto context = ResolveConfig({"/k/config", "nope", false}, fs.Get());
  ASSERT_FALSE(context);
  EXPECT_EQ(context.error().message, "kubeconfig /k/config: context \"nope\" not found");
  auto cluster = ResolveConfig({"/k/config", "broken", false}, fs.Get());
  ASSERT_FALSE(cluster);
  EXPECT_EQ(cluster.error().message,
            "kubeconfig /k/config: contexts[\"broken\"].context.cluster: cluster \"nowhere\" not "
            "found");
  auto plugin = ResolveConfig({"/k/config", "plugin", false}, fs.Get());
  ASSERT_FALSE(plugin);
  EXPECT_NE(plugin.error().message.find("users[\"plugin\"].user.exec: not supported"),
            std::string::npos);
  auto yaml = ResolveConfig({"/k/bad", "", false}, fs.Get());
  ASSERT_FALSE(yaml);
  EXPECT_NE(yaml.error().message.find("kubeconfig /k/bad: not valid YAML"), std::string::npos)
      << yaml.error().message;
}

TEST(Kubeconfig, KubeconfigListFirstDefinitionWinsAndMissingFilesAreSkipped) {
  FakeFs fs;
  fs.files["/a"] = R"(clusters:
- name: c
  cluster: {server: "https://first:1"}
contexts:
- name: x
  context: {cluster: c}
)";
  fs.files["/b"] = R"(clusters:
- name: c
  cluster: {server: "https://second:1"}
- name: d
  cluster: {server: "https://d:1"}
contexts:
- name: y
  context: {cluster: d}
current-context: x
)";
  fs.env["KUBECONFIG"] = "/a:/missing:/b";
  auto c = ResolveConfig({}, fs.Get());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->server, "https://first:1");  // c from /a, current-context from /b
  auto y = ResolveConfig({"", "y", false}, fs.Get());
  ASSERT_TRUE(y) << y.error().message;
  EXPECT_EQ(y->server, "https://d:1");
}

TEST(Kubeconfig, InClusterServiceAccount) {
  FakeFs fs;
  fs.env["KUBERNETES_SERVICE_HOST"] = "fd00::1";
  fs.env["KUBERNETES_SERVICE_PORT"] = "443";
  fs.files["/var/run/secrets/kubernetes.io/serviceaccount/token"] = "tok\n";
  fs.files["/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"] = "SA-CA";
  auto c = ResolveConfig({}, fs.Get());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->server, "https://[fd00::1]:443");
  EXPECT_EQ(c->bearer_token, "tok");
  EXPECT_EQ(c->ca_pem, "SA-CA");
  fs.files.erase("/var/run/secrets/kubernetes.io/serviceaccount/token");
  auto missing = ResolveConfig({}, fs.Get());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("serviceaccount/token"), std::string::npos);
}

}  // namespace
}  // namespace wasched::kube
