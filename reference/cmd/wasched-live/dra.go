// dra.go: the DRA scenario of issue 17: `wasched run` writes what kube-scheduler's
// DynamicResources plugin writes at PreBind (a claim's status.allocation and status.reservedFor)
// before it binds, so each device goes to one pod.
package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"
)

// draScenario: one node with 2 GPUs (a ResourceSlice of a driver of its own, a DeviceClass), and
// three pods each claiming one GPU through a ResourceClaimTemplate (kube-controller-manager's
// resourceclaim controller makes each pod's claim) → two pods bound, their claims allocated with
// distinct devices and reserved for the pod bound; the third pod waits PodScheduled=False
// Unschedulable with its claim unallocated.
func draScenario(s *sc) error {
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	return draIn(s, ns)
}

// draIn is the dra scenario in namespace ns (the rbac scenario runs it under another identity).
func draIn(s *sc, ns string) error {
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return err
	}
	claims, err := watchList(s.ctx, cache.NewListWatchFromClient(s.cs.ResourceV1().RESTClient(), "resourceclaims", ns, fields.Everything()),
		&resourcev1.ResourceClaim{}, hooks{})
	if err != nil {
		return err
	}
	nodes, err := s.nodes(nodeSpec{prefix: "gpu", count: 1, cpu: "4"})
	if err != nil {
		return err
	}
	node := nodes[0]
	driver := "gpu.wasched.io"
	class := ns + "-gpu"
	if _, err := s.cs.ResourceV1().DeviceClasses().Create(s.ctx, &resourcev1.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: class},
		Spec: resourcev1.DeviceClassSpec{Selectors: []resourcev1.DeviceSelector{{
			CEL: &resourcev1.CELDeviceSelector{Expression: fmt.Sprintf("device.driver == %q", driver)},
		}}},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create DeviceClass %s: %w", class, err)
	}
	slice := node + "-gpus"
	s.cleanups = append(s.cleanups, func(ctx context.Context) {
		_ = s.cs.ResourceV1().ResourceSlices().Delete(ctx, slice, metav1.DeleteOptions{})
		_ = s.cs.ResourceV1().DeviceClasses().Delete(ctx, class, metav1.DeleteOptions{})
	})
	if _, err := s.cs.ResourceV1().ResourceSlices().Create(s.ctx, &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: slice},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   driver,
			NodeName: &node,
			Pool:     resourcev1.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1},
			Devices:  []resourcev1.Device{{Name: "gpu-0"}, {Name: "gpu-1"}},
		},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ResourceSlice %s: %w", slice, err)
	}
	if _, err := s.cs.ResourceV1().ResourceClaimTemplates(ns).Create(s.ctx, &resourcev1.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "one-gpu"},
		Spec: resourcev1.ResourceClaimTemplateSpec{Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
			Requests: []resourcev1.DeviceRequest{{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: class}}},
		}}},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ResourceClaimTemplate: %w", err)
	}
	// One pod after the other: the first two find a free GPU, the third none.
	for i := range 3 {
		p := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: ns},
			Spec: v1.PodSpec{
				SchedulerName:  s.opts.schedulerName,
				NodeSelector:   map[string]string{liveLabel: s.id},
				ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptr("one-gpu")}},
				Containers: []v1.Container{{
					Name: "main", Image: "registry.k8s.io/pause:3.10",
					Resources: v1.ResourceRequirements{
						Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")},
						Claims:   []v1.ResourceClaim{{Name: "gpu"}},
					},
				}},
			},
		}
		if _, err := s.cs.CoreV1().Pods(ns).Create(s.ctx, p, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create pod %s/%s: %w", ns, p.Name, err)
		}
		if i == 1 {
			if err := pods.waitBound(s.ctx, bindDeadline, "the first two GPU pods bound", 2, nil); err != nil {
				return err
			}
		}
	}
	// The third waits: PodScheduled=False, Unschedulable for want of a device (first, for a
	// moment, it may wait for the resourceclaim controller to make its claim: not that).
	var waiting string
	if err := pods.until(s.ctx, bindDeadline, "a GPU pod PodScheduled=False Unschedulable for want of a device", func() (bool, string) {
		for _, p := range pods.pods() {
			if p.Spec.NodeName != "" {
				continue
			}
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable &&
					!strings.Contains(c.Message, "ResourceClaim not created yet") {
					waiting = fmt.Sprintf("%s: %s", p.Name, c.Message)
					return true, waiting
				}
			}
			return false, fmt.Sprintf("%s pending, conditions %v", p.Name, p.Status.Conditions)
		}
		return false, "no pending pod"
	}); err != nil {
		return err
	}
	// Every bound pod's claim allocated (one device on its node) and reserved for it; devices distinct.
	var summary []string
	if err := untilAny(s.ctx, conditionDeadline, "the bound pods' claims allocated and reserved for them", func() (bool, string) {
		summary = nil
		byPod := map[string]*v1.Pod{}
		for _, p := range pods.pods() {
			byPod[p.Name] = p
		}
		devices := map[string]string{}
		allocated := 0
		for _, c := range list[*resourcev1.ResourceClaim](claims) {
			owner := metav1.GetControllerOf(c)
			if owner == nil || owner.Kind != "Pod" {
				return false, fmt.Sprintf("claim %s has no owning pod yet", c.Name)
			}
			pod := byPod[owner.Name]
			if pod == nil {
				return false, fmt.Sprintf("claim %s: pod %s not seen", c.Name, owner.Name)
			}
			if c.Status.Allocation == nil {
				if pod.Spec.NodeName != "" {
					return false, fmt.Sprintf("pod %s bound but claim %s not allocated", pod.Name, c.Name)
				}
				continue
			}
			if pod.Spec.NodeName == "" {
				return false, fmt.Sprintf("claim %s allocated but pod %s not bound", c.Name, pod.Name)
			}
			allocated++
			res := c.Status.Allocation.Devices.Results
			if len(res) != 1 || res[0].Driver != driver || res[0].Pool != node {
				return false, fmt.Sprintf("claim %s: results %+v", c.Name, res)
			}
			if other, dup := devices[res[0].Device]; dup {
				return false, fmt.Sprintf("device %s given to claims %s and %s", res[0].Device, other, c.Name)
			}
			devices[res[0].Device] = c.Name
			if len(c.Status.ReservedFor) != 1 || c.Status.ReservedFor[0].Resource != "pods" ||
				c.Status.ReservedFor[0].Name != pod.Name || c.Status.ReservedFor[0].UID != pod.UID {
				return false, fmt.Sprintf("claim %s reservedFor %+v, want pod %s (%s)", c.Name, c.Status.ReservedFor, pod.Name, pod.UID)
			}
			if sel := c.Status.Allocation.NodeSelector; sel == nil || len(sel.NodeSelectorTerms) != 1 ||
				len(sel.NodeSelectorTerms[0].MatchFields) != 1 || sel.NodeSelectorTerms[0].MatchFields[0].Values[0] != node {
				return false, fmt.Sprintf("claim %s nodeSelector %+v, want metadata.name in [%s]", c.Name, sel, node)
			}
			summary = append(summary, fmt.Sprintf("%s→%s", pod.Name, res[0].Device))
		}
		if b, n := pods.boundCount(nil); b != 2 || n != 3 {
			return false, fmt.Sprintf("%d of %d pods bound, want 2 of 3", b, n)
		}
		return allocated == 2, fmt.Sprintf("%d claims allocated", allocated)
	}, claims, pods.watched); err != nil {
		return err
	}
	if p := pods.problems(); len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	sort.Strings(summary)
	s.note("%s; %s", strings.Join(summary, ", "), waiting)
	return nil
}
