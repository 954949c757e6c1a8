// Package lifecycle stands in for the kubelets of the reference control plane: there are none, so
// nothing would mark Nodes Ready, start bound pods, or finish a graceful pod deletion. The
// decisions are pure functions of the observed object (this file); controller.go applies them
// through the API server. The behaviour follows what a kubelet reports (pkg/kubelet/status in
// k8s.io/kubernetes v1.37.2) at the level KWOK (sigs.k8s.io/kwok) emulates it:
//   - a Node whose Ready condition is not True gets Ready=True;
//   - a pod bound to an existing Node and still Pending becomes Running with every container
//     running and the Initialized, PodReadyToStartContainers, ContainersReady and Ready
//     conditions True (the disruption controller counts Ready pods as healthy for PDBs);
//   - a bound pod with a deletionTimestamp first reaches a terminal phase (Failed, containers
//     terminated with exit code 143, as after SIGTERM), as the kubelet reports since v1.27, then is
//     deleted with grace period 0, so that preemption victims really disappear. Finalizers stay
//     with their owners (the Job controller removes its tracking finalizer from terminal pods).
//
// Taints are never touched: with the TaintNodesByCondition admission plugin disabled and no
// node-lifecycle controller, nothing adds not-ready taints, and a taint present came from the input.
package lifecycle

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reason is the condition reason the stand-in writes, so that its work is recognisable.
const Reason = "WaschedLifecycleStandIn"

// NodeNeedsReady reports whether node lacks a Ready=True condition.
func NodeNeedsReady(node *v1.Node) bool {
	for i := range node.Status.Conditions {
		c := &node.Status.Conditions[i]
		if c.Type == v1.NodeReady {
			return c.Status != v1.ConditionTrue
		}
	}
	return true
}

// ReadyCondition is the Node condition the stand-in sets, with both times at now.
func ReadyCondition(now metav1.Time) v1.NodeCondition {
	return v1.NodeCondition{
		Type:               v1.NodeReady,
		Status:             v1.ConditionTrue,
		Reason:             Reason,
		Message:            "no kubelet: marked Ready by the reference lifecycle stand-in",
		LastHeartbeatTime:  now,
		LastTransitionTime: now,
	}
}

// PodAction is what the stand-in does to one pod.
type PodAction int

const (
	// PodNothing: not bound, already Running or terminal, or waiting for its Node to exist.
	PodNothing PodAction = iota
	// PodStart: bound to an existing Node and Pending; write RunningStatus.
	PodStart
	// PodTerminate: being deleted and not yet terminal; write TerminatedStatus.
	PodTerminate
	// PodRemove: being deleted and terminal; delete with grace period 0.
	PodRemove
)

// DecidePod returns the action for pod; nodeExists tells whether pod.Spec.NodeName names an
// existing Node (a kubelet only runs pods of its own Node).
func DecidePod(pod *v1.Pod, nodeExists bool) PodAction {
	if pod.Spec.NodeName == "" {
		// Unbound pods are deleted by the API server at once; one held by a finalizer waits for
		// its owner.
		return PodNothing
	}
	terminal := pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded
	if pod.DeletionTimestamp != nil {
		if terminal {
			if pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0 {
				return PodNothing // already deleted with grace 0; finalizers hold it
			}
			return PodRemove
		}
		return PodTerminate
	}
	if !nodeExists || terminal || pod.Status.Phase == v1.PodRunning {
		return PodNothing
	}
	return PodStart
}

// RunningStatus is pod's status once started at now on a Node with address hostIP (may be
// empty): phase Running, every container running and ready, init containers completed (sidecars,
// restartPolicy Always, running), the readiness conditions True. Existing conditions of other
// types (PodScheduled, DisruptionTarget) are kept.
func RunningStatus(pod *v1.Pod, hostIP string, now metav1.Time) v1.PodStatus {
	status := *pod.Status.DeepCopy()
	status.Phase = v1.PodRunning
	status.StartTime = &now
	status.HostIP = hostIP
	if hostIP != "" {
		status.HostIPs = []v1.HostIP{{IP: hostIP}}
	}
	started := true
	status.InitContainerStatuses = nil
	for _, c := range pod.Spec.InitContainers {
		s := v1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: c.Image, ContainerID: containerID(pod, c.Name)}
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			s.Ready, s.Started = true, &started
			s.State.Running = &v1.ContainerStateRunning{StartedAt: now}
		} else {
			s.State.Terminated = &v1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: now, FinishedAt: now, ContainerID: s.ContainerID}
		}
		status.InitContainerStatuses = append(status.InitContainerStatuses, s)
	}
	status.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		status.ContainerStatuses = append(status.ContainerStatuses, v1.ContainerStatus{
			Name: c.Name, Image: c.Image, ImageID: c.Image, ContainerID: containerID(pod, c.Name),
			Ready: true, Started: &started,
			State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: now}},
		})
	}
	for _, t := range []v1.PodConditionType{v1.PodReadyToStartContainers, v1.PodInitialized, v1.ContainersReady, v1.PodReady} {
		setPodCondition(&status, t, v1.ConditionTrue, "", now)
	}
	return status
}

// TerminatedStatus is pod's status once its containers stopped at now after SIGTERM: phase
// Failed, every container terminated with exit code 143, ContainersReady and Ready False.
func TerminatedStatus(pod *v1.Pod, now metav1.Time) v1.PodStatus {
	status := *pod.Status.DeepCopy()
	status.Phase = v1.PodFailed
	started := false
	terminate := func(list []v1.ContainerStatus, containers []v1.Container) []v1.ContainerStatus {
		byName := map[string]v1.ContainerStatus{}
		for _, s := range list {
			byName[s.Name] = s
		}
		out := make([]v1.ContainerStatus, 0, len(containers))
		for _, c := range containers {
			s, ok := byName[c.Name]
			if !ok {
				s = v1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: c.Image, ContainerID: containerID(pod, c.Name)}
			}
			if s.State.Terminated == nil {
				startedAt := now
				if s.State.Running != nil {
					startedAt = s.State.Running.StartedAt
				}
				s.State = v1.ContainerState{Terminated: &v1.ContainerStateTerminated{
					ExitCode: 143, Reason: "Error", StartedAt: startedAt, FinishedAt: now, ContainerID: s.ContainerID,
				}}
			}
			s.Ready, s.Started = false, &started
			out = append(out, s)
		}
		return out
	}
	status.InitContainerStatuses = terminate(status.InitContainerStatuses, pod.Spec.InitContainers)
	status.ContainerStatuses = terminate(status.ContainerStatuses, pod.Spec.Containers)
	if len(status.InitContainerStatuses) == 0 {
		status.InitContainerStatuses = nil
	}
	for _, t := range []v1.PodConditionType{v1.ContainersReady, v1.PodReady, v1.PodReadyToStartContainers} {
		setPodCondition(&status, t, v1.ConditionFalse, "PodCompleted", now)
	}
	return status
}

func containerID(pod *v1.Pod, name string) string {
	return "wasched-lifecycle://" + string(pod.UID) + "/" + name
}

// setPodCondition sets condition t to s, moving lastTransitionTime only when the status changes.
func setPodCondition(status *v1.PodStatus, t v1.PodConditionType, s v1.ConditionStatus, reason string, now metav1.Time) {
	for i := range status.Conditions {
		c := &status.Conditions[i]
		if c.Type == t {
			if c.Status != s {
				c.LastTransitionTime = now
			}
			c.Status, c.Reason = s, reason
			return
		}
	}
	status.Conditions = append(status.Conditions, v1.PodCondition{Type: t, Status: s, Reason: reason, LastTransitionTime: now})
}
