package apply

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
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
// first input position), running pods before pending ones; a Job among the pending pods where
// wasched queues its controller's pods (no creationTimestamp, after every input pod, Jobs in
// input order), whatever its input position.
func TestSort(t *testing.T) {
	in := objs(t,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: j1}, spec: {}}`,
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
		`{apiVersion: v1, kind: Pod, metadata: {name: g-0}, spec: {schedulingGroup: {podGroupName: g}}}`,
		`{apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: {name: g}, spec: {}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: j2}, spec: {}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: plain}, spec: {}}`,
	)
	var got []string
	for _, o := range Sort(in) {
		got = append(got, o.GetKind()+"/"+o.GetName())
	}
	want := []string{"Node/node-1", "CompositePodGroup/root", "PodGroup/b", "PodGroup/a", "PodGroup/g", "Pod/run",
		"Pod/g-0", "Pod/plain", "Job/j1", "Job/j2", "Pod/bare", "Pod/b-0", "Pod/b-1", "Pod/a-0", "ConfigMap/c"}
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

// TestCountWatched: WaitJobPods's event loop counts live pods (a deleted or terminating one does
// not count), keeps the last resourceVersion, and stops at the wanted number or at the end of
// the watch.
func TestCountWatched(t *testing.T) {
	pod := func(name, rv string, terminating bool) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv}}
		if terminating {
			now := metav1.Now()
			p.DeletionTimestamp = &now
		}
		return p
	}
	w := watch.NewFakeWithChanSize(8, false)
	w.Add(pod("a", "1", false))
	w.Add(pod("b", "2", false))
	w.Delete(pod("a", "3", false))
	w.Modify(pod("b", "4", true))
	w.Add(pod("c", "5", false))
	w.Add(pod("d", "6", false))
	w.Add(pod("e", "7", false))
	w.Add(pod("f", "8", false)) // not read: the wait ends at three live pods
	live := map[string]bool{}
	rv, err := countWatched(context.Background(), w, live, 3, "0")
	if err != nil || rv != "7" || len(live) != 3 || !live["c"] || !live["d"] || !live["e"] {
		t.Fatalf("rv %q err %v live %v; want rv 7, live c, d and e", rv, err, live)
	}
	w2 := watch.NewFakeWithChanSize(2, false)
	w2.Add(pod("x", "9", false))
	w2.Stop() // the server ends the watch before the count is reached
	live = map[string]bool{}
	rv, err = countWatched(context.Background(), w2, live, 3, "8")
	if err != nil || rv != "9" || len(live) != 1 {
		t.Fatalf("rv %q err %v live %v; want rv 9 and one live pod", rv, err, live)
	}
}

// TestRunningPodStatus: a running pod's startTime is the input's, else its creationTimestamp,
// else the one start of the Apply call (pods with neither tie, as in wasched); phase and
// conditions only when the input gives no phase.
func TestRunningPodStatus(t *testing.T) {
	const start, now = "2026-12-03T10:00:00Z", "2026-12-03T10:00:07Z"
	for _, c := range []struct {
		doc, startTime, phase string
		conds                 int
	}{
		{`{metadata: {name: a}, spec: {nodeName: n}}`, start, "Running", 4},
		{`{metadata: {name: b, creationTimestamp: "2026-01-01T00:00:00Z"}, spec: {nodeName: n}}`, "2026-01-01T00:00:00Z", "Running", 4},
		{`{metadata: {name: c, creationTimestamp: "2026-01-01T00:00:00Z"}, spec: {nodeName: n}, status: {startTime: "2026-02-01T00:00:00Z", phase: Succeeded}}`, "2026-02-01T00:00:00Z", "Succeeded", 0},
	} {
		st := RunningPodStatus(objs(t, c.doc)[0].Unstructured, start, now)
		conds, _ := st["conditions"].([]interface{})
		if st["startTime"] != c.startTime || st["phase"] != c.phase || len(conds) != c.conds {
			t.Errorf("%s: startTime %v phase %v conditions %d; want %s %s %d", c.doc, st["startTime"], st["phase"], len(conds), c.startTime, c.phase, c.conds)
		}
	}
}
