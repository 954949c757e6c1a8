package result

import (
	"fmt"
	"reflect"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// State is what the run left in the control plane (final objects of the run's namespaces)
// plus what only the watch saw.
type State struct {
	Pods, PodGroups, CompositePodGroups, Workloads, ResourceClaims, Jobs []*unstructured.Unstructured
	// Evictions seen by the watch (pod, node, preemptor).
	Evictions []Eviction
	// RunningAtStart: "ns/name" of the pods the input gave with spec.nodeName; every other bound
	// pod was placed by this run.
	RunningAtStart map[string]bool
	// ClaimsAllocatedAtStart: "ns/name" of input ResourceClaims that came allocated.
	ClaimsAllocatedAtStart map[string]bool
}

// Build turns the final state into a ScheduleResult (sorted).
//   - bindings: pods with spec.nodeName that did not arrive with one (input pods created
//     pending and pods the Job controller created), not being deleted;
//   - pending: pods without spec.nodeName, with their PodScheduled condition's reason/message;
//   - evictions: as watched;
//   - groups: every PodGroup (minCount: gang.minCount, 1 for basic; scheduled: member pods with a
//     node that have not terminated — a Succeeded or Failed member does not count toward the
//     gang's quorum in v1.37.2 either) and CompositePodGroup (minGroupCount: gang.minGroupCount, 1 for basic; scheduled:
//     children meeting their own quorum, as wasched counts), with `parent` and the status
//     conditions in the object's order;
//   - allocations: ResourceClaims allocated in this run, with their controller owner and devices;
//   - generated: Workloads, CompositePodGroups, PodGroups and Pods owned by a Job, trimmed to
//     the fields wasched writes (see generated.go).
func Build(s State) *Result {
	r := New()
	jobsByUID := map[string]*unstructured.Unstructured{}
	for _, j := range s.Jobs {
		jobsByUID[string(j.GetUID())] = j
	}
	bound := map[string]int{} // "ns/podgroup" → bound members
	for _, p := range s.Pods {
		if p.GetDeletionTimestamp() != nil {
			continue
		}
		key := p.GetNamespace() + "/" + p.GetName()
		node, _, _ := unstructured.NestedString(p.Object, "spec", "nodeName")
		if node != "" {
			phase, _, _ := unstructured.NestedString(p.Object, "status", "phase")
			terminated := phase == "Succeeded" || phase == "Failed"
			if pg, _, _ := unstructured.NestedString(p.Object, "spec", "schedulingGroup", "podGroupName"); pg != "" && !terminated {
				bound[p.GetNamespace()+"/"+pg]++
			}
			if !s.RunningAtStart[key] {
				r.Bindings = append(r.Bindings, Binding{Pod: key, Node: node})
			}
			continue
		}
		reason, message := podScheduled(p)
		r.Pending = append(r.Pending, Pending{Pod: key, Reason: reason, Message: message})
	}
	r.Evictions = append(r.Evictions, s.Evictions...)

	// Groups: PodGroups first, then CompositePodGroups bottom-up for `scheduled`.
	type cpgInfo struct {
		u        *unstructured.Unstructured
		min      int
		children []string // "pg:ns/name" or "cpg:ns/name"
	}
	pgMin := map[string]int{}
	cpgs := map[string]*cpgInfo{}
	for _, g := range s.CompositePodGroups {
		key := g.GetNamespace() + "/" + g.GetName()
		min := 1
		if v, ok := nestedInt(g.Object, "spec", "schedulingPolicy", "gang", "minGroupCount"); ok {
			min = int(v)
		}
		cpgs[key] = &cpgInfo{u: g, min: min}
	}
	for _, g := range s.CompositePodGroups {
		if p, _, _ := unstructured.NestedString(g.Object, "spec", "parentCompositePodGroupName"); p != "" {
			if parent := cpgs[g.GetNamespace()+"/"+p]; parent != nil {
				parent.children = append(parent.children, "cpg:"+g.GetNamespace()+"/"+g.GetName())
			}
		}
	}
	for _, g := range s.PodGroups {
		key := g.GetNamespace() + "/" + g.GetName()
		min := 1
		if v, ok := nestedInt(g.Object, "spec", "schedulingPolicy", "gang", "minCount"); ok {
			min = int(v)
		}
		pgMin[key] = min
		grp := Group{Kind: "PodGroup", Name: key, Scheduled: bound[key], MinCount: intPtr(min), Conditions: conditions(g)}
		if p, _, _ := unstructured.NestedString(g.Object, "spec", "parentCompositePodGroupName"); p != "" {
			grp.Parent = strPtr(g.GetNamespace() + "/" + p)
			if parent := cpgs[g.GetNamespace()+"/"+p]; parent != nil {
				parent.children = append(parent.children, "pg:"+key)
			}
		}
		r.Groups = append(r.Groups, grp)
	}
	memo := map[string]int{}
	var cpgScheduled func(key string, depth int) int
	cpgScheduled = func(key string, depth int) int {
		if v, ok := memo[key]; ok {
			return v
		}
		memo[key] = 0 // a cycle counts nothing
		if depth > 64 {
			return 0
		}
		n := 0
		for _, ch := range cpgs[key].children {
			if ch[:3] == "pg:" {
				if bound[ch[3:]] >= pgMin[ch[3:]] {
					n++
				}
			} else if c := cpgs[ch[4:]]; c != nil && cpgScheduled(ch[4:], depth+1) >= c.min {
				n++
			}
		}
		memo[key] = n
		return n
	}
	for key, info := range cpgs {
		grp := Group{Kind: "CompositePodGroup", Name: key, Scheduled: cpgScheduled(key, 0),
			MinGroupCount: intPtr(info.min), Conditions: conditions(info.u)}
		if p, _, _ := unstructured.NestedString(info.u.Object, "spec", "parentCompositePodGroupName"); p != "" {
			grp.Parent = strPtr(info.u.GetNamespace() + "/" + p)
		}
		r.Groups = append(r.Groups, grp)
	}

	for _, c := range s.ResourceClaims {
		key := c.GetNamespace() + "/" + c.GetName()
		results, ok, _ := unstructured.NestedSlice(c.Object, "status", "allocation", "devices", "results")
		if !ok || s.ClaimsAllocatedAtStart[key] {
			continue
		}
		a := Allocation{Claim: key, Devices: []Device{}}
		for _, ref := range c.GetOwnerReferences() {
			if ref.Controller != nil && *ref.Controller {
				a.Owner = ref.Kind + " " + c.GetNamespace() + "/" + ref.Name
			}
		}
		for _, ri := range results {
			m, _ := ri.(map[string]interface{})
			a.Devices = append(a.Devices, Device{Request: str(m["request"]), Driver: str(m["driver"]), Pool: str(m["pool"]), Device: str(m["device"])})
		}
		r.Allocations = append(r.Allocations, a)
	}

	r.Generated = Generated(s, jobsByUID)
	r.Sort()
	return r
}

// podScheduled returns the PodScheduled condition's reason and message.
func podScheduled(p *unstructured.Unstructured) (string, string) {
	conds, _, _ := unstructured.NestedSlice(p.Object, "status", "conditions")
	for _, ci := range conds {
		m, _ := ci.(map[string]interface{})
		if m["type"] == "PodScheduled" {
			return str(m["reason"]), str(m["message"])
		}
	}
	return "", ""
}

func conditions(u *unstructured.Unstructured) []Condition {
	out := []Condition{}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, ci := range conds {
		m, _ := ci.(map[string]interface{})
		out = append(out, Condition{Type: str(m["type"]), Status: str(m["status"]), Reason: str(m["reason"]), Message: str(m["message"])})
	}
	return out
}

func str(v interface{}) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	default:
		return fmt.Sprint(t)
	}
}

