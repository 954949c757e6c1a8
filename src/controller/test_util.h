// File: controller/test_util.h
//
// Test helpers of the controller tests: reading the real manifests of tests/data/manifests.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "api/object_set.h"
#include "codec/loader.h"

namespace wasched::controller::testing {

// LoadManifest: the objects of tests/data/manifests/<path> (the test fails on a load error).
// Other schedulers' objects in these real manifests (a coscheduling PodGroup next to its
// ReplicaSet) are skipped, as `--skip-unknown-kinds` does.
inline api::ObjectSet LoadManifest(const std::string& path) {
  std::ifstream in(std::string(WASCHED_TESTDATA_DIR) + "/data/manifests/" + path);
  std::stringstream text;
  text << in.rdbuf();
  auto loaded = codec::LoadString(text.str(), path, codec::LoadOptions{.skip_unknown_kinds = true});
  EXPECT_TRUE(loaded) << path;
  if (!loaded) return {};
  return std::move(loaded->objects);
}

// LoadText: the objects of an inline manifest.
inline api::ObjectSet LoadText(const std::string& text) {
  auto loaded = codec::LoadString(text, "inline.yaml");
  EXPECT_TRUE(loaded);
  if (!loaded) return {};
  return std::move(loaded->objects);
}

}  // namespace wasched::controller::testing
