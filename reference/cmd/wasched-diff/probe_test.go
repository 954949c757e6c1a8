package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const probeInput = `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {zone: z1, rack: r1}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {zone: z2, rack: r2}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {zone: z2, rack: r3}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
  schedulingConstraints: {topology: [{key: zone}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeName: node-a
  nodeSelector: {zone: z1, rack: r1}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [node-b, node-x]}]
          matchExpressions: [{key: zone, operator: In, values: [z2]}]
  containers: [{name: c, image: i, resources: {requests: {memory: 1073741824}}}]
`

func TestProbeReversesNodeAndDomainOrder(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "in.yaml"), []byte(probeInput), 0o644); err != nil {
		t.Fatal(err)
	}
	pm, err := writeProbeCase(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := readDocs(filepath.Join(dst, "in.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 5 {
		t.Fatalf("%d documents", len(docs))
	}
	// node-a < node-b < node-c becomes probe-00002 > probe-00001 > probe-00000.
	for i, want := range []string{"probe-00002", "probe-00001", "probe-00000"} {
		if got := str(docs[i], "metadata", "name"); got != want {
			t.Errorf("node %d renamed %q, want %q", i, got, want)
		}
	}
	if pm.Nodes["probe-00002"] != "node-a" {
		t.Errorf("reverse map %v", pm.Nodes)
	}
	// zone is a constraint key: z1 < z2 becomes probe-001 > probe-000; rack is not one.
	if got := str(docs[0], "metadata", "labels", "zone"); got != "probe-001" {
		t.Errorf("zone label %q", got)
	}
	if got := str(docs[0], "metadata", "labels", "rack"); got != "r1" {
		t.Errorf("rack label %q", got)
	}
	pod := docs[4]
	if got := str(pod, "spec", "nodeName"); got != "probe-00002" {
		t.Errorf("nodeName %q", got)
	}
	if got := str(pod, "spec", "nodeSelector", "zone"); got != "probe-001" {
		t.Errorf("nodeSelector %q", got)
	}
	js, _ := json.Marshal(pod)
	for _, want := range []string{`"values":["probe-00001","node-x"]`, `"values":["probe-000"]`, `"memory":1073741824`} {
		if !json.Valid(js) || !strings.Contains(string(js), want) {
			t.Errorf("pod %s lacks %s", js, want)
		}
	}
	var r SchedResult
	json.Unmarshal([]byte(`{"bindings":[{"pod":"default/p","node":"probe-00000"}],"evictions":[{"pod":"default/q","node":"probe-00001"}]}`), &r)
	pm.unrename(&r)
	if r.Bindings[0].Node != "node-c" || r.Evictions[0].Node != "node-b" {
		t.Errorf("unrename %+v", r)
	}
}
