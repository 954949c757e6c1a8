// File: perf/harness_test.cc
//
// Every shape at tiny scale: it builds, and one Schedule run binds what a correct run binds.
#include "perf/harness.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "perf/shapes.h"

namespace wasched::perf {
namespace {

TEST(ShapesTest, NamesAreUniqueAndFindable) {
  for (const Shape& s : Shapes()) {
    EXPECT_EQ(FindShape(s.name), &s) << s.name;
    EXPECT_FALSE(s.unit.empty()) << s.name;
  }
  EXPECT_EQ(FindShape("NoSuchShape"), nullptr);
}

// The targets are issue 16's limits (design.md: within 5× of the lean prototypes), in each
// shape's unit; a shape printing an older, looser target would hide a regression.
TEST(ShapesTest, TargetsAreIssue16Limits) {
  const std::vector<std::pair<std::string, double>> want = {
      {"SchedulingBasic/5000Nodes_10000Pods", 1.25e6},  // ≤ 0.8 µs a pod, as pods/s
      {"GangScheduling/5000Nodes_1000Gangs_3000Pods", 3.0},
      {"GangScheduling/5000Nodes_10Gangs_50000Pods_5000PerGroup", 1.5},
      {"TopologyAware/5000Nodes_2250Gangs_9000Pods", 3.0},
      {"CompositePodGroup/5000Nodes_1500CPGs_2Groups_4Pods", 6.0},
      {"Preemption/5000Nodes_20000Running", 25.0},
      {"Memory/5000Nodes_150000Pods", 25.0},
  };
  for (const auto& [name, target] : want) {
    const Shape* s = FindShape(name);
    ASSERT_NE(s, nullptr) << name;
    ASSERT_TRUE(s->target.has_value()) << name;
    EXPECT_DOUBLE_EQ(*s->target, target) << name;
  }
}

TEST(ShapesTest, TasNodesCarryZoneAndRack) {
  const api::Node n = TasNode(1234, kNodesPerRack);
  EXPECT_EQ(n.meta.labels.at(kZoneKey), "zone-12");
  EXPECT_EQ(n.meta.labels.at(kRackKey), "rack-123");
}

TEST(ShapesTest, CompositeShapeBuildsTheTree) {
  const ShapeInput in = CompositeShape(200, 3, 2, 4);
  EXPECT_EQ(in.objects.composite_pod_groups.size(), 3u);
  EXPECT_EQ(in.objects.pod_groups.size(), 6u);
  EXPECT_EQ(in.objects.pods.size(), 24u);
  EXPECT_EQ(in.objects.pod_groups[1].parent_composite_pod_group_name, "cpg-0");
  EXPECT_EQ(in.units, 3);
}

class TinyShapeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TinyShapeTest, BindsWhatACorrectRunBinds) {
  const Shape* shape = FindShape(GetParam());
  ASSERT_NE(shape, nullptr);
  RunOptions options;
  options.scale = Scale::kTiny;
  options.timing = false;
  auto m = RunShape(*shape, options);
  ASSERT_TRUE(m.has_value()) << m.error();
  EXPECT_EQ(m->bound, m->expected_bound) << shape->name;
  EXPECT_EQ(m->unit, shape->unit);
}

std::vector<std::string> AllShapeNames() {
  std::vector<std::string> names;
  for (const Shape& s : Shapes()) names.push_back(s.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllShapes, TinyShapeTest, ::testing::ValuesIn(AllShapeNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n;
                           for (char c : info.param) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(HarnessTest, TimedRunReportsRatiosAndTarget) {
  RunOptions options;
  options.scale = Scale::kTiny;
  options.repetitions = 1;
  auto m = RunShape(*FindShape("GangScheduling/5000Nodes_1000Gangs_3000Pods"), options);
  ASSERT_TRUE(m.has_value());
  EXPECT_GT(m->value, 0);
  ASSERT_TRUE(m->scan_bound_ratio.has_value());
  EXPECT_GT(*m->scan_bound_ratio, 0);
  ASSERT_TRUE(m->naive_ratio.has_value());
  ASSERT_TRUE(m->meets_target.has_value());
  EXPECT_EQ(*m->target, 3.0);  // issue 16: ≤ 3 µs a 3-pod gang
}

TEST(HarnessTest, SimulationShapeTimesAWholeRunWithoutRatios) {
  // Tiny scale replays tests/data/traces/philly/philly-200.csv (found via the source tree).
  RunOptions options;
  options.scale = Scale::kTiny;
  options.repetitions = 1;
  const Shape* shape = FindShape("Simulate/PhillyGangTopology");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->measure, Measure::kRunSeconds);
  auto m = RunShape(*shape, options);
  ASSERT_TRUE(m.has_value()) << m.error();
  EXPECT_GT(m->value, 0);
  EXPECT_EQ(m->value, m->seconds);
  EXPECT_EQ(m->bound, 200);  // completed jobs
  EXPECT_EQ(m->expected_bound, 200);
  ASSERT_TRUE(m->meets_target.has_value());
  EXPECT_TRUE(*m->meets_target);
  EXPECT_FALSE(m->scan_bound_ratio.has_value());
  EXPECT_FALSE(m->naive_ratio.has_value());
}

TEST(HarnessTest, MemoryShapeReportsPerPodAndPerNodeBytes) {
  RunOptions options;
  options.scale = Scale::kTiny;
  auto m = RunShape(*FindShape("Memory/5000Nodes_150000Pods"), options);
  ASSERT_TRUE(m.has_value()) << m.error();
  ASSERT_TRUE(m->bytes_per_pod.has_value());
  ASSERT_TRUE(m->bytes_per_node.has_value());
  EXPECT_GE(m->value, 0);
}

}  // namespace
}  // namespace wasched::perf
