// Package result builds wasched's `wasched.io/v1alpha1 ScheduleResult` (design.md "schedule
// JSON output", src/sched/schedule_result.h) from what the reference control plane did, and
// encodes it as wasched does: 2-space indented JSON, keys in the contract's order, every list
// sorted (bindings, pending, evictions by pod then node; groups by kind then name; allocations
// by claim), a trailing newline.
package result

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Result is the ScheduleResult document.
type Result struct {
	APIVersion  string       `json:"apiVersion"`
	Kind        string       `json:"kind"`
	Bindings    []Binding    `json:"bindings"`
	Pending     []Pending    `json:"pending"`
	Evictions   []Eviction   `json:"evictions"`
	Groups      []Group      `json:"groups"`
	Allocations []Allocation `json:"allocations,omitempty"`
	Generated   []OMap       `json:"generated"`
}

// Binding: a pod this run placed (created without spec.nodeName, bound at the end).
type Binding struct {
	Pod  string `json:"pod"`
	Node string `json:"node"`
}

// Pending: a pod without a node at the end, with its PodScheduled condition's reason and
// message ("" when the scheduler never wrote one).
type Pending struct {
	Pod     string `json:"pod"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Eviction: a pod deleted by preemption.
type Eviction struct {
	Pod       string `json:"pod"`
	Node      string `json:"node"`
	Preemptor string `json:"preemptor"`
}

// Condition is one status condition of a group.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Group: a PodGroup or CompositePodGroup at the end of the run.
type Group struct {
	Kind          string      `json:"kind"`
	Name          string      `json:"name"`
	Scheduled     int         `json:"scheduled"`
	MinCount      *int        `json:"minCount,omitempty"`
	MinGroupCount *int        `json:"minGroupCount,omitempty"`
	Parent        *string     `json:"parent,omitempty"`
	Conditions    []Condition `json:"conditions"`
}

// Allocation: a ResourceClaim allocated in this run.
type Allocation struct {
	Claim   string   `json:"claim"`
	Owner   string   `json:"owner,omitempty"`
	Devices []Device `json:"devices"`
}

// Device is one allocated device of a claim.
type Device struct {
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
}

// New returns an empty result (lists empty, not null).
func New() *Result {
	return &Result{APIVersion: "wasched.io/v1alpha1", Kind: "ScheduleResult",
		Bindings: []Binding{}, Pending: []Pending{}, Evictions: []Eviction{}, Groups: []Group{}, Generated: []OMap{}}
}

// Sort puts every list in wasched's order.
func (r *Result) Sort() {
	sort.SliceStable(r.Bindings, func(i, j int) bool {
		a, b := r.Bindings[i], r.Bindings[j]
		if a.Pod != b.Pod {
			return a.Pod < b.Pod
		}
		return a.Node < b.Node
	})
	sort.SliceStable(r.Pending, func(i, j int) bool { return r.Pending[i].Pod < r.Pending[j].Pod })
	sort.SliceStable(r.Evictions, func(i, j int) bool {
		a, b := r.Evictions[i], r.Evictions[j]
		if a.Pod != b.Pod {
			return a.Pod < b.Pod
		}
		return a.Node < b.Node
	})
	sort.SliceStable(r.Groups, func(i, j int) bool {
		a, b := r.Groups[i], r.Groups[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Name < b.Name
	})
	sort.SliceStable(r.Allocations, func(i, j int) bool { return r.Allocations[i].Claim < r.Allocations[j].Claim })
}

// JSON encodes the result as wasched does (no HTML escaping, 2-space indent, trailing newline).
func (r *Result) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// OMap is a JSON object that keeps its keys in insertion order (the generated objects are
// written with wasched's key order). Values are any JSON-encodable value, OMaps included.
type OMap struct {
	Keys   []string
	Values map[string]interface{}
}

// Set appends (or replaces) a key.
func (m *OMap) Set(k string, v interface{}) {
	if m.Values == nil {
		m.Values = map[string]interface{}{}
	}
	if _, ok := m.Values[k]; !ok {
		m.Keys = append(m.Keys, k)
	}
	m.Values[k] = v
}

// Len is the number of keys.
func (m OMap) Len() int { return len(m.Keys) }

// MarshalJSON writes the keys in order.
func (m OMap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range m.Keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := marshalNoEscape(m.Values[k])
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func marshalNoEscape(v interface{}) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
