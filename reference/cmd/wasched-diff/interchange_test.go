package main

import (
	"os"
	"path/filepath"
	"testing"
)

const gangOfThree = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"g-0","namespace":"default"},"spec":{"containers":[{"name":"m","image":"i","resources":{"requests":{"cpu":"1"}}}],"schedulingGroup":{"podGroupName":"g"}}}
---
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"g-1","namespace":"default"},"spec":{"containers":[{"name":"m","image":"i","resources":{"requests":{"cpu":"1"}}}],"schedulingGroup":{"podGroupName":"g"}}}
---
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"g-2","namespace":"default"},"spec":{"containers":[{"name":"m","image":"i","resources":{"requests":{"cpu":"2"}}}],"schedulingGroup":{"podGroupName":"g"}}}
---
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"run","namespace":"default"},"spec":{"nodeName":"n1","containers":[{"name":"m","image":"i"}]}}
`

func classesOf(t *testing.T, manifest string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "30-pods.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := interchangeClasses(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestIdenticalPendingPodsShareAClass(t *testing.T) {
	c := classesOf(t, gangOfThree)
	if c["default/g-0"] == "" || c["default/g-0"] != c["default/g-1"] {
		t.Fatalf("g-0 and g-1 differ only in name: %q %q", c["default/g-0"], c["default/g-1"])
	}
	if _, ok := c["default/g-2"]; ok {
		t.Fatalf("g-2 requests more CPU and has no identical sibling")
	}
	if _, ok := c["default/run"]; ok {
		t.Fatalf("running pods are not classed")
	}
}

func TestPermutationOfIdenticalPodsAgrees(t *testing.T) {
	c := classesOf(t, gangOfThree)
	up := result(t, `{"bindings":[{"pod":"default/g-0","node":"n1"},{"pod":"default/g-1","node":"n2"},{"pod":"default/g-2","node":"n3"}]}`)
	was := result(t, `{"bindings":[{"pod":"default/g-0","node":"n2"},{"pod":"default/g-1","node":"n1"},{"pod":"default/g-2","node":"n3"}]}`)
	units, st := compareSchedule(ok(up), ok(was), ok(was), c)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("a swap of identical pods is no divergence: %v", d)
	}
	if st.nodesCompared != 3 {
		t.Fatalf("nodes still compared: %+v", st)
	}
	// Without the classes the same answers diverge on both nodes.
	units, _ = compareSchedule(ok(up), ok(was), ok(was), nil)
	if d := disagreeing(units); len(d) != 2 {
		t.Fatalf("want 2 node divergences without classes, got %v", d)
	}
}

func TestDifferentNodeMultisetStillDiverges(t *testing.T) {
	c := classesOf(t, gangOfThree)
	up := result(t, `{"bindings":[{"pod":"default/g-0","node":"n1"},{"pod":"default/g-1","node":"n1"}],"pending":[{"pod":"default/g-2","reason":"Unschedulable"}]}`)
	was := result(t, `{"bindings":[{"pod":"default/g-0","node":"n2"},{"pod":"default/g-1","node":"n1"}],"pending":[{"pod":"default/g-2","reason":"Unschedulable"}]}`)
	units, _ := compareSchedule(ok(up), ok(was), ok(was), c)
	d := disagreeing(units)
	if len(d) != 1 || d[0] != "pod default/g-0 node: n1 vs n2" {
		t.Fatalf("got %v", d)
	}
}

func TestBoundAndPendingSwappedAmongIdenticalPodsAgrees(t *testing.T) {
	c := classesOf(t, gangOfThree)
	up := result(t, `{"bindings":[{"pod":"default/g-0","node":"n1"}],"pending":[{"pod":"default/g-1","reason":"Unschedulable"}]}`)
	was := result(t, `{"bindings":[{"pod":"default/g-1","node":"n1"}],"pending":[{"pod":"default/g-0","reason":"Unschedulable"}]}`)
	units, _ := compareSchedule(ok(up), ok(was), ok(was), c)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("got %v", d)
	}
	// A different reason is a divergence even within a class.
	was2 := result(t, `{"bindings":[{"pod":"default/g-1","node":"n1"}],"pending":[{"pod":"default/g-0","reason":"SchedulerError"}]}`)
	units, _ = compareSchedule(ok(up), ok(was2), ok(was2), c)
	if d := disagreeing(units); len(d) != 2 {
		t.Fatalf("want both pods diverging, got %v", d)
	}
}

func TestIndexedJobPodsAreOneClass(t *testing.T) {
	if classOf(nil, "default/train[3]") != "job\tdefault/train" || classOf(nil, "default/train-0") != "" {
		t.Fatal("job aliases class by job")
	}
}
