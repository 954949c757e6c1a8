// Package batch runs many differential cases at once in one control plane
// (`wasched-reference schedule-batch`). Each case is renamed so that no two cases can interact,
// the whole batch is scheduled in one run (package run), and each case's result is mapped back
// to its original names.
//
// # What the transform changes (prefix P = "wr<NNNN>-", case label wasched.io/reference-case=wr<NNNN>)
//
//   - Namespaces: ns → P+ns. Cluster-scoped names: Nodes, PriorityClasses (except the built-in
//     system-* classes), DeviceClasses, ResourceSlices → P+name; ResourceSlice pools → P+pool.
//   - Node labels: every value → P+value (topology domains, hostnames and any other label become
//     the case's own), plus the case label.
//   - References follow: a pod's (and a Job's pod template's) spec.nodeName, priorityClassName,
//     nodeSelector values, node affinity In/NotIn values and metadata.name matchFields, preferred
//     terms included; PodGroup, CompositePodGroup and Workload template priorityClassName; claim
//     and claim-template deviceClassName; a ResourceSlice's nodeName, nodeSelector values and
//     per-device node fields.
//   - Pinning: every pod and Job pod template gets nodeSelector wasched.io/reference-case=wr<NNNN>;
//     a ResourceSlice (or device) for allNodes gets a node selector on the case label instead,
//     and node selectors of slices get the case label added to each term.
//
// # Why the outcome cannot change
//
// Each case only sees its own nodes: the added nodeSelector fails every other case's node in
// Filter (NodeAffinity, UnschedulableAndUnresolvable), so those nodes are neither scored nor
// preemption candidates (DefaultPreemption and pod-group preemption skip nodes that are
// unresolvable); victims can only be found on the case's nodes, and pod groups, PDBs, claims and
// templates are namespaced, hence per case. Topology placements enumerate label values; with
// prefixed values every case's domains are its own, so placement feasibility and PlacementScore
// see only the case's nodes. Renaming keeps every name's relative order inside a case (same
// prefix), so tie-breaks by name do not change. kube-scheduler scores every feasible node
// (percentageOfNodesToScore 100 in the reference configuration), so the extra nodes cannot shorten
// the search. What does change are messages that count nodes or placements over the whole
// cluster ("0/N nodes are available: M node(s) didn't match Pod's node affinity/selector"); the
// node counts are corrected back where the message has that form (NormalizeMessage), and the
// differential suite compares reasons, not messages.
//
//   - Pod (anti-)affinity terms: `namespaces` entries and namespaceSelector
//     kubernetes.io/metadata.name In values → P+ns (topology values are already the case's own,
//     so terms over other cases' pods can never share a domain with this case's nodes).
//
// Cases that cannot be renamed faithfully run alone (Solo): a globalDefault PriorityClass (it
// would apply to every case's pods), a renamed name or label value over its length limit, a
// Gt/Lt node-affinity operator (numeric label values cannot carry a prefix), a spread constraint
// with nodeAffinityPolicy Ignore (every case's nodes would be domains of the constraint), and a
// pod affinity term's namespaceSelector that is empty or names other namespace labels (it would
// select the other cases' namespaces, whose pods make the first-pod rule of required affinity
// fail).
package batch

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/manifest"
)

// CaseLabel pins a case's pods to its nodes.
const CaseLabel = "wasched.io/reference-case"

// Case is one folder of the suite.
type Case struct {
	Name   string // folder name, the output file's base name
	Dir    string
	Objs   []manifest.Object
	Prefix string // "wr0007-"
	Value  string // "wr0007": the case label's value
	Solo   string // why the case runs alone ("" when it can share a run)
}

// NewCase names case number i.
func NewCase(i int, name, dir string, objs []manifest.Object) *Case {
	v := fmt.Sprintf("wr%04d", i)
	return &Case{Name: name, Dir: dir, Objs: objs, Prefix: v + "-", Value: v}
}

type transformError string

func (e transformError) Error() string { return string(e) }

// Transform returns the renamed copies of the case's objects. It sets c.Solo (and returns the
// objects unchanged) when the case cannot be renamed faithfully.
func (c *Case) Transform() []manifest.Object {
	out := make([]manifest.Object, 0, len(c.Objs))
	for _, o := range c.Objs {
		u := o.DeepCopy()
		if err := c.rewrite(u); err != nil {
			c.Solo = err.Error()
			return c.Objs
		}
		cp := o
		cp.Unstructured = u
		out = append(out, cp)
	}
	return out
}

