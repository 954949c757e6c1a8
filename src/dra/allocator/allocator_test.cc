// Tests of the structured allocator: ExactCount / All / firstAvailable, class and request
// selectors, one allocation per device, backtracking across requests, network devices
// (nodeSelector / allNodes), pool generations, and the incremental free counts.
#include "dra/allocator/allocator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::dra {
namespace {

api::ResourceSlice Slice(std::string node, std::string driver, std::vector<std::string> models,
                         int64_t generation = 1) {
  api::ResourceSlice s;
  s.meta.name = node + "-" + driver;
  s.driver = driver;
  s.pool.name = node.empty() ? "net" : node;
  s.pool.generation = generation;
  s.pool.resource_slice_count = 1;
  s.node_name = node;
  for (size_t i = 0; i < models.size(); ++i) {
    api::Device d;
    d.name = "gpu-" + std::to_string(i);
    api::DeviceAttribute model;
    model.kind = api::DeviceAttribute::Kind::kString;
    model.string_value = models[i];
    d.attributes.emplace_back("model", model);
    s.devices.push_back(d);
  }
  return s;
}

api::DeviceClass Class(std::string name, std::string expr) {
  api::DeviceClass c;
  c.meta.name = std::move(name);
  c.selectors.push_back({std::move(expr)});
  return c;
}

api::ExactDeviceRequest Exact(std::string cls, int64_t count = 1, std::string selector = "",
                              std::string name = "") {
  api::ExactDeviceRequest r;
  r.name = std::move(name);
  r.device_class_name = std::move(cls);
  r.count = count;
  if (!selector.empty()) r.selectors.push_back({std::move(selector)});
  return r;
}

api::ResourceClaimSpec OneRequest(api::ExactDeviceRequest r, std::string name = "gpu") {
  api::ResourceClaimSpec spec;
  api::DeviceRequest& req = spec.requests.emplace_back();
  req.name = std::move(name);
  req.exactly = std::move(r);
  return spec;
}

struct Fixture {
  std::vector<api::ResourceSlice> slices;
  std::vector<api::DeviceClass> classes{Class("gpu", "device.driver == 'gpu.example.com'")};
  std::vector<std::string> nodes{"n0", "n1"};
  std::unique_ptr<Allocator> Make() {
    return std::make_unique<Allocator>(
        Inventory::Build(slices, nodes,
                         [](size_t node, const std::vector<api::NodeSelectorTerm>&) {
                           return node == 1;  // "selector" slices reach n1 only
                         }),
        classes);
  }
};

std::vector<std::string> Devices(const Allocator& a, const Allocation& alloc) {
  std::vector<std::string> out;
  for (const AllocatedDevice& d : alloc.devices) {
    out.push_back(d.request + "=" + DeviceText(a.inventory(), d.device));
  }
  return out;
}

TEST(Allocator, ExactCountTakesFreeDevicesOnceAcrossTheCluster) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"A", "A"}), Slice("n1", "gpu.example.com", {"A"})};
  auto a = f.Make();
  const int32_t one = a->CompileSpec(OneRequest(Exact("gpu")));
  const int32_t two = a->CompileSpec(OneRequest(Exact("gpu", 2)));
  EXPECT_EQ(a->CompileSpec(OneRequest(Exact("gpu"))), one);  // identical specs share an id
  EXPECT_TRUE(a->CanAllocate({&two, 1}, 0));
  EXPECT_FALSE(a->CanAllocate({&two, 1}, 1));
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&one, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu=gpu.example.com/n0/gpu-0"));
  a->Commit(out[0]);
  EXPECT_FALSE(a->CanAllocate({&two, 1}, 0));  // one GPU left on n0
  ASSERT_TRUE(a->Allocate({&one, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu=gpu.example.com/n0/gpu-1"));
  a->Commit(out[0]);
  EXPECT_FALSE(a->CanAllocate({&one, 1}, 0));
  EXPECT_TRUE(a->CanAllocate({&one, 1}, 1));
  EXPECT_TRUE(a->VerifyCounts());
}

TEST(Allocator, RevertToReleasesAFailedCycle) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"A", "A"})};
  auto a = f.Make();
  const int32_t one = a->CompileSpec(OneRequest(Exact("gpu")));
  const size_t mark = a->Mark();
  std::vector<Allocation> out;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(a->Allocate({&one, 1}, 0, &out));
    a->Commit(out[0]);
  }
  EXPECT_FALSE(a->CanAllocate({&one, 1}, 0));
  a->RevertTo(mark);
  EXPECT_TRUE(a->CanAllocate({&one, 1}, 0));
  EXPECT_TRUE(a->VerifyCounts());
}

TEST(Allocator, FirstAvailableTriesAlternativesInOrder) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"OLD", "NEW"})};
  auto a = f.Make();
  api::ResourceClaimSpec spec;
  api::DeviceRequest& r = spec.requests.emplace_back();
  r.name = "gpu";
  r.first_available = {
      Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'BLEEDING'", "bleeding"),
      Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'NEW'", "new"),
      Exact("gpu", 1, "", "any")};
  const int32_t id = a->CompileSpec(spec);
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu/new=gpu.example.com/n0/gpu-1"));
  a->Commit(out[0]);
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));  // "new" is taken: falls back to "any"
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu/any=gpu.example.com/n0/gpu-0"));
}

