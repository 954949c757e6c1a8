#include "sched/framework/pod_template.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::MakePod;

// SameSchedulingSpec compares requests, overhead and pod-level requests name by name and amount
// by amount: names of equal length that differ in one byte, different amounts, an extra entry or
// a different overhead are different templates; equal lists in other pods are one template.
TEST(PodTemplatesTest, ResourceListsDifferByNameAmountOrEntry) {
  const api::Pod base = MakePod().Name("a").Req({{"cpu", 100}, {"memory", 1024}}).Obj();
  api::Pod same = MakePod().Name("b").Req({{"cpu", 100}, {"memory", 1024}}).Obj();
  EXPECT_TRUE(SameSchedulingSpec(base, same));

  api::Pod renamed = MakePod().Name("c").Req({{"gpu", 100}, {"memory", 1024}}).Obj();  // "cpu"
  EXPECT_FALSE(SameSchedulingSpec(base, renamed));
  api::Pod renamed_last = MakePod().Name("c").Req({{"cpu", 100}, {"memorz", 1024}}).Obj();
  EXPECT_FALSE(SameSchedulingSpec(base, renamed_last));
  api::Pod longer = MakePod().Name("c").Req({{"cpu", 100}, {"memory2", 1024}}).Obj();
  EXPECT_FALSE(SameSchedulingSpec(base, longer));
  api::Pod amount = MakePod().Name("d").Req({{"cpu", 100}, {"memory", 1025}}).Obj();
  EXPECT_FALSE(SameSchedulingSpec(base, amount));
  api::Pod extra = MakePod().Name("e").Req({{"cpu", 100}, {"memory", 1024}, {"pods", 1}}).Obj();
  EXPECT_FALSE(SameSchedulingSpec(base, extra));
  EXPECT_FALSE(SameSchedulingSpec(extra, base));

  api::Pod overhead = same;
  overhead.overhead = {{"cpu", 10}};
  EXPECT_FALSE(SameSchedulingSpec(base, overhead));
  api::Pod overhead2 = same;
  overhead2.overhead = {{"cpu", 11}};
  EXPECT_FALSE(SameSchedulingSpec(overhead, overhead2));
  api::Pod pod_level = same;
  pod_level.pod_level_requests = {{"memory", 2048}};
  EXPECT_FALSE(SameSchedulingSpec(base, pod_level));

  ResourceTable resources;
  PodTemplates templates(resources);
  const int32_t t = templates.Intern(base);
  EXPECT_EQ(templates.Intern(same), t);
  EXPECT_NE(templates.Intern(renamed), t);
  EXPECT_NE(templates.Intern(amount), t);
  EXPECT_EQ(templates.Intern(same), t);  // after other templates: found by hash
  EXPECT_NE(templates.Intern(overhead), t);
}

}  // namespace
}  // namespace wasched::sched