func (c *Case) name(s string, limit int) (string, error) {
	n := c.Prefix + s
	if len(n) > limit {
		return "", transformError(fmt.Sprintf("renamed %q is longer than %d characters", n, limit))
	}
	return n, nil
}

func (c *Case) rewrite(u *unstructured.Unstructured) error {
	rank := apply.Rank(u)
	if rank == apply.RankSkip {
		return nil
	}
	if rank == apply.RankNamespace {
		n, err := c.name(u.GetName(), 63)
		if err != nil {
			return err
		}
		u.SetName(n)
		return nil
	}
	switch rank {
	case apply.RankNode, apply.RankPriorityClass, apply.RankDeviceClass, apply.RankResourceSlice:
		if rank == apply.RankPriorityClass && strings.HasPrefix(u.GetName(), "system-") {
			return nil
		}
		if g, _, _ := unstructured.NestedBool(u.Object, "globalDefault"); g && rank == apply.RankPriorityClass {
			return transformError("a globalDefault PriorityClass applies to every case's pods")
		}
		n, err := c.name(u.GetName(), 253)
		if err != nil {
			return err
		}
		u.SetName(n)
	default:
		ns := u.GetNamespace()
		if ns == "" {
			ns = "default"
		}
		n, err := c.name(ns, 63)
		if err != nil {
			return err
		}
		u.SetNamespace(n)
	}
	switch rank {
	case apply.RankNode:
		labels := u.GetLabels()
		out := map[string]string{}
		for k, v := range labels {
			nv, err := c.name(v, 63)
			if err != nil {
				return err
			}
			out[k] = nv
		}
		out[CaseLabel] = c.Value
		u.SetLabels(out)
	case apply.RankPendingPod, apply.RankRunningPod:
		return c.podSpec(u.Object, "spec")
	case apply.RankJob:
		return c.podSpec(u.Object, "spec", "template", "spec")
	case apply.RankPodGroup, apply.RankCompositePodGroup:
		return c.priorityClass(u.Object, "spec", "priorityClassName")
	case apply.RankWorkload:
		return c.templates(u.Object, "spec")
	case apply.RankResourceClaim:
		return c.deviceClasses(u.Object, "spec", "devices", "requests")
	case apply.RankResourceClaimTemplate:
		return c.deviceClasses(u.Object, "spec", "spec", "devices", "requests")
	case apply.RankResourceSlice:
		return c.slice(u.Object)
	}
	return nil
}

func (c *Case) priorityClass(obj map[string]interface{}, path ...string) error {
	v, ok, _ := unstructured.NestedString(obj, path...)
	if !ok || v == "" || strings.HasPrefix(v, "system-") {
		return nil
	}
	n, err := c.name(v, 253)
	if err != nil {
		return err
	}
	return unstructured.SetNestedField(obj, n, path...)
}

// templates renames priorityClassName in a Workload's (or CompositePodGroupTemplate's) templates.
func (c *Case) templates(obj map[string]interface{}, path ...string) error {
	for _, key := range []string{"podGroupTemplates", "compositePodGroupTemplates"} {
		list, ok, _ := unstructured.NestedSlice(obj, append(path, key)...)
		if !ok {
			continue
		}
		for i := range list {
			m, ok := list[i].(map[string]interface{})
			if !ok {
				continue
			}
			if err := c.priorityClass(m, "priorityClassName"); err != nil {
				return err
			}
			if err := c.templates(m); err != nil {
				return err
			}
		}
		if err := unstructured.SetNestedSlice(obj, list, append(path, key)...); err != nil {
			return err
		}
	}
	return nil
}

