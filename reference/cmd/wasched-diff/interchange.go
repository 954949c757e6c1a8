package main

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// Interchangeable pods. Two pending pods of a case whose manifests are identical but for
// metadata.name (the members of a generated gang, the replicas of a bare-pod set), or two pods of
// one Indexed Job (the same template but for the completion index), are the same request to a
// scheduler: swapping their names changes no node's load and no group's count. Which of them a
// scheduler tries first is not something upstream fixes: kube-scheduler orders a group's queued
// members by priority, attempts, then the time each entered the queue
// (pkg/scheduler/framework/types.go, PodGroupMemberPodsOrderingFunc), and that time is renewed
// whenever the group is requeued (after a preemption, say), so the order of identical members
// varies from run to run. For such a class the suite compares the multiset of outcomes (bound,
// pending <reason>, evicted) and of nodes; a permutation within the class agrees.

// interchangeClasses: pod key ("ns/name") -> class key, for the pending pods of the case folder
// `dir` that have at least one identical sibling. Pods of Indexed Jobs are classed by
// compareSchedule from their aliases (ns/job[i]).
func interchangeClasses(dir string) (map[string]string, error) {
	files, err := caseFiles(dir)
	if err != nil {
		return nil, err
	}
	byKey := map[string][]string{}
	for _, f := range files {
		docs, err := readDocs(f)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if d["kind"] != "Pod" || str(d, "spec", "nodeName") != "" {
				continue
			}
			ns := str(d, "metadata", "namespace")
			if ns == "" {
				ns = "default"
			}
			name := str(d, "metadata", "name")
			if name == "" {
				continue
			}
			meta := child(d, "metadata")
			delete(meta, "name")
			b, err := json.Marshal(d)
			meta["name"] = name
			if err != nil {
				return nil, err
			}
			key := ns + "\t" + string(b)
			byKey[key] = append(byKey[key], ns+"/"+name)
		}
	}
	out := map[string]string{}
	for key, pods := range byKey {
		if len(pods) < 2 {
			continue
		}
		for _, p := range pods {
			out[p] = key
		}
	}
	return out, nil
}

var jobIndexAlias = regexp.MustCompile(`^(.+)\[[0-9]+\]$`)

// classOf: the interchange class of `pod`, or "" when it has none.
func classOf(classes map[string]string, pod string) string {
	if c, ok := classes[pod]; ok {
		return c
	}
	if m := jobIndexAlias.FindStringSubmatch(pod); m != nil {
		return "job\t" + m[1]
	}
	return ""
}

// multisetKey: the values of `m` over `pods`, sorted and joined (absent pods count as "absent").
func multisetKey(m map[string]string, pods []string) string {
	vals := make([]string, 0, len(pods))
	for _, p := range pods {
		vals = append(vals, orAbsent(m, p))
	}
	sort.Strings(vals)
	return strings.Join(vals, "\n")
}
