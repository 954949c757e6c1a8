package batch

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wasched.io/reference/internal/result"
)

// Filter keeps the part of a batch's final state that belongs to the case (its renamed
// namespaces).
func (c *Case) Filter(s result.State) result.State {
	mine := func(ns string) bool { return strings.HasPrefix(ns, c.Prefix) }
	keep := func(list []*unstructured.Unstructured) []*unstructured.Unstructured {
		var out []*unstructured.Unstructured
		for _, u := range list {
			if mine(u.GetNamespace()) {
				out = append(out, u)
			}
		}
		return out
	}
	out := result.State{
		Pods: keep(s.Pods), PodGroups: keep(s.PodGroups), CompositePodGroups: keep(s.CompositePodGroups),
		Workloads: keep(s.Workloads), ResourceClaims: keep(s.ResourceClaims), Jobs: keep(s.Jobs),
		RunningAtStart: s.RunningAtStart, ClaimsAllocatedAtStart: s.ClaimsAllocatedAtStart,
	}
	for _, e := range s.Evictions {
		if mine(e.Pod) {
			out.Evictions = append(out.Evictions, e)
		}
	}
	return out
}

// MapBack renames a case's result to its input names: the prefix is removed from every string
// (names, nodes, preemptors, messages, generated objects), the case label is removed from the
// generated pods' nodeSelector, and node counts of "N/M nodes are available" messages are
// corrected (NormalizeMessage). caseNodes and clusterNodes are the node counts of the case and
// of the whole batch.
func (c *Case) MapBack(r *result.Result, caseNodes, clusterNodes int) {
	strip := func(s string) string { return strings.ReplaceAll(s, c.Prefix, "") }
	msg := func(s string) string { return NormalizeMessage(strip(s), clusterNodes-caseNodes) }
	for i := range r.Bindings {
		r.Bindings[i].Pod, r.Bindings[i].Node = strip(r.Bindings[i].Pod), strip(r.Bindings[i].Node)
	}
	for i := range r.Pending {
		p := &r.Pending[i]
		p.Pod, p.Message = strip(p.Pod), msg(p.Message)
	}
	for i := range r.Evictions {
		e := &r.Evictions[i]
		e.Pod, e.Node, e.Preemptor = strip(e.Pod), strip(e.Node), strip(e.Preemptor)
	}
	for i := range r.Groups {
		g := &r.Groups[i]
		g.Name = strip(g.Name)
		if g.Parent != nil {
			p := strip(*g.Parent)
			g.Parent = &p
		}
		for j := range g.Conditions {
			g.Conditions[j].Message = msg(g.Conditions[j].Message)
		}
	}
	for i := range r.Allocations {
		a := &r.Allocations[i]
		a.Claim, a.Owner = strip(a.Claim), strip(a.Owner)
		for j := range a.Devices {
			a.Devices[j].Pool = strip(a.Devices[j].Pool)
		}
	}
	for i := range r.Generated {
		r.Generated[i] = rewriteOMap(r.Generated[i], strip)
	}
	r.Sort()
}

// rewriteOMap applies f to every string value, drops the case label from nodeSelector maps.
func rewriteOMap(m result.OMap, f func(string) string) result.OMap {
	var out result.OMap
	for _, k := range m.Keys {
		v := rewriteValue(m.Values[k], f)
		if k == "nodeSelector" {
			if sel, ok := v.(map[string]interface{}); ok {
				delete(sel, CaseLabel)
				if len(sel) == 0 {
					continue
				}
			}
		}
		out.Set(k, v)
	}
	return out
}

func rewriteValue(v interface{}, f func(string) string) interface{} {
	switch t := v.(type) {
	case string:
		return f(t)
	case result.OMap:
		return rewriteOMap(t, f)
	case []result.OMap:
		out := make([]result.OMap, len(t))
		for i := range t {
			out[i] = rewriteOMap(t[i], f)
		}
		return out
	case map[string]string:
		out := map[string]string{}
		for k, s := range t {
			out[k] = f(s)
		}
		return out
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, s := range t {
			out[k] = rewriteValue(s, f)
		}
		if sel, ok := out["nodeSelector"].(map[string]interface{}); ok {
			delete(sel, CaseLabel)
			if len(sel) == 0 {
				delete(out, "nodeSelector")
			}
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i := range t {
			out[i] = rewriteValue(t[i], f)
		}
		return out
	default:
		return v
	}
}

var availableRe = regexp.MustCompile(`(\d+)/(\d+) nodes are available: ([^.]*)\.`)

// pinReasons: the reasons other cases' nodes add. In a scheduling attempt the case label
// fails NodeAffinity; in preemption those nodes are unresolvable.
var pinReasons = []string{"node(s) didn't match Pod's node affinity/selector", "Preemption is not helpful for scheduling"}

// NormalizeMessage removes `others` nodes from every "A/N nodes are available: K reason, ..."
// part of a scheduler message: N becomes N-others and the count of the pinning reason drops
// by others (the entry disappears at 0); the reasons are sorted again as kube-scheduler sorts
// them (as strings). A part whose pinning reason counts fewer than `others` is left as is.
func NormalizeMessage(s string, others int) string {
	if others <= 0 {
		return s
	}
	return availableRe.ReplaceAllStringFunc(s, func(part string) string {
		m := availableRe.FindStringSubmatch(part)
		avail, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		reasons := strings.Split(m[3], ", ")
		fixed := false
		var out []string
		for _, r := range reasons {
			countStr, text, ok := strings.Cut(r, " ")
			n, err := strconv.Atoi(countStr)
			if !ok || err != nil {
				out = append(out, r)
				continue
			}
			if !fixed {
				for _, pr := range pinReasons {
					if text == pr && n >= others {
						n -= others
						fixed = true
						break
					}
				}
			}
			if n > 0 {
				out = append(out, strconv.Itoa(n)+" "+text)
			}
		}
		if !fixed {
			return part
		}
		sort.Strings(out)
		return strconv.Itoa(avail) + "/" + strconv.Itoa(total-others) + " nodes are available: " + strings.Join(out, ", ") + "."
	})
}