// podSpec rewrites the scheduling fields of a pod spec at path and pins it to the case.
func (c *Case) podSpec(obj map[string]interface{}, path ...string) error {
	spec, ok, _ := unstructured.NestedMap(obj, path...)
	if !ok {
		spec = map[string]interface{}{}
	}
	if n, _ := spec["nodeName"].(string); n != "" {
		nn, err := c.name(n, 253)
		if err != nil {
			return err
		}
		spec["nodeName"] = nn
	}
	if err := c.priorityClass(spec, "priorityClassName"); err != nil {
		return err
	}
	sel, _ := spec["nodeSelector"].(map[string]interface{})
	if sel == nil {
		sel = map[string]interface{}{}
	}
	for k, v := range sel {
		s, _ := v.(string)
		nv, err := c.name(s, 63)
		if err != nil {
			return err
		}
		sel[k] = nv
	}
	sel[CaseLabel] = c.Value
	spec["nodeSelector"] = sel
	if cs, _ := spec["topologySpreadConstraints"].([]interface{}); cs != nil {
		for _, x := range cs {
			if m, _ := x.(map[string]interface{}); m != nil && m["nodeAffinityPolicy"] == "Ignore" {
				return transformError("a spread constraint with nodeAffinityPolicy Ignore counts every case's nodes as domains")
			}
		}
	}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		pa, ok, _ := unstructured.NestedMap(spec, "affinity", kind)
		if !ok {
			continue
		}
		if err := c.podAffinityTerms(pa); err != nil {
			return err
		}
		_ = unstructured.SetNestedMap(spec, pa, "affinity", kind)
	}
	if na, ok, _ := unstructured.NestedMap(spec, "affinity", "nodeAffinity"); ok {
		if terms, ok, _ := unstructured.NestedSlice(na, "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"); ok {
			if err := c.terms(terms, false); err != nil {
				return err
			}
			_ = unstructured.SetNestedSlice(na, terms, "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
		}
		if prefs, ok, _ := unstructured.NestedSlice(na, "preferredDuringSchedulingIgnoredDuringExecution"); ok {
			for _, p := range prefs {
				pm, _ := p.(map[string]interface{})
				if t, ok := pm["preference"]; ok {
					list := []interface{}{t}
					if err := c.terms(list, false); err != nil {
						return err
					}
				}
			}
			_ = unstructured.SetNestedSlice(na, prefs, "preferredDuringSchedulingIgnoredDuringExecution")
		}
		_ = unstructured.SetNestedMap(spec, na, "affinity", "nodeAffinity")
	}
	return unstructured.SetNestedMap(obj, spec, path...)
}

// podAffinityTerms renames the namespaces of pod (anti-)affinity terms, required and preferred:
// `namespaces` entries and kubernetes.io/metadata.name values of a namespaceSelector (the label
// the API server sets to a namespace's name). An empty namespaceSelector (every namespace) would
// see the other cases' pods: such a case runs alone.
func (c *Case) podAffinityTerms(pa map[string]interface{}) error {
	var terms []map[string]interface{}
	req, _ := pa["requiredDuringSchedulingIgnoredDuringExecution"].([]interface{})
	for _, t := range req {
		if m, ok := t.(map[string]interface{}); ok {
			terms = append(terms, m)
		}
	}
	pref, _ := pa["preferredDuringSchedulingIgnoredDuringExecution"].([]interface{})
	for _, t := range pref {
		if m, ok := t.(map[string]interface{}); ok {
			if pt, ok := m["podAffinityTerm"].(map[string]interface{}); ok {
				terms = append(terms, pt)
			}
		}
	}
	for _, t := range terms {
		if list, ok := t["namespaces"].([]interface{}); ok {
			for i, v := range list {
				s, _ := v.(string)
				n, err := c.name(s, 63)
				if err != nil {
					return err
				}
				list[i] = n
			}
		}
		sel, ok := t["namespaceSelector"].(map[string]interface{})
		if !ok || sel == nil {
			continue
		}
		ml, _ := sel["matchLabels"].(map[string]interface{})
		me, _ := sel["matchExpressions"].([]interface{})
		if len(ml) == 0 && len(me) == 0 {
			return transformError("an empty namespaceSelector selects every case's namespaces")
		}
		for k, v := range ml {
			if k != "kubernetes.io/metadata.name" {
				return transformError("a namespaceSelector on namespace labels other than kubernetes.io/metadata.name")
			}
			s, _ := v.(string)
			n, err := c.name(s, 63)
			if err != nil {
				return err
			}
			ml[k] = n
		}
		for _, r := range me {
			rm, _ := r.(map[string]interface{})
			if k, _ := rm["key"].(string); k != "kubernetes.io/metadata.name" {
				return transformError("a namespaceSelector on namespace labels other than kubernetes.io/metadata.name")
			}
			if op, _ := rm["operator"].(string); op != "In" {
				return transformError("a namespaceSelector other than kubernetes.io/metadata.name In selects other cases' namespaces")
			}
			vals, _ := rm["values"].([]interface{})
			for i, v := range vals {
				s, _ := v.(string)
				n, err := c.name(s, 63)
				if err != nil {
					return err
				}
				vals[i] = n
			}
		}
	}
	return nil
}

