package apply

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"wasched.io/reference/internal/manifest"
)

func objs(t *testing.T, docs ...string) []manifest.Object {
	t.Helper()
	var out []manifest.Object
	for i, d := range docs {
		m := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, manifest.Object{Unstructured: &unstructured.Unstructured{Object: m}, Index: i})
	}
	return out
}

// TestSort: kinds by rank; pending pods by queue unit (root creationTimestamp, then the unit's
// first input position), running pods before pending ones.
func TestSort(t *testing.T) {
	in := objs(t,
		`{apiVersion: v1, kind: Pod, metadata: {name: b-0}, spec: {schedulingGroup: {podGroupName: b}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: bare, creationTimestamp: "2026-01-01T00:05:00Z"}, spec: {}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: a-0}, spec: {schedulingGroup: {podGroupName: a}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: b-1}, spec: {schedulingGroup: {podGroupName: b}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: run}, spec: {nodeName: n}}`,
		`{apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: {name: b, creationTimestamp: "2026-01-01T00:10:00Z"}, spec: {}}`,
		`{apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: {name: a, creationTimestamp: "2026-01-01T00:00:00Z"}, spec: {parentCompositePodGroupName: root}}`,
		`{apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: {name: root, creationTimestamp: "2026-01-01T00:20:00Z"}, spec: {}}`,
		`{apiVersion: v1, kind: Node, metadata: {name: node-1}}`,
		`{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`,
	)
	var got []string
	for _, o := range Sort(in) {
		got = append(got, o.GetKind()+"/"+o.GetName())
	}
	want := []string{"Node/node-1", "CompositePodGroup/root", "PodGroup/b", "PodGroup/a", "Pod/run",
		"Pod/bare", "Pod/b-0", "Pod/b-1", "Pod/a-0", "ConfigMap/c"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	}
}

func TestExpectedJobPods(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want int
	}{
		{`{spec: {}}`, 1},
		{`{spec: {parallelism: 8, completions: 8}}`, 8},
		{`{spec: {parallelism: 8, completions: 3}}`, 3},
		{`{spec: {parallelism: 4, suspend: true}}`, 0},
	} {
		o := objs(t, c.doc)[0]
		if got := ExpectedJobPods(o.Unstructured); got != c.want {
			t.Errorf("%s: %d, want %d", c.doc, got, c.want)
		}
	}
}
