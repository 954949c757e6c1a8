package result

import (
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Generated lists what the Job controller created — Workloads, CompositePodGroups, PodGroups
// and Pods owned by a Job of the run — in wasched's shape (src/codec/generated_encoding.cc):
// kinds in that order, each sorted by namespace/name; metadata {name, namespace, uid, labels,
// annotations, ownerReferences}; the spec fields wasched writes, in its key order, with the
// values the API server stored. For Pods, what the API server's admission added and the Job's
// pod template does not hold is left out, since wasched shows what the controller created:
// `priority` and `preemptionPolicy` (Priority admission) and tolerations absent from the
// template (DefaultTolerationSeconds admission adds not-ready / unreachable for 300 s).
// Containers keep name and resources only, as in wasched.
func Generated(s State, jobs map[string]*unstructured.Unstructured) []OMap {
	out := []OMap{}
	pick := func(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
		var sel []*unstructured.Unstructured
		for _, o := range objs {
			if ownedByJob(o, jobs) != nil && o.GetDeletionTimestamp() == nil {
				sel = append(sel, o)
			}
		}
		sortObjects(sel)
		return sel
	}
	for _, w := range pick(s.Workloads) {
		out = append(out, workloadTree(w))
	}
	for _, g := range pick(s.CompositePodGroups) {
		out = append(out, groupTree(g))
	}
	for _, g := range pick(s.PodGroups) {
		out = append(out, groupTree(g))
	}
	for _, p := range pick(s.Pods) {
		out = append(out, podTree(p, ownedByJob(p, jobs)))
	}
	return out
}

func header(u *unstructured.Unstructured) OMap {
	var t OMap
	t.Set("apiVersion", u.GetAPIVersion())
	t.Set("kind", u.GetKind())
	var m OMap
	m.Set("name", u.GetName())
	if u.GetNamespace() != "" {
		m.Set("namespace", u.GetNamespace())
	}
	if uid := string(u.GetUID()); uid != "" {
		m.Set("uid", uid)
	}
	if l := u.GetLabels(); len(l) > 0 {
		m.Set("labels", l)
	}
	if a := u.GetAnnotations(); len(a) > 0 {
		m.Set("annotations", a)
	}
	if refs := u.GetOwnerReferences(); len(refs) > 0 {
		var list []OMap
		for _, r := range refs {
			var o OMap
			o.Set("apiVersion", r.APIVersion)
			o.Set("kind", r.Kind)
			o.Set("name", r.Name)
			o.Set("uid", string(r.UID))
			if r.Controller != nil && *r.Controller {
				o.Set("controller", true)
			}
			if r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
				o.Set("blockOwnerDeletion", true)
			}
			list = append(list, o)
		}
		m.Set("ownerReferences", list)
	}
	t.Set("metadata", m)
	return t
}

// ordered copies the keys of m in `order`, then any other key sorted, recursing into `nested`
// keys with their own orders.
func ordered(m map[string]interface{}, order []string, nested map[string]func(interface{}) interface{}) OMap {
	var o OMap
	seen := map[string]bool{}
	put := func(k string) {
		v, ok := m[k]
		if !ok {
			return
		}
		seen[k] = true
		if f := nested[k]; f != nil {
			v = f(v)
		}
		o.Set(k, v)
	}
	for _, k := range order {
		put(k)
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		put(k)
	}
	return o
}

var groupFieldOrder = []string{"name", "schedulingPolicy", "schedulingConstraints", "resourceClaims",
	"disruptionMode", "priorityClassName", "priority", "preemptionPolicy", "podGroupTemplates", "compositePodGroupTemplates"}

func templateList(v interface{}) interface{} {
	list, ok := v.([]interface{})
	if !ok {
		return v
	}
	out := make([]interface{}, 0, len(list))
	for _, it := range list {
		m, ok := it.(map[string]interface{})
		if !ok {
			out = append(out, it)
			continue
		}
		out = append(out, ordered(m, groupFieldOrder, map[string]func(interface{}) interface{}{
			"podGroupTemplates": templateList, "compositePodGroupTemplates": templateList,
		}))
	}
	return out
}