// Issue 20 A.3 (kubernetes/kubernetes#138765): the complete placement search asks one gang
// member to try its later firstAvailable subrequests first; every alternative is still tried,
// the first one last, and CanAllocate does not depend on it.
TEST(Allocator, LaterAlternativesFirstRotatesTheSubrequests) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"BIG", "SMALL"})};
  auto a = f.Make();
  api::ResourceClaimSpec spec;
  api::DeviceRequest& r = spec.requests.emplace_back();
  r.name = "gpu";
  r.first_available = {
      Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'BIG'", "big"),
      Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'SMALL'", "small")};
  const int32_t id = a->CompileSpec(spec);
  const int32_t plain = a->CompileSpec(OneRequest(Exact("gpu")));
  EXPECT_TRUE(a->HasAlternatives(id));
  EXPECT_FALSE(a->HasAlternatives(plain));
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu/big=gpu.example.com/n0/gpu-0"));
  a->set_later_alternatives_first(true);
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu/small=gpu.example.com/n0/gpu-1"));
  a->Commit(out[0]);
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));  // "small" is taken: the first choice comes last
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("gpu/big=gpu.example.com/n0/gpu-0"));
  a->set_later_alternatives_first(false);
  EXPECT_TRUE(a->CanAllocate({&id, 1}, 0));
}

TEST(Allocator, BacktracksAcrossRequests) {
  // Request a takes any GPU, request b needs model X: the first solution gives X to b.
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"X", "Y"})};
  auto a = f.Make();
  api::ResourceClaimSpec spec;
  spec.requests.push_back({"a", Exact("gpu"), {}});
  spec.requests.push_back(
      {"b", Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'X'"), {}});
  const int32_t id = a->CompileSpec(spec);
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));
  EXPECT_THAT(Devices(*a, out[0]), testing::ElementsAre("a=gpu.example.com/n0/gpu-1",
                                                        "b=gpu.example.com/n0/gpu-0"));
  // Two claims of one pod on one node must not share a device.
  const int32_t one = a->CompileSpec(OneRequest(Exact("gpu")));
  const int32_t three[] = {one, one, one};
  EXPECT_FALSE(a->CanAllocate(three, 0));
  const int32_t two[] = {one, one};
  EXPECT_TRUE(a->CanAllocate(two, 0));
}

TEST(Allocator, AllModeAndIncompletePools) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"A", "A"}), Slice("n1", "gpu.example.com", {"A"})};
  f.slices[1].pool.resource_slice_count = 2;  // n1's pool misses a slice
  auto a = f.Make();
  api::ExactDeviceRequest all = Exact("gpu");
  all.allocation_mode = api::DeviceAllocationMode::kAll;
  const int32_t id = a->CompileSpec(OneRequest(all));
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&id, 1}, 0, &out));
  EXPECT_EQ(out[0].devices.size(), 2u);
  EXPECT_FALSE(a->CanAllocate({&id, 1}, 1));
  a->Commit(out[0]);
  EXPECT_FALSE(a->CanAllocate({&id, 1}, 0));  // all of them are needed, none is free
}

TEST(Allocator, PoolGenerationsAndNetworkDevices) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"OLD"}, 1), Slice("n0", "gpu.example.com", {"NEW"}, 2)};
  f.slices[1].meta.name = "n0-new";
  api::ResourceSlice net = Slice("", "gpu.example.com", {"NET"});
  net.node_selector.emplace();
  f.slices.push_back(net);
  api::ResourceSlice everywhere = Slice("", "gpu.example.com", {"ALL"});
  everywhere.pool.name = "everywhere";
  everywhere.all_nodes = true;
  f.slices.push_back(everywhere);
  auto a = f.Make();
  EXPECT_EQ(a->inventory().devices().size(), 3u);  // generation 1 of n0's pool is stale
  const int32_t net_spec = a->CompileSpec(
      OneRequest(Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'NET'")));
  EXPECT_FALSE(a->CanAllocate({&net_spec, 1}, 0));
  EXPECT_TRUE(a->CanAllocate({&net_spec, 1}, 1));
  const int32_t all_spec = a->CompileSpec(
      OneRequest(Exact("gpu", 1, "device.attributes['gpu.example.com'].model == 'ALL'")));
  std::vector<Allocation> out;
  ASSERT_TRUE(a->Allocate({&all_spec, 1}, 0, &out));
  EXPECT_TRUE(a->Reaches(out[0], 0));
  EXPECT_TRUE(a->Reaches(out[0], 1));
  a->Commit(out[0]);
  EXPECT_FALSE(a->CanAllocate({&all_spec, 1}, 1));
  EXPECT_TRUE(a->VerifyCounts());
}

TEST(Allocator, ProblemsAreReportedNotCrashed) {
  Fixture f;
  f.slices = {Slice("n0", "gpu.example.com", {"A"})};
  f.classes.push_back(Class("broken", "device.attributes['gpu.example.com'].missing == 'x'"));
  auto a = f.Make();
  const int32_t ghost = a->CompileSpec(OneRequest(Exact("ghost")));
  EXPECT_EQ(a->SpecProblem(ghost), "request gpu: device class ghost does not exist");
  EXPECT_FALSE(a->CanAllocate({&ghost, 1}, 0));
  const int32_t broken = a->CompileSpec(OneRequest(Exact("broken")));
  EXPECT_EQ(a->SpecProblem(broken),
            "request gpu: class selector #0: CEL runtime error: no such key: missing");
  const int32_t bad = a->CompileSpec(OneRequest(Exact("gpu", 1, "string(device.driver) == 'x'")));
  EXPECT_EQ(a->SpecProblem(bad),
            "request gpu: selector #0: function \"string\" is not supported by wasched");
  const int32_t undeclared = a->CompileSpec(OneRequest(Exact("gpu", 1, "foo()")));
  EXPECT_EQ(a->SpecProblem(undeclared),
            "request gpu: selector #0: compilation failed: undeclared reference to 'foo'");
}

}  // namespace
}  // namespace wasched::dra