func intPtr(v int) *int       { return &v }
func strPtr(v string) *string { return &v }

// ownedByJob returns the Job controlling u (directly, or through a Workload it owns), if any.
func ownedByJob(u *unstructured.Unstructured, jobs map[string]*unstructured.Unstructured) *unstructured.Unstructured {
	for _, ref := range u.GetOwnerReferences() {
		if ref.Kind == "Job" {
			if j := jobs[string(ref.UID)]; j != nil {
				return j
			}
		}
	}
	return nil
}

// sortObjects sorts by namespace/name.
func sortObjects(objs []*unstructured.Unstructured) {
	sort.SliceStable(objs, func(i, j int) bool {
		if objs[i].GetNamespace() != objs[j].GetNamespace() {
			return objs[i].GetNamespace() < objs[j].GetNamespace()
		}
		return objs[i].GetName() < objs[j].GetName()
	})
}

func containsEqual(list []interface{}, v interface{}) bool {
	for _, x := range list {
		if reflect.DeepEqual(x, v) {
			return true
		}
	}
	return false
}

// nestedInt reads an integer decoded from the API (int64) or from YAML/JSON (float64).
func nestedInt(obj map[string]interface{}, path ...string) (int64, bool) {
	v, ok, _ := unstructured.NestedFieldNoCopy(obj, path...)
	if !ok {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		return int64(n), true
	}
	return 0, false
}
