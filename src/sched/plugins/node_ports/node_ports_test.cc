#include "sched/plugins/node_ports/node_ports.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

using test::MakePod;

api::ContainerPort Port(int32_t port, std::string protocol, std::string ip) {
  api::ContainerPort p;
  p.host_port = port;
  p.protocol = std::move(protocol);
  p.host_ip = std::move(ip);
  return p;
}

// Upstream nodeports/node_ports_test.go TestNodePorts, one case each.
TEST(NodePortsTest, ConflictsAsUpstreamHostPortInfo) {
  // "same udp port": conflict; "different protocol": none; "different port": none.
  EXPECT_TRUE(PortsConflict(Port(8080, "UDP", "127.0.0.1"), Port(8080, "UDP", "127.0.0.1")));
  EXPECT_FALSE(PortsConflict(Port(8080, "UDP", "127.0.0.1"), Port(8080, "TCP", "127.0.0.1")));
  EXPECT_FALSE(PortsConflict(Port(8080, "TCP", "127.0.0.1"), Port(8081, "TCP", "127.0.0.1")));
  // "second ip": different addresses do not conflict.
  EXPECT_FALSE(PortsConflict(Port(8001, "UDP", "127.0.0.2"), Port(8001, "UDP", "127.0.0.1")));
  // "first/second 0.0.0.0 port": every address overlaps any address.
  EXPECT_TRUE(PortsConflict(Port(8001, "TCP", "0.0.0.0"), Port(8001, "TCP", "127.0.0.1")));
  EXPECT_TRUE(PortsConflict(Port(8001, "TCP", "127.0.0.1"), Port(8001, "TCP", "")));
  // Protocol "" is TCP (HostPortInfo.sanitize).
  EXPECT_TRUE(PortsConflict(Port(8001, "", ""), Port(8001, "TCP", "")));
  EXPECT_FALSE(PortsConflict(Port(0, "TCP", ""), Port(0, "TCP", "")));
}

TEST(NodePortsTest, FitsUnlessAPlacedPodHoldsThePort) {
  std::vector<api::Pod> objects{MakePod().Name("a").HostPort(8080).Obj(),
                                MakePod().Name("b").HostPort(9090, "UDP").Obj(),
                                MakePod().Name("c").Obj()};
  std::vector<PodInfo> pods(objects.size());
  for (size_t i = 0; i < objects.size(); ++i) pods[i].pod = &objects[i];
  const std::vector<PodIndex> on_node{0, 1, 2};
  EXPECT_FALSE(PortsFit(MakePod().Name("p").HostPort(8080).Obj(), on_node, pods));
  EXPECT_TRUE(PortsFit(MakePod().Name("p").HostPort(9090).Obj(), on_node, pods));
  EXPECT_FALSE(PortsFit(MakePod().Name("p").HostPort(9090, "UDP").Obj(), on_node, pods));
  EXPECT_TRUE(
      PortsFit(MakePod().Name("p").HostPort(8080).Obj(), std::vector<PodIndex>{1, 2}, pods));
}

TEST(NodePortsTest, SidecarPortsCountRegularInitContainersDoNot) {
  api::Pod pod =
      MakePod().Name("p").InitReq({}, /*sidecar=*/false).InitReq({}, /*sidecar=*/true).Obj();
  EXPECT_FALSE(HasHostPorts(pod));
  pod.init_containers[0].ports.push_back(Port(80, "TCP", ""));
  EXPECT_FALSE(HasHostPorts(pod));  // runs to completion before the pod starts
  pod.init_containers[1].ports.push_back(Port(81, "TCP", ""));
  EXPECT_TRUE(HasHostPorts(pod));
  api::ContainerPort no_host;
  no_host.container_port = 80;
  api::Pod plain = MakePod().Name("q").Obj();
  plain.containers[0].ports.push_back(no_host);
  EXPECT_FALSE(HasHostPorts(plain));
}

}  // namespace
}  // namespace wasched::sched::plugins
