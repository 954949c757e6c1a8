package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Tie probe. wasched breaks score ties by the lowest node name and domain ties by node order;
// upstream breaks them at random. To learn whether a case has ties that matter, the case is run
// a second time with every Node renamed so that the name order is reversed (and the values of
// every topology key used by a scheduling constraint reversed the same way), and the answer is
// mapped back. Where the two wasched answers agree, wasched rates one choice strictly best and
// upstream must make the same one; where they differ, both are answers wasched rates equally good
// and upstream may give either.

// probeMap: how a case was renamed; Nodes maps the new node name back to the original.
type probeMap struct {
	Nodes map[string]string `json:"nodes"`
}

// renameForProbe rewrites the documents of one case in place and returns the reverse node map.
func renameForProbe(docs []doc) probeMap {
	var names []string
	for _, d := range docs {
		if d["kind"] == "Node" {
			if n := str(d, "metadata", "name"); n != "" {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	fwd := map[string]string{}
	back := map[string]string{}
	for i, n := range names {
		nn := fmt.Sprintf("probe-%05d", len(names)-1-i)
		fwd[n] = nn
		back[nn] = n
	}
	// Topology keys named by any constraint, and the values nodes carry for them.
	keys := map[string]bool{}
	for _, d := range docs {
		collectTopologyKeys(d, keys)
	}
	values := map[string]map[string]string{}
	for k := range keys {
		var vals []string
		seen := map[string]bool{}
		for _, d := range docs {
			if d["kind"] != "Node" {
				continue
			}
			if v := str(d, "metadata", "labels", k); v != "" && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		sort.Strings(vals)
		m := map[string]string{}
		for i, v := range vals {
			m[v] = fmt.Sprintf("probe-%03d", len(vals)-1-i)
		}
		values[k] = m
	}
	for _, d := range docs {
		if d["kind"] == "Node" {
			meta := child(d, "metadata")
			if n, ok := meta["name"].(string); ok && fwd[n] != "" {
				meta["name"] = fwd[n]
			}
			if labels := child(d, "metadata", "labels"); labels != nil {
				for k, m := range values {
					if v, ok := labels[k].(string); ok && m[v] != "" {
						labels[k] = m[v]
					}
				}
			}
		}
		renameRefs(d, fwd, values)
	}
	return probeMap{Nodes: back}
}

// collectTopologyKeys: keys of every `topology: [{key: K}]` list below a scheduling constraint.
func collectTopologyKeys(v any, keys map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if list, ok := x["topology"].([]any); ok {
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					if k, ok := m["key"].(string); ok {
						keys[k] = true
					}
				}
			}
		}
		for _, c := range x {
			collectTopologyKeys(c, keys)
		}
	case []any:
		for _, c := range x {
			collectTopologyKeys(c, keys)
		}
	}
}

// renameRefs: node names in `nodeName` fields and in `metadata.name` matchFields; topology values
// in nodeSelector maps and in node-affinity matchExpressions on those keys.
func renameRefs(v any, nodes map[string]string, values map[string]map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		if n, ok := x["nodeName"].(string); ok && nodes[n] != "" {
			x["nodeName"] = nodes[n]
		}
		if sel, ok := x["nodeSelector"].(map[string]any); ok {
			for k, m := range values {
				if val, ok := sel[k].(string); ok && m[val] != "" {
					sel[k] = m[val]
				}
			}
		}
		if key, ok := x["key"].(string); ok {
			if list, ok := x["values"].([]any); ok {
				var m map[string]string
				if key == "metadata.name" {
					m = nodes
				} else {
					m = values[key]
				}
				for i, it := range list {
					if s, ok := it.(string); ok && m[s] != "" {
						list[i] = m[s]
					}
				}
			}
		}
		for _, c := range x {
			renameRefs(c, nodes, values)
		}
	case []any:
		for _, c := range x {
			renameRefs(c, nodes, values)
		}
	}
}

// writeProbeCase: the renamed copy of case folder `src` in `dst` (same file names, JSON
// documents) and the reverse map.
func writeProbeCase(src, dst string) (probeMap, error) {
	files, err := caseFiles(src)
	if err != nil {
		return probeMap{}, err
	}
	all := make([][]doc, len(files))
	var flat []doc
	for i, f := range files {
		docs, err := readDocs(f)
		if err != nil {
			return probeMap{}, err
		}
		all[i] = docs
		flat = append(flat, docs...)
	}
	pm := renameForProbe(flat)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return probeMap{}, err
	}
	for i, f := range files {
		docs := all[i]
		if filepath.Ext(f) == ".json" && len(docs) != 1 {
			items := make([]any, len(docs))
			for k, d := range docs {
				items[k] = d
			}
			docs = []doc{{"apiVersion": "v1", "kind": "List", "items": items}}
		}
		if err := writeDocs(filepath.Join(dst, filepath.Base(f)), docs); err != nil {
			return probeMap{}, err
		}
	}
	return pm, nil
}

// unrename: a probe run's result with the original node names.
func (pm probeMap) unrename(r *SchedResult) {
	for i := range r.Bindings {
		if n := pm.Nodes[r.Bindings[i].Node]; n != "" {
			r.Bindings[i].Node = n
		}
	}
	for i := range r.Evictions {
		if n := pm.Nodes[r.Evictions[i].Node]; n != "" {
			r.Evictions[i].Node = n
		}
	}
}
