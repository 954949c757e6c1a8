package batch

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"wasched.io/reference/internal/manifest"
	"wasched.io/reference/internal/result"
)

func objects(t *testing.T, docs ...string) []manifest.Object {
	t.Helper()
	var out []manifest.Object
	for i, d := range docs {
		m := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, manifest.Object{Unstructured: &unstructured.Unstructured{Object: m}, File: "case/in.yaml", Doc: i + 1, Index: i})
	}
	return out
}

func get(t *testing.T, u *unstructured.Unstructured, path ...string) interface{} {
	t.Helper()
	v, _, err := unstructured.NestedFieldNoCopy(u.Object, path...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTransformRenamesAndPins: names, references and label values carry the case prefix, and
// every pod is pinned to the case label.
func TestTransformRenamesAndPins(t *testing.T) {
	c := NewCase(7, "c", "case", objects(t,
		`{apiVersion: v1, kind: Node, metadata: {name: n1, labels: {zone: a}}}`,
		`{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 10}`,
		`{apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: {name: g}, spec: {priorityClassName: high, schedulingPolicy: {gang: {minCount: 1}}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}, spec: {nodeName: n1, priorityClassName: system-node-critical, nodeSelector: {zone: a}, containers: [{name: c}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: q}, spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}], matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}}, containers: [{name: c}]}}`,
		`{apiVersion: resource.k8s.io/v1, kind: ResourceSlice, metadata: {name: s}, spec: {driver: d, pool: {name: p, generation: 1, resourceSliceCount: 1}, allNodes: true}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {priorityClassName: high, containers: [{name: c}]}}}}`,
	))
	out := c.Transform()
	if c.Solo != "" {
		t.Fatalf("solo: %s", c.Solo)
	}
	checks := []struct {
		obj  int
		path []string
		want interface{}
	}{
		{0, []string{"metadata", "name"}, "wr0007-n1"},
		{0, []string{"metadata", "labels", "zone"}, "wr0007-a"},
		{0, []string{"metadata", "labels", CaseLabel}, "wr0007"},
		{1, []string{"metadata", "name"}, "wr0007-high"},
		{2, []string{"metadata", "namespace"}, "wr0007-default"},
		{2, []string{"spec", "priorityClassName"}, "wr0007-high"},
		{3, []string{"metadata", "namespace"}, "wr0007-ns"},
		{3, []string{"spec", "nodeName"}, "wr0007-n1"},
		{3, []string{"spec", "priorityClassName"}, "system-node-critical"},
		{3, []string{"spec", "nodeSelector", "zone"}, "wr0007-a"},
		{3, []string{"spec", "nodeSelector", CaseLabel}, "wr0007"},
		{4, []string{"spec", "nodeSelector", CaseLabel}, "wr0007"},
		{5, []string{"spec", "pool", "name"}, "wr0007-p"},
		{6, []string{"spec", "template", "spec", "priorityClassName"}, "wr0007-high"},
		{6, []string{"spec", "template", "spec", "nodeSelector", CaseLabel}, "wr0007"},
	}
	for _, ck := range checks {
		if got := get(t, out[ck.obj].Unstructured, ck.path...); got != ck.want {
			t.Errorf("object %d %s = %v, want %v", ck.obj, strings.Join(ck.path, "."), got, ck.want)
		}
	}
	term := get(t, out[4].Unstructured, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms").([]interface{})[0].(map[string]interface{})
	if v := term["matchExpressions"].([]interface{})[0].(map[string]interface{})["values"].([]interface{})[0]; v != "wr0007-a" {
		t.Errorf("matchExpressions value %v", v)
	}
	if v := term["matchFields"].([]interface{})[0].(map[string]interface{})["values"].([]interface{})[0]; v != "wr0007-n1" {
		t.Errorf("matchFields value %v", v)
	}
	if _, ok := out[5].Object["spec"].(map[string]interface{})["allNodes"]; ok {
		t.Errorf("allNodes kept: %v", out[5].Object["spec"])
	}
	// The input objects are untouched.
	if c.Objs[0].GetName() != "n1" {
		t.Errorf("input renamed: %s", c.Objs[0].GetName())
	}
}

// TestTransformSolo: cases that cannot be renamed faithfully run alone.
func TestTransformSolo(t *testing.T) {
	for _, doc := range []string{
		`{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: d}, value: 1, globalDefault: true}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: gen, operator: Gt, values: ["3"]}]}]}}}, containers: [{name: c}]}}`,
		`{apiVersion: v1, kind: Node, metadata: {name: n, labels: {x: ` + strings.Repeat("a", 60) + `}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Ignore}], containers: [{name: c}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {}, namespaceSelector: {}, topologyKey: zone}]}}, containers: [{name: c}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {labelSelector: {}, namespaceSelector: {matchLabels: {team: a}}, topologyKey: zone}}]}}, containers: [{name: c}]}}`,
	} {
		c := NewCase(1, "c", "case", objects(t, doc))
		c.Transform()
		if c.Solo == "" {
			t.Errorf("%s: not solo", doc)
		}
	}
}

// TestTransformPodAffinityNamespaces: the namespaces of pod (anti-)affinity terms, required and
// preferred, are the case's own.
func TestTransformPodAffinityNamespaces(t *testing.T) {
	c := NewCase(3, "c", "case", objects(t,
		`{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {}, namespaces: [default, team-b], topologyKey: zone}]}, podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, podAffinityTerm: {labelSelector: {}, namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [team-b]}]}, topologyKey: zone}}]}}, containers: [{name: c}]}}`,
	))
	out := c.Transform()
	if c.Solo != "" {
		t.Fatalf("solo: %s", c.Solo)
	}
	req := get(t, out[0].Unstructured, "spec", "affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution").([]interface{})[0].(map[string]interface{})
	if got := req["namespaces"].([]interface{}); got[0] != "wr0003-default" || got[1] != "wr0003-team-b" {
		t.Errorf("namespaces %v", got)
	}
	pref := get(t, out[0].Unstructured, "spec", "affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution").([]interface{})[0].(map[string]interface{})
	expr := pref["podAffinityTerm"].(map[string]interface{})["namespaceSelector"].(map[string]interface{})["matchExpressions"].([]interface{})[0].(map[string]interface{})
	if got := expr["values"].([]interface{})[0]; got != "wr0003-team-b" {
		t.Errorf("namespaceSelector value %v", got)
	}
}

// TestMapBack: a case's result reads with the input's names again.
func TestMapBack(t *testing.T) {
	c := NewCase(3, "c", "case", nil)
	r := result.New()
	r.Bindings = append(r.Bindings, result.Binding{Pod: "wr0003-default/p", Node: "wr0003-n1"})
	r.Pending = append(r.Pending, result.Pending{Pod: "wr0003-default/q", Reason: "Unschedulable",
		Message: "0/5 nodes are available: 1 Insufficient cpu, 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling."})
	r.Evictions = append(r.Evictions, result.Eviction{Pod: "wr0003-default/v", Node: "wr0003-n1", Preemptor: "PodGroup wr0003-default/g"})
	var spec result.OMap
	spec.Set("nodeSelector", map[string]interface{}{CaseLabel: "wr0003"})
	spec.Set("priorityClassName", "wr0003-high")
	var pod result.OMap
	pod.Set("spec", spec)
	r.Generated = append(r.Generated, pod)
	c.MapBack(r, 1, 5)
	if r.Bindings[0] != (result.Binding{Pod: "default/p", Node: "n1"}) {
		t.Errorf("binding %+v", r.Bindings[0])
	}
	want := "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
	if r.Pending[0].Message != want {
		t.Errorf("message\n got %q\nwant %q", r.Pending[0].Message, want)
	}
	if r.Evictions[0].Preemptor != "PodGroup default/g" || r.Evictions[0].Node != "n1" {
		t.Errorf("eviction %+v", r.Evictions[0])
	}
	b, _ := r.JSON()
	if strings.Contains(string(b), "wr0003") || strings.Contains(string(b), "nodeSelector") {
		t.Errorf("prefix or case label left:\n%s", b)
	}
}

func TestNormalizeMessage(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0/10 nodes are available: 8 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.",
			"0/2 nodes are available: 2 Insufficient cpu."},
		// The case's own nodes may fail the selector too: only the other cases' count goes.
		{"0/10 nodes are available: 9 node(s) didn't match Pod's node affinity/selector, 1 Insufficient cpu.",
			"0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector."},
		// Not the expected shape: left alone.
		{"0/10 nodes are available: 10 Insufficient cpu.", "0/10 nodes are available: 10 Insufficient cpu."},
		{"pod group is waiting", "pod group is waiting"},
	}
	for _, c := range cases {
		if got := NormalizeMessage(c.in, 8); got != c.want {
			t.Errorf("NormalizeMessage(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
