// scenarios.go: the scheduling scenarios of issue 17's acceptance that make sense for any
// workload-aware scheduler (kube-scheduler included): a gang that fits, one that does not, nodes
// added later, whole-gang preemption, a Job with `.spec.scheduling`, a CompositePodGroup tree and
// a refused binding. Each one states its cluster, what it creates and what it checks.
package main

import (
	"fmt"
	"sort"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	schedalpha "k8s.io/api/scheduling/v1alpha3"
	schedbeta "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"
)

// Deadlines of the waits (a scenario has its own overall deadline besides).
const (
	bindDeadline      = 60 * time.Second
	conditionDeadline = 60 * time.Second
)

// watchPodGroups watches the PodGroups of ns for the rest of the scenario.
func (s *sc) watchPodGroups(ns string) (*watched, error) {
	lw := cache.NewListWatchFromClient(s.cs.SchedulingV1beta1().RESTClient(), "podgroups", ns, fields.Everything())
	return watchList(s.ctx, lw, &schedbeta.PodGroup{}, hooks{})
}

// waitCondition waits until PodGroup name carries PodGroupInitiallyScheduled with status (and,
// for False, a non-empty message) and returns the condition.
func (s *sc) waitCondition(pgs *watched, name string, status metav1.ConditionStatus) (*metav1.Condition, error) {
	var got *metav1.Condition
	err := pgs.until(s.ctx, conditionDeadline, fmt.Sprintf("PodGroup %s PodGroupInitiallyScheduled=%s", name, status), func() (bool, string) {
		for _, pg := range list[*schedbeta.PodGroup](pgs) {
			if pg.Name != name {
				continue
			}
			c := meta.FindStatusCondition(pg.Status.Conditions, schedbeta.PodGroupInitiallyScheduled)
			if c == nil {
				return false, fmt.Sprintf("no condition (conditions %v)", pg.Status.Conditions)
			}
			got = c.DeepCopy()
			ok := c.Status == status && (status != metav1.ConditionFalse || c.Message != "")
			return ok, fmt.Sprintf("%s reason %q message %q", c.Status, c.Reason, c.Message)
		}
		return false, "no such PodGroup"
	})
	return got, err
}

// describe renders a condition for the PASS line.
func describe(c *metav1.Condition) string {
	msg := c.Message
	if len(msg) > 400 {
		msg = msg[:400] + "…"
	}
	return fmt.Sprintf("%s=%s reason %q message %q", c.Type, c.Status, c.Reason, msg)
}

// gangFits: 4 nodes of 4 CPUs, a gang of 8 pods of 1 CPU (minCount 8) → all 8 bound and
// PodGroupInitiallyScheduled=True.
func gangFits(s *sc) error {
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	return fitsIn(s, ns)
}

// fitsIn is gang-fits in namespace ns (the rbac scenario runs it under another identity).
func fitsIn(s *sc, ns string) error {
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return err
	}
	pgs, err := s.watchPodGroups(ns)
	if err != nil {
		return err
	}
	if _, err := s.nodes(nodeSpec{prefix: "n", count: 4, cpu: "4"}); err != nil {
		return err
	}
	g := gangSpec{ns: ns, name: "fits", size: 8, cpu: "1"}
	if err := s.gang(g); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "gang fits: all 8 pods bound", 8, inGang("fits")); err != nil {
		return err
	}
	c, err := s.waitCondition(pgs, "fits", metav1.ConditionTrue)
	if err != nil {
		return err
	}
	if p := pods.problems(); len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	s.note("8/8 bound; %s", describe(c))
	return nil
}

// noFit creates 2 nodes of 4 CPUs and a gang of 8 pods of 2 CPUs (16 CPUs wanted, 8 there: 4 pods
// would fit one by one) and checks that PodGroupInitiallyScheduled becomes False with a message
// while none of its pods is bound.
func noFit(s *sc) (string, *podTracker, error) {
	ns, err := s.namespace("")
	if err != nil {
		return "", nil, err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return "", nil, err
	}
	pgs, err := s.watchPodGroups(ns)
	if err != nil {
		return "", nil, err
	}
	if _, err := s.nodes(nodeSpec{prefix: "n", count: 2, cpu: "4"}); err != nil {
		return "", nil, err
	}
	if err := s.gang(gangSpec{ns: ns, name: "big", size: 8, cpu: "2"}); err != nil {
		return "", nil, err
	}
	c, err := s.waitCondition(pgs, "big", metav1.ConditionFalse)
	if err != nil {
		return "", nil, err
	}
	if b, n := pods.boundCount(nil); b != 0 {
		return "", nil, fmt.Errorf("gang does not fit but %d of its %d pods are bound", b, n)
	}
	// Every pod should say why it waits.
	unsched := 0
	for _, p := range pods.pods() {
		for _, pc := range p.Status.Conditions {
			if pc.Type == v1.PodScheduled && pc.Status == v1.ConditionFalse {
				unsched++
			}
		}
	}
	s.note("0/8 bound; %s; %d/8 pods PodScheduled=False", describe(c), unsched)
	return ns, pods, nil
}

