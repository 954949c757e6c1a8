package result

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func objs(t *testing.T, docs ...string) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	for _, d := range docs {
		m := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, &unstructured.Unstructured{Object: m})
	}
	return out
}

// TestBuild: bindings only for pods that arrived without a node; pending with the PodScheduled
// reason; a terminated member does not count; a CompositePodGroup counts children at quorum.
func TestBuild(t *testing.T) {
	s := State{
		Pods: objs(t,
			`{metadata: {name: run, namespace: d}, spec: {nodeName: node-1, schedulingGroup: {podGroupName: a}}, status: {phase: Running}}`,
			`{metadata: {name: done, namespace: d}, spec: {nodeName: node-1, schedulingGroup: {podGroupName: a}}, status: {phase: Succeeded}}`,
			`{metadata: {name: new, namespace: d}, spec: {nodeName: node-2, schedulingGroup: {podGroupName: a}}}`,
			`{metadata: {name: wait, namespace: d}, spec: {schedulingGroup: {podGroupName: b}}, status: {conditions: [{type: PodScheduled, status: "False", reason: Unschedulable, message: "0/2 nodes"}]}}`,
			`{metadata: {name: held, namespace: d}, spec: {schedulingGroup: {podGroupName: b}}}`,
		),
		PodGroups: objs(t,
			`{kind: PodGroup, metadata: {name: a, namespace: d}, spec: {parentCompositePodGroupName: root, schedulingPolicy: {gang: {minCount: 2}}}, status: {conditions: [{type: PodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: ""}]}}`,
			`{kind: PodGroup, metadata: {name: b, namespace: d}, spec: {parentCompositePodGroupName: root, schedulingPolicy: {basic: {}}}}`,
		),
		CompositePodGroups: objs(t, `{kind: CompositePodGroup, metadata: {name: root, namespace: d}, spec: {schedulingPolicy: {gang: {minGroupCount: 2}}}}`),
		RunningAtStart:     map[string]bool{"d/run": true, "d/done": true},
		Evictions:          []Eviction{{Pod: "d/v", Node: "node-3", Preemptor: "Pod d/new"}},
	}
	r := Build(s)
	if len(r.Bindings) != 1 || r.Bindings[0] != (Binding{Pod: "d/new", Node: "node-2"}) {
		t.Errorf("bindings %+v", r.Bindings)
	}
	if len(r.Pending) != 2 || r.Pending[0] != (Pending{Pod: "d/held"}) ||
		r.Pending[1] != (Pending{Pod: "d/wait", Reason: "Unschedulable", Message: "0/2 nodes"}) {
		t.Errorf("pending %+v", r.Pending)
	}
	if len(r.Groups) != 3 {
		t.Fatalf("groups %+v", r.Groups)
	}
	root, a, b := r.Groups[0], r.Groups[1], r.Groups[2]
	if root.Kind != "CompositePodGroup" || root.Scheduled != 1 || *root.MinGroupCount != 2 || root.Parent != nil {
		t.Errorf("root %+v", root)
	}
	if a.Scheduled != 2 || *a.MinCount != 2 || *a.Parent != "d/root" || len(a.Conditions) != 1 {
		t.Errorf("a %+v", a) // run + new; the Succeeded member does not count
	}
	if b.Scheduled != 0 || *b.MinCount != 1 {
		t.Errorf("b %+v", b)
	}
	if len(r.Evictions) != 1 {
		t.Errorf("evictions %+v", r.Evictions)
	}
	out, err := r.JSON()
	if err != nil || out[len(out)-1] != '\n' {
		t.Errorf("JSON: %v", err)
	}
}
