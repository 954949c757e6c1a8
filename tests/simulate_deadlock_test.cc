// File: tests/simulate_deadlock_test.cc
//
// The simulator's `deadlocks` metric (issue 8; QA2 finding 14): a stall span is work pending with
// some GPU free or held by a partially bound job, from the first event instant where that holds
// after the last progress (a job starting or finishing) to the next progress; a span of at least
// kDeadlockSeconds is one episode. A stall with no later event is counted when progress resumes,
// and a stall still on when no event is left (a permanent deadlock) is counted up to the run's
// end, the last event + kDeadlockSeconds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cluster.h"
#include "sim/simulator.h"
#include "sim/trace.h"
#include "support/sim_fixtures.h"

namespace wasched::sim {
namespace {

const std::string kHead = "timestamp,duration,num_gpus\n";

Trace Philly(const std::string& rows, int32_t gpus_per_pod = 1) {
  return test::PhillyTrace(kHead + rows, gpus_per_pod);
}

std::vector<api::Node> Cluster(const std::string& spec) { return test::GeneratedCluster(spec); }

SimResult RunPolicy(const Trace& t, const std::vector<api::Node>& nodes, Policy policy) {
  SimOptions o;
  o.policy = policy;
  return Simulate(t, nodes, o);
}

// 16 GPUs. A (12 GPUs, 2 h) starts at 0; B (12 GPUs) arrives at 1 s and, as bare pods, binds the
// 4 free GPUs and waits: nothing starts or finishes until A ends at 7200 (QA2's
// philly-partial-hold.csv). One episode from 1 s to 7200 s, although no event falls inside it.
TEST(SimulateDeadlock, PartialHoldWithNoEventInsideIsOneEpisode) {
  const Trace t = Philly("2017-10-09 00:00:00,7200,12\n"
                         "2017-10-09 00:00:01,3600,12\n");
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=8"), Policy::kBasic);
  EXPECT_EQ(r.completed, 2);
  EXPECT_NEAR(r.partial_gpu_hours, 4.0 * 7199 / 3600, 1e-6);
  EXPECT_EQ(r.deadlock_episodes, 1);
  EXPECT_EQ(r.deadlock_seconds, 7199);
}

// The same plus an 8-GPU job at 01:30: it finds no free GPU and waits (the first stall is not cut
// by the arrival). At 7200 A ends, B takes 8 more GPUs and starts; the 8-GPU job binds the 4 left
// and holds them until B ends at 10800: a second episode of 3600 s.
TEST(SimulateDeadlock, AnUnrelatedArrivalDoesNotChangeTheCount) {
  const Trace t = Philly("2017-10-09 00:00:00,7200,12\n"
                         "2017-10-09 00:00:01,3600,12\n"
                         "2017-10-09 01:30:00,60,8\n");
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=8"), Policy::kBasic);
  EXPECT_EQ(r.completed, 3);
  EXPECT_EQ(r.deadlock_episodes, 2);
  EXPECT_EQ(r.deadlock_seconds, 7199 + 3600);
}

// A stall shorter than kDeadlockSeconds is no episode.
TEST(SimulateDeadlock, StallShorterThanAnHourIsNotCounted) {
  const Trace t = Philly("2017-10-09 00:00:00,3000,12\n"
                         "2017-10-09 00:00:01,3600,12\n");
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=8"), Policy::kBasic);
  EXPECT_EQ(r.completed, 2);
  EXPECT_GT(r.partial_gpu_hours, 0.0);
  EXPECT_EQ(r.deadlock_episodes, 0);
  EXPECT_EQ(r.deadlock_seconds, 0);
}

// The span starts when work is pending, not at the last progress: A starts at 0 and runs until
// 20000 with nothing pending; B arrives at 10000 and holds 4 GPUs until 20000: 10000 s, not 20000.
TEST(SimulateDeadlock, SpanStartsWhenWorkIsPendingNotAtTheLastProgress) {
  const Trace t = Philly("2017-10-09 00:00:00,20000,12\n"
                         "2017-10-09 02:46:40,3000,12\n");
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=8"), Policy::kBasic);
  EXPECT_EQ(r.completed, 2);
  EXPECT_EQ(r.deadlock_episodes, 1);
  EXPECT_EQ(r.deadlock_seconds, 10000);
}

// A busy cluster with work pending and no GPU free or partially held is no stall: gang, 16 GPUs,
// A (16 GPUs) runs 0..7200 and B (8 GPUs) waits for it.
TEST(SimulateDeadlock, FullClusterWithWorkPendingIsNoStall) {
  const Trace t = Philly("2017-10-09 00:00:00,7200,16\n"
                         "2017-10-09 00:00:01,3600,8\n");
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=8"), Policy::kGang);
  EXPECT_EQ(r.completed, 2);
  EXPECT_EQ(r.deadlock_episodes, 0);
  EXPECT_EQ(r.deadlock_seconds, 0);
}

// A permanent deadlock (the shape of QA2's sim-basic-permanent-stall.csv, reduced): 2 nodes × 3
// GPUs, 2 GPUs a pod. A (6 GPUs = 3 pods of 2) binds one pod per node; B (3 GPUs = pods of 2 and
// 1) binds its 1-GPU pod; one GPU stays free, both wait forever and no event ever comes again.
// The stall from 0 counts up to the run's end, the last event (0) + kDeadlockSeconds.
TEST(SimulateDeadlock, PermanentDeadlockWithNoLaterEventIsCountedUpToTheRunsEnd) {
  const Trace t = Philly("2017-10-09 00:00:00,100,6\n"
                         "2017-10-09 00:00:00,100,3\n",
                         2);
  const SimResult r = RunPolicy(t, Cluster("nodes=2,gpus=3,zones=1,racksPerZone=1"), Policy::kBasic);
  EXPECT_EQ(r.completed, 0);
  EXPECT_EQ(r.unfinished, 2);
  EXPECT_EQ(r.deadlock_episodes, 1);
  EXPECT_EQ(r.deadlock_seconds, kDeadlockSeconds);
}

}  // namespace
}  // namespace wasched::sim
