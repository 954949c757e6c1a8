package lifecycle

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var now = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

func TestNodeNeedsReady(t *testing.T) {
	cases := []struct {
		name       string
		conditions []v1.NodeCondition
		want       bool
	}{
		{"no conditions", nil, true},
		{"ready false", []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionFalse}}, true},
		{"ready unknown", []v1.NodeCondition{{Type: v1.NodeMemoryPressure, Status: v1.ConditionFalse}, {Type: v1.NodeReady, Status: v1.ConditionUnknown}}, true},
		{"ready true", []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}, false},
	}
	for _, tc := range cases {
		if got := NodeNeedsReady(&v1.Node{Status: v1.NodeStatus{Conditions: tc.conditions}}); got != tc.want {
			t.Errorf("%s: NodeNeedsReady = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func pod(nodeName string, phase v1.PodPhase, deleting bool, grace *int64) *v1.Pod {
	p := &v1.Pod{Spec: v1.PodSpec{NodeName: nodeName}, Status: v1.PodStatus{Phase: phase}}
	if deleting {
		p.DeletionTimestamp = &now
		p.DeletionGracePeriodSeconds = grace
	}
	return p
}

func TestDecidePod(t *testing.T) {
	thirty, zero := int64(30), int64(0)
	cases := []struct {
		name       string
		pod        *v1.Pod
		nodeExists bool
		want       PodAction
	}{
		{"unbound", pod("", v1.PodPending, false, nil), false, PodNothing},
		{"unbound deleting (finalizer)", pod("", v1.PodPending, true, &zero), false, PodNothing},
		{"bound pending", pod("n1", v1.PodPending, false, nil), true, PodStart},
		{"bound, node missing", pod("n1", v1.PodPending, false, nil), false, PodNothing},
		{"running", pod("n1", v1.PodRunning, false, nil), true, PodNothing},
		{"succeeded", pod("n1", v1.PodSucceeded, false, nil), true, PodNothing},
		{"running, deleting", pod("n1", v1.PodRunning, true, &thirty), true, PodTerminate},
		{"pending, deleting, node missing", pod("n1", v1.PodPending, true, &thirty), false, PodTerminate},
		{"failed, deleting", pod("n1", v1.PodFailed, true, &thirty), true, PodRemove},
		{"failed, deleted with grace 0 (finalizer)", pod("n1", v1.PodFailed, true, &zero), true, PodNothing},
	}
	for _, tc := range cases {
		if got := DecidePod(tc.pod, tc.nodeExists); got != tc.want {
			t.Errorf("%s: DecidePod = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func condition(s v1.PodStatus, t v1.PodConditionType) *v1.PodCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

func TestRunningStatus(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{UID: "u1"},
		Spec: v1.PodSpec{
			NodeName:       "n1",
			InitContainers: []v1.Container{{Name: "init", Image: "i"}, {Name: "sidecar", Image: "s", RestartPolicy: &always}},
			Containers:     []v1.Container{{Name: "a", Image: "x"}, {Name: "b", Image: "y"}},
		},
		Status: v1.PodStatus{Phase: v1.PodPending, Conditions: []v1.PodCondition{
			{Type: v1.PodScheduled, Status: v1.ConditionTrue},
			{Type: v1.PodReady, Status: v1.ConditionFalse},
		}},
	}
	s := RunningStatus(p, "10.0.0.1", now)
	if s.Phase != v1.PodRunning || s.HostIP != "10.0.0.1" || s.StartTime == nil || !s.StartTime.Equal(&now) {
		t.Fatalf("phase/hostIP/startTime = %v/%q/%v", s.Phase, s.HostIP, s.StartTime)
	}
	if c := condition(s, v1.PodScheduled); c == nil || c.Status != v1.ConditionTrue {
		t.Errorf("PodScheduled not kept: %+v", c)
	}
	for _, ct := range []v1.PodConditionType{v1.PodReadyToStartContainers, v1.PodInitialized, v1.ContainersReady, v1.PodReady} {
		c := condition(s, ct)
		if c == nil || c.Status != v1.ConditionTrue || !c.LastTransitionTime.Equal(&now) {
			t.Errorf("%s = %+v, want True at now", ct, c)
		}
	}
	if len(s.ContainerStatuses) != 2 || s.ContainerStatuses[1].Name != "b" || !s.ContainerStatuses[1].Ready || s.ContainerStatuses[1].State.Running == nil {
		t.Errorf("containerStatuses = %+v", s.ContainerStatuses)
	}
	if len(s.InitContainerStatuses) != 2 || s.InitContainerStatuses[0].State.Terminated == nil || s.InitContainerStatuses[1].State.Running == nil {
		t.Errorf("initContainerStatuses = %+v", s.InitContainerStatuses)
	}
	if p.Status.Phase != v1.PodPending || len(p.Status.Conditions) != 2 {
		t.Errorf("input pod modified: %+v", p.Status)
	}
}

func TestTerminatedStatus(t *testing.T) {
	p := &v1.Pod{Spec: v1.PodSpec{NodeName: "n1", Containers: []v1.Container{{Name: "a"}}}}
	p.Status = RunningStatus(p, "", now)
	later := metav1.NewTime(now.Add(time.Minute))
	s := TerminatedStatus(p, later)
	if s.Phase != v1.PodFailed {
		t.Fatalf("phase = %v, want Failed", s.Phase)
	}
	if len(s.ContainerStatuses) != 1 {
		t.Fatalf("containerStatuses = %+v", s.ContainerStatuses)
	}
	term := s.ContainerStatuses[0].State.Terminated
	if term == nil || term.ExitCode != 143 || !term.StartedAt.Equal(&now) || !term.FinishedAt.Equal(&later) || s.ContainerStatuses[0].Ready {
		t.Errorf("container state = %+v", s.ContainerStatuses[0])
	}
	if c := condition(s, v1.PodReady); c == nil || c.Status != v1.ConditionFalse || !c.LastTransitionTime.Equal(&later) {
		t.Errorf("Ready = %+v, want False at later", c)
	}
	if c := condition(s, v1.PodInitialized); c == nil || c.Status != v1.ConditionTrue {
		t.Errorf("Initialized = %+v, want kept True", c)
	}
}