// terms rewrites node selector terms in place: In/NotIn values of labels prefixed,
// metadata.name matchFields renamed; with pin, the case label is required in every term.
func (c *Case) terms(terms []interface{}, pin bool) error {
	for _, t := range terms {
		tm, ok := t.(map[string]interface{})
		if !ok {
			continue
		}
		for _, key := range []string{"matchExpressions", "matchFields"} {
			reqs, _ := tm[key].([]interface{})
			for _, r := range reqs {
				rm, _ := r.(map[string]interface{})
				op, _ := rm["operator"].(string)
				if op == "Gt" || op == "Lt" {
					return transformError("a Gt/Lt node selector compares numeric label values, which cannot carry the case prefix")
				}
				vals, _ := rm["values"].([]interface{})
				for i, v := range vals {
					s, _ := v.(string)
					limit := 63
					if key == "matchFields" {
						limit = 253
					}
					nv, err := c.name(s, limit)
					if err != nil {
						return err
					}
					vals[i] = nv
				}
			}
		}
		if pin {
			reqs, _ := tm["matchExpressions"].([]interface{})
			tm["matchExpressions"] = append(reqs, map[string]interface{}{
				"key": CaseLabel, "operator": "In", "values": []interface{}{c.Value},
			})
		}
	}
	return nil
}

func (c *Case) deviceClasses(obj map[string]interface{}, path ...string) error {
	reqs, ok, _ := unstructured.NestedSlice(obj, path...)
	if !ok {
		return nil
	}
	for _, r := range reqs {
		rm, _ := r.(map[string]interface{})
		if ex, ok := rm["exactly"].(map[string]interface{}); ok {
			if err := c.className(ex); err != nil {
				return err
			}
		}
		if fa, ok := rm["firstAvailable"].([]interface{}); ok {
			for _, s := range fa {
				if sm, ok := s.(map[string]interface{}); ok {
					if err := c.className(sm); err != nil {
						return err
					}
				}
			}
		}
		if err := c.className(rm); err != nil { // older shape: deviceClassName on the request
			return err
		}
	}
	return unstructured.SetNestedSlice(obj, reqs, path...)
}

func (c *Case) className(m map[string]interface{}) error {
	if n, _ := m["deviceClassName"].(string); n != "" {
		nn, err := c.name(n, 253)
		if err != nil {
			return err
		}
		m["deviceClassName"] = nn
	}
	return nil
}

// slice renames a ResourceSlice's node, pool and node selection and pins allNodes to the case.
func (c *Case) slice(obj map[string]interface{}) error {
	spec, _, _ := unstructured.NestedMap(obj, "spec")
	if spec == nil {
		return nil
	}
	if p, ok := spec["pool"].(map[string]interface{}); ok {
		if n, _ := p["name"].(string); n != "" {
			nn, err := c.name(n, 253)
			if err != nil {
				return err
			}
			p["name"] = nn
		}
	}
	if err := c.nodeSelection(spec); err != nil {
		return err
	}
	if devs, ok := spec["devices"].([]interface{}); ok {
		for _, d := range devs {
			if dm, ok := d.(map[string]interface{}); ok {
				if err := c.nodeSelection(dm); err != nil {
					return err
				}
			}
		}
	}
	return unstructured.SetNestedMap(obj, spec, "spec")
}

// nodeSelection rewrites nodeName / nodeSelector / allNodes of a slice or a device.
func (c *Case) nodeSelection(m map[string]interface{}) error {
	if n, _ := m["nodeName"].(string); n != "" {
		nn, err := c.name(n, 253)
		if err != nil {
			return err
		}
		m["nodeName"] = nn
	}
	if all, _ := m["allNodes"].(bool); all {
		delete(m, "allNodes")
		m["nodeSelector"] = map[string]interface{}{"nodeSelectorTerms": []interface{}{
			map[string]interface{}{"matchExpressions": []interface{}{
				map[string]interface{}{"key": CaseLabel, "operator": "In", "values": []interface{}{c.Value}},
			}},
		}}
		return nil
	}
	if ns, ok := m["nodeSelector"].(map[string]interface{}); ok {
		terms, _ := ns["nodeSelectorTerms"].([]interface{})
		if err := c.terms(terms, true); err != nil {
			return err
		}
		ns["nodeSelectorTerms"] = terms
	}
	return nil
}