func gangNoFit(s *sc) error {
	_, _, err := noFit(s)
	return err
}

// nodesAddedLater: the gang of gang-no-fit, then 2 more nodes of 4 CPUs → all 8 bound (the node
// events alone must wake the scheduler).
func nodesAddedLater(s *sc) error {
	_, pods, err := noFit(s)
	if err != nil {
		return err
	}
	added := time.Now()
	if _, err := s.nodes(nodeSpec{prefix: "later", count: 2, cpu: "4"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "all 8 pods bound after 2 nodes were added", 8, nil); err != nil {
		return err
	}
	s.note("all 8 bound %.1fs after the nodes were added", time.Since(added).Seconds())
	return nil
}

// preemptGang: 4 nodes of 4 CPUs filled by a low-priority gang of 8 pods of 2 CPUs with
// disruptionMode all; a high-priority gang of 2 pods of 4 CPUs needs 2 nodes → every low pod
// (all 8, not only the 4 in the way: the gang is disrupted as a whole) is deleted and the high
// gang binds whole.
func preemptGang(s *sc) error {
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return err
	}
	low, err := s.priorityClass("low", 100)
	if err != nil {
		return err
	}
	high, err := s.priorityClass("high", 1000)
	if err != nil {
		return err
	}
	if _, err := s.nodes(nodeSpec{prefix: "n", count: 4, cpu: "4"}); err != nil {
		return err
	}
	if err := s.gang(gangSpec{ns: ns, name: "low", size: 8, cpu: "2", priorityClass: low, disruptAll: true}); err != nil {
		return err
	}
	if err := pods.until(s.ctx, bindDeadline, "the low gang bound and Running", func() (bool, string) {
		running := 0
		for _, p := range pods.pods() {
			if inGang("low")(p) && p.Spec.NodeName != "" && p.Status.Phase == v1.PodRunning {
				running++
			}
		}
		return running == 8, fmt.Sprintf("%d/8 running", running)
	}); err != nil {
		return err
	}
	arrived := time.Now()
	if err := s.gang(gangSpec{ns: ns, name: "high", size: 2, cpu: "4", priorityClass: high, disruptAll: true}); err != nil {
		return err
	}
	if err := pods.until(s.ctx, 2*bindDeadline, "every low pod deleted and the high gang bound", func() (bool, string) {
		lowLeft, highBound := 0, 0
		for _, p := range pods.pods() {
			if inGang("low")(p) {
				lowLeft++
			}
			if inGang("high")(p) && p.Spec.NodeName != "" {
				highBound++
			}
		}
		return lowLeft == 0 && highBound == 2, fmt.Sprintf("%d low pods left, %d/2 high bound", lowLeft, highBound)
	}); err != nil {
		return err
	}
	s.note("8/8 low pods deleted, 2/2 high bound %.1fs after the high gang arrived", time.Since(arrived).Seconds())
	return nil
}

// jobScenario: a batch/v1 Job (parallelism 4, Indexed) with `.spec.scheduling` gang {} whose
// template names the scheduler; kube-controller-manager creates its Workload, PodGroup and pods
// (gate WorkloadWithJob) → all 4 pods bound and the PodGroup PodGroupInitiallyScheduled=True.
func jobScenario(s *sc) error {
	ns, pods, pgs, err := s.arena(nodeSpec{prefix: "n", count: 2, cpu: "4"}, true)
	if err != nil {
		return err
	}
	four := int32(4)
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: ns},
		Spec: batchv1.JobSpec{
			Parallelism: &four, Completions: &four, CompletionMode: ptr(batchv1.IndexedCompletion),
			Scheduling: &batchv1.JobSchedulingConfiguration{
				SchedulingPolicy: &schedalpha.WorkloadPodGroupSchedulingPolicy{Gang: &schedalpha.WorkloadPodGroupGangSchedulingPolicy{}},
			},
			Template: v1.PodTemplateSpec{Spec: v1.PodSpec{
				RestartPolicy: v1.RestartPolicyNever,
				SchedulerName: s.opts.schedulerName,
				NodeSelector:  map[string]string{liveLabel: s.id},
				Containers: []v1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10",
					Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}},
			}},
		},
	}
	if _, err := s.cs.BatchV1().Jobs(ns).Create(s.ctx, job, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create Job %s/train: %w", ns, err)
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "the Job's 4 pods bound", 4, nil); err != nil {
		return err
	}
	var pgName string
	if err := pgs.until(s.ctx, conditionDeadline, "the Job's PodGroup", func() (bool, string) {
		l := list[*schedbeta.PodGroup](pgs)
		if len(l) != 1 {
			return false, fmt.Sprintf("%d PodGroups", len(l))
		}
		pgName = l[0].Name
		return true, ""
	}); err != nil {
		return err
	}
	c, err := s.waitCondition(pgs, pgName, metav1.ConditionTrue)
	if err != nil {
		return err
	}
	groups := map[string]bool{}
	for _, p := range pods.pods() {
		if p.Spec.SchedulingGroup != nil && p.Spec.SchedulingGroup.PodGroupName != nil {
			groups[*p.Spec.SchedulingGroup.PodGroupName] = true
		}
	}
	if len(groups) != 1 || !groups[pgName] {
		return fmt.Errorf("the Job's pods name PodGroups %v, want only %s", keys(groups), pgName)
	}
	s.note("4/4 bound; PodGroup %s %s", pgName, describe(c))
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Topology labels of the composite-tree nodes.
const (
	zoneKey = "topology.kubernetes.io/zone"
	rackKey = "wasched.io/rack"
)

