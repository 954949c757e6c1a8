package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SchedResult: the parts of wasched's ScheduleResult (design.md "schedule JSON output") the
// suite compares; both tools print this document.
type SchedResult struct {
	Bindings []struct {
		Pod  string `json:"pod"`
		Node string `json:"node"`
	} `json:"bindings"`
	Pending []struct {
		Pod     string `json:"pod"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	} `json:"pending"`
	Evictions []struct {
		Pod       string `json:"pod"`
		Node      string `json:"node"`
		Preemptor string `json:"preemptor"`
	} `json:"evictions"`
	Groups []struct {
		Kind       string `json:"kind"`
		Name       string `json:"name"`
		Scheduled  int    `json:"scheduled"`
		Conditions []struct {
			Type    string `json:"type"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"conditions"`
	} `json:"groups"`
	Generated []map[string]any `json:"generated"`
}

// ValidateResult: `validate -o json`.
type ValidateResult struct {
	Errors []struct {
		Object string `json:"object"`
		Type   string `json:"type"`
		Field  string `json:"field"`
		Origin string `json:"origin"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

// Outcome: one tool's answer for one case: a result, or the input refused (exit 1, with the
// first error line), or a failure of the tool (anything else).
type Outcome struct {
	Refused  bool   `json:"refused,omitempty"`
	Failed   bool   `json:"failed,omitempty"`
	ExitCode int    `json:"exitCode"`
	Message  string `json:"message,omitempty"`
}

// loadOutcome reads `<dir>/<name>.json` (the result document) and `<dir>/<name>.outcome.json`
// (exit code and message when the tool did not print a result). A missing result with no
// outcome file is a failure ("no result").
//
// wasched-reference's batch modes write `<name>.error` ("error: ..."), for an input the API
// server refused (schedule) or that could not be read (validate): a refused input.
func loadOutcome(dir, name string, into any) (Outcome, bool) {
	var o Outcome
	if data, err := os.ReadFile(filepath.Join(dir, name+".error")); err == nil {
		return Outcome{Refused: true, ExitCode: 1, Message: strings.TrimSpace(string(data))}, false
	}
	if data, err := os.ReadFile(filepath.Join(dir, name+".outcome.json")); err == nil {
		if err := json.Unmarshal(data, &o); err != nil {
			return Outcome{Failed: true, Message: fmt.Sprintf("%s.outcome.json: %v", name, err)}, false
		}
		if o.Refused || o.Failed {
			return o, false
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return Outcome{Failed: true, Message: "no result"}, false
	}
	if err := json.Unmarshal(data, into); err != nil {
		return Outcome{Failed: true, Message: fmt.Sprintf("%s.json: %v", name, err)}, false
	}
	return o, true
}

func writeOutcome(dir, name string, o Outcome) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".outcome.json"), append(data, '\n'), 0o644)
}

// aliases: stable names for what the Job controller created, whose names hold a hash of the
// Job's uid (the API server makes a new uid every run, wasched derives one): a pod becomes
// "ns/<job>[<completion index>]", a group "ns/<job>[<kind>]" (numbered when a Job has several).
func aliases(r *SchedResult) map[string]string {
	out := map[string]string{}
	perJob := map[string][]string{}
	for _, g := range r.Generated {
		kind, _ := g["kind"].(string)
		meta, _ := g["metadata"].(map[string]any)
		if meta == nil {
			continue
		}
		name, _ := meta["name"].(string)
		ns, _ := meta["namespace"].(string)
		if ns == "" {
			ns = "default"
		}
		job := ""
		if refs, ok := meta["ownerReferences"].([]any); ok {
			for _, ref := range refs {
				if m, ok := ref.(map[string]any); ok && m["kind"] == "Job" {
					job, _ = m["name"].(string)
				}
			}
		}
		if job == "" {
			continue
		}
		key := ns + "/" + name
		switch kind {
		case "Pod":
			idx := ""
			if ann, ok := meta["annotations"].(map[string]any); ok {
				idx, _ = ann["batch.kubernetes.io/job-completion-index"].(string)
			}
			if idx != "" {
				out[key] = fmt.Sprintf("%s/%s[%s]", ns, job, idx)
			} else {
				perJob[ns+"/"+job+"\tPod"] = append(perJob[ns+"/"+job+"\tPod"], key)
			}
		case "PodGroup", "CompositePodGroup":
			perJob[ns+"/"+job+"\t"+kind] = append(perJob[ns+"/"+job+"\t"+kind], key)
		}
	}
	for k, names := range perJob {
		sort.Strings(names)
		job, kind, _ := strings.Cut(k, "\t")
		for i, n := range names {
			if len(names) == 1 {
				out[n] = fmt.Sprintf("%s[%s]", job, kind)
			} else {
				out[n] = fmt.Sprintf("%s[%s %d]", job, kind, i)
			}
		}
	}
	return out
}

// normalize renames generated objects to their aliases everywhere in the result.
func normalize(r *SchedResult) {
	a := aliases(r)
	if len(a) == 0 {
		return
	}
	rn := func(s string) string {
		if v, ok := a[s]; ok {
			return v
		}
		return s
	}
	for i := range r.Bindings {
		r.Bindings[i].Pod = rn(r.Bindings[i].Pod)
	}
	for i := range r.Pending {
		r.Pending[i].Pod = rn(r.Pending[i].Pod)
	}
	for i := range r.Evictions {
		r.Evictions[i].Pod = rn(r.Evictions[i].Pod)
	}
	for i := range r.Groups {
		r.Groups[i].Name = rn(r.Groups[i].Name)
	}
}