func workloadTree(u *unstructured.Unstructured) OMap {
	t := header(u)
	spec, _, _ := unstructured.NestedMap(u.Object, "spec")
	t.Set("spec", ordered(spec, []string{"controllerRef", "podGroupTemplates", "compositePodGroupTemplates"},
		map[string]func(interface{}) interface{}{
			"controllerRef": func(v interface{}) interface{} {
				m, _ := v.(map[string]interface{})
				return ordered(m, []string{"apiGroup", "kind", "name"}, nil)
			},
			"podGroupTemplates": templateList, "compositePodGroupTemplates": templateList,
		}))
	return t
}

func groupTree(u *unstructured.Unstructured) OMap {
	t := header(u)
	spec, _, _ := unstructured.NestedMap(u.Object, "spec")
	t.Set("spec", ordered(spec, append([]string{"parentCompositePodGroupName", "workloadRef"}, groupFieldOrder[1:]...),
		map[string]func(interface{}) interface{}{
			"workloadRef": func(v interface{}) interface{} {
				m, _ := v.(map[string]interface{})
				return ordered(m, []string{"workloadName", "templateName"}, nil)
			},
		}))
	return t
}

func podTree(u *unstructured.Unstructured, job *unstructured.Unstructured) OMap {
	t := header(u)
	spec, _, _ := unstructured.NestedMap(u.Object, "spec")
	tmpl := map[string]interface{}{}
	if job != nil {
		tmpl, _, _ = unstructured.NestedMap(job.Object, "spec", "template", "spec")
	}
	var o OMap
	if v, ok := spec["schedulerName"].(string); ok && v != "default-scheduler" {
		o.Set("schedulerName", v)
	}
	for _, k := range []string{"priorityClassName", "priority", "preemptionPolicy"} {
		v, ok := spec[k]
		if !ok {
			continue
		}
		if _, inTemplate := tmpl[k]; (k == "priority" || k == "preemptionPolicy") && !inTemplate {
			continue // set by the Priority admission plugin, not by the controller
		}
		o.Set(k, v)
	}
	for _, k := range []string{"nodeSelector", "affinity"} {
		if v, ok := spec[k]; ok {
			o.Set(k, v)
		}
	}
	if tols, ok := spec["tolerations"].([]interface{}); ok {
		tmplTols, _ := tmpl["tolerations"].([]interface{})
		var keep []interface{}
		for _, tol := range tols {
			if containsEqual(tmplTols, tol) {
				keep = append(keep, tol)
			}
		}
		if len(keep) > 0 {
			o.Set("tolerations", keep)
		}
	}
	for _, k := range []string{"schedulingGates", "schedulingGroup", "overhead", "resources"} {
		if v, ok := spec[k]; ok {
			o.Set(k, v)
		}
	}
	trimContainers := func(v interface{}, init bool) []interface{} {
		list, _ := v.([]interface{})
		out := make([]interface{}, 0, len(list))
		for _, ci := range list {
			m, _ := ci.(map[string]interface{})
			var c OMap
			c.Set("name", m["name"])
			if rp, ok := m["restartPolicy"]; init && ok && rp == "Always" {
				c.Set("restartPolicy", rp)
			}
			if res, ok := m["resources"].(map[string]interface{}); ok && len(res) > 0 {
				c.Set("resources", ordered(res, []string{"requests", "limits"}, nil))
			}
			out = append(out, c)
		}
		return out
	}
	if v, ok := spec["initContainers"]; ok {
		o.Set("initContainers", trimContainers(v, true))
	}
	o.Set("containers", trimContainers(spec["containers"], false))
	t.Set("spec", o)
	return t
}