// compositeTree: nodes in 2 zones × 2 racks × 2 nodes of 4 CPUs; a CompositePodGroup (gang of
// its 2 children, topology zone) over 2 gang PodGroups of 4 pods of 2 CPUs (topology rack) →
// all 8 pods in one zone, each child's pods in one rack. Without the constraints the default
// scoring spreads them over all 8 nodes.
func compositeTree(s *sc) error {
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return err
	}
	zoneOf, rackOf := map[string]string{}, map[string]string{}
	for _, z := range []string{"a", "b"} {
		for _, r := range []string{"1", "2"} {
			zone, rack := "zone-"+z, "rack-"+z+r
			names, err := s.nodes(nodeSpec{prefix: z + r, count: 2, cpu: "4", labels: map[string]string{zoneKey: zone, rackKey: rack}})
			if err != nil {
				return err
			}
			for _, n := range names {
				zoneOf[n], rackOf[n] = zone, rack
			}
		}
	}
	root := &schedalpha.CompositePodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: "root", Namespace: ns},
		Spec: schedalpha.CompositePodGroupSpec{
			WorkloadRef:      &schedalpha.WorkloadReference{WorkloadName: "tree", TemplateName: "root"},
			SchedulingPolicy: schedalpha.CompositePodGroupSchedulingPolicy{Gang: &schedalpha.CompositeGangSchedulingPolicy{MinGroupCount: 2}},
			SchedulingConstraints: &schedalpha.CompositePodGroupSchedulingConstraints{
				Topology: []schedalpha.TopologyConstraint{{Key: zoneKey}},
			},
		},
	}
	if _, err := s.cs.SchedulingV1alpha3().CompositePodGroups(ns).Create(s.ctx, root, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create CompositePodGroup %s/root: %w", ns, err)
	}
	children := []string{"left", "right"}
	for _, child := range children {
		g := gangSpec{ns: ns, name: child, size: 4, cpu: "2", parent: "root", topologyKey: rackKey}
		pg := podGroup(g)
		pg.Spec.WorkloadRef = &schedbeta.WorkloadReference{WorkloadName: "tree", TemplateName: child}
		if _, err := s.cs.SchedulingV1beta1().PodGroups(ns).Create(s.ctx, pg, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create PodGroup %s/%s: %w", ns, child, err)
		}
		for i := range g.size {
			if _, err := s.cs.CoreV1().Pods(ns).Create(s.ctx, gangPod(g, i, s.opts.schedulerName, s.id), metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("create pod: %w", err)
			}
		}
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "all 8 tree members bound", 8, nil); err != nil {
		return err
	}
	zones, racks := map[string]bool{}, map[string]map[string]bool{}
	for _, p := range pods.pods() {
		zones[zoneOf[p.Spec.NodeName]] = true
		g := p.Labels["gang"]
		if racks[g] == nil {
			racks[g] = map[string]bool{}
		}
		racks[g][rackOf[p.Spec.NodeName]] = true
	}
	if len(zones) != 1 {
		return fmt.Errorf("tree members in zones %v, want one zone", keys(zones))
	}
	for _, child := range children {
		if len(racks[child]) != 1 {
			return fmt.Errorf("PodGroup %s members in racks %v, want one rack", child, keys(racks[child]))
		}
	}
	s.note("8/8 bound in %v; left in %v, right in %v", keys(zones), keys(racks["left"]), keys(racks["right"]))
	return nil
}
