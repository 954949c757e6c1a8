package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// unit: one compared outcome of a case. Field names (the allowlist matches them):
//
//	input                                   both tools accepted / refused the input
//	pod NS/NAME                             bound, pending <reason>, evicted or absent
//	pod NS/NAME node                        the node, where wasched's choice is unique
//	group KIND NS/NAME scheduled            the group's scheduled count
//	group KIND NS/NAME conditions           its conditions as type=status/reason, sorted
//	evictions                               the victim set, where wasched's choice is unique
//	evictions count                         the number of victims, where it is not
//	error OBJECT TYPE FIELD                 a validation error reported by one side only
type unit struct {
	Field    string
	Upstream string
	Wasched  string
	Agree    bool
	Kind     string // outcome, node, group, eviction, input, validation
}

// side: one tool's answer (ok=false: no result; o says why).
type side struct {
	r  *SchedResult
	ok bool
	o  Outcome
}

func (s side) describe() string {
	switch {
	case s.ok:
		return "result"
	case s.o.Refused:
		return "refused: " + s.o.Message
	default:
		return "failed: " + s.o.Message
	}
}

func podStates(r *SchedResult) (state, node map[string]string) {
	state, node = map[string]string{}, map[string]string{}
	for _, b := range r.Bindings {
		state[b.Pod] = "bound"
		node[b.Pod] = b.Node
	}
	for _, p := range r.Pending {
		state[p.Pod] = "pending " + p.Reason
	}
	for _, e := range r.Evictions {
		if _, ok := state[e.Pod]; !ok {
			state[e.Pod] = "evicted"
		}
	}
	return state, node
}

func groupStates(r *SchedResult) (scheduled, conds map[string]string) {
	scheduled, conds = map[string]string{}, map[string]string{}
	for _, g := range r.Groups {
		key := g.Kind + " " + g.Name
		scheduled[key] = fmt.Sprint(g.Scheduled)
		var cs []string
		for _, c := range g.Conditions {
			cs = append(cs, c.Type+"="+c.Status+"/"+c.Reason)
		}
		sort.Strings(cs)
		conds[key] = strings.Join(cs, ", ")
		if conds[key] == "" {
			conds[key] = "(none)"
		}
	}
	return scheduled, conds
}

func victims(r *SchedResult) string {
	var v []string
	for _, e := range r.Evictions {
		v = append(v, e.Pod)
	}
	sort.Strings(v)
	return strings.Join(v, " ")
}

func sortedUnion(ms ...map[string]string) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

func orAbsent(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "absent"
}

// schedStats: what one case's schedule comparison counted besides its units.
type schedStats struct {
	nodesCompared, nodesSkipped int
	tie                         bool
}

// compareSchedule: the units of one schedule case. `probe` is wasched's answer under the
// reversed tie-break; an upstream value equal to either wasched answer agrees. `classes`
// (interchangeClasses; nil = none) names the pods that are interchangeable: a pod's outcome and
// node agree when its class's multiset of outcomes (and of nodes) agrees.
func compareSchedule(up, was, probe side, classes map[string]string) ([]unit, schedStats) {
	var st schedStats
	if !up.ok || !was.ok {
		agree := up.o.Refused && was.o.Refused
		return []unit{{Field: "input", Upstream: up.describe(), Wasched: was.describe(), Agree: agree, Kind: "input"}}, st
	}
	u, w := up.r, was.r
	normalize(u)
	normalize(w)
	var p *SchedResult
	if probe.ok {
		p = probe.r
		normalize(p)
	}
	var units []unit
	add := func(kind, field, uv, wv, pv string, permuted bool) {
		agree := uv == wv || (p != nil && uv == pv) || permuted
		shown := wv
		if p != nil && pv != wv {
			shown = wv + " (or " + pv + " under the other tie-break)"
		}
		units = append(units, unit{Field: field, Upstream: uv, Wasched: shown, Agree: agree, Kind: kind})
	}
	uState, uNode := podStates(u)
	wState, wNode := podStates(w)
	pState, pNode := map[string]string{}, map[string]string{}
	if p != nil {
		pState, pNode = podStates(p)
	}
	// Tie-free: the probe placed and evicted exactly as the first run did.
	st.tie = p == nil || !sameMap(wNode, pNode) || !sameMap(wState, pState) || victims(w) != victims(p)
	pods := sortedUnion(uState, wState, pState)
	members := map[string][]string{}
	for _, pod := range pods {
		if c := classOf(classes, pod); c != "" {
			members[c] = append(members[c], pod)
		}
	}
	// sameStates / sameNodes: per class with two or more members, whether upstream's multiset of
	// outcomes (nodes) equals wasched's or the probe's.
	sameStates, sameNodes := map[string]bool{}, map[string]bool{}
	for c, ms := range members {
		if len(ms) < 2 {
			continue
		}
		us, un := multisetKey(uState, ms), multisetKey(uNode, ms)
		sameStates[c] = us == multisetKey(wState, ms) || (p != nil && us == multisetKey(pState, ms))
		sameNodes[c] = sameStates[c] && (un == multisetKey(wNode, ms) || (p != nil && un == multisetKey(pNode, ms)))
	}
	for _, pod := range pods {
		c := classOf(classes, pod)
		add("outcome", "pod "+pod, orAbsent(uState, pod), orAbsent(wState, pod), orAbsent(pState, pod), sameStates[c])
		if uState[pod] == "bound" && wState[pod] == "bound" {
			if st.tie {
				st.nodesSkipped++
			} else {
				st.nodesCompared++
				add("node", "pod "+pod+" node", uNode[pod], wNode[pod], pNode[pod], sameNodes[c])
			}
		}
	}
	uSched, uCond := groupStates(u)
	wSched, wCond := groupStates(w)
	pSched, pCond := map[string]string{}, map[string]string{}
	if p != nil {
		pSched, pCond = groupStates(p)
	}
	for _, g := range sortedUnion(uSched, wSched, pSched) {
		add("group", "group "+g+" scheduled", orAbsent(uSched, g), orAbsent(wSched, g), orAbsent(pSched, g), false)
		add("group", "group "+g+" conditions", orAbsent(uCond, g), orAbsent(wCond, g), orAbsent(pCond, g), false)
	}
	uv, wv := victims(u), victims(w)
	pv := wv
	if p != nil {
		pv = victims(p)
	}
	if uv != "" || wv != "" || pv != "" {
		if p != nil && pv == wv {
			add("eviction", "evictions", orNone(uv), orNone(wv), orNone(pv), false)
		} else {
			pc := len(w.Evictions)
			if p != nil {
				pc = len(p.Evictions)
			}
			add("eviction", "evictions count", fmt.Sprint(len(u.Evictions)), fmt.Sprint(len(w.Evictions)), fmt.Sprint(pc), false)
		}
	}
	return units, st
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// validateKey: how a validation error is identified across the tools.
// decodeOrigin: the origin wasched-reference gives an error of the API server's JSON decoding
// (internal/validate.DecodeOrigin).
const decodeOrigin = "decode"

// listIndex: a list index or map key in a field path ("[0]", "[memory]").
var listIndex = regexp.MustCompile(`\[[^\]]*\]`)

func validateKey(object, typ, field string, withObject bool) string {
	if withObject {
		return object + " " + typ + " " + field
	}
	return typ + " " + field
}

// compareValidate: one unit per error reported by one side only (multiset difference of
// (object, type, field)), and whether the case agrees as a whole; matched/total count errors.
func compareValidate(up, was *ValidateResult, upOK, wasOK bool, upO, wasO Outcome, withObject bool) (units []unit, agree bool, matched, total int) {
	if !upOK && upO.Refused && wasOK && len(was.Errors) > 0 {
		// Input kubectl refuses before any request (a YAML syntax error, an object without
		// apiVersion or kind: a client-side error with no field), which wasched reports as
		// errors of the file: both reject it.
		return nil, true, 1, 1
	}
	if !upOK || !wasOK {
		d := func(ok bool, o Outcome) string {
			if ok {
				return "report"
			}
			return side{o: o}.describe()
		}
		return []unit{{Field: "input", Upstream: d(upOK, upO), Wasched: d(wasOK, wasO), Kind: "validation"}}, false, 0, 1
	}
	// An object the API server could not decode (a value of the wrong JSON type) has one error
	// whose field path carries no list indices: wasched's fields of that object are compared
	// without theirs.
	decoded := map[string]bool{}
	for _, e := range up.Errors {
		if e.Origin == decodeOrigin {
			decoded[e.Object] = true
		}
	}
	count := func(r *ValidateResult) map[string]int {
		m := map[string]int{}
		for _, e := range r.Errors {
			field := e.Field
			if decoded[e.Object] {
				field = listIndex.ReplaceAllString(field, "")
			}
			m[validateKey(e.Object, e.Type, field, withObject)]++
		}
		return m
	}
	uc, wc := count(up), count(was)
	keys := map[string]bool{}
	for k := range uc {
		keys[k] = true
	}
	for k := range wc {
		keys[k] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	agree = true
	for _, k := range sorted {
		m := min(uc[k], wc[k])
		matched += m
		total += max(uc[k], wc[k])
		if uc[k] != wc[k] {
			agree = false
			units = append(units, unit{Field: "error " + k, Upstream: fmt.Sprintf("reported %d×", uc[k]),
				Wasched: fmt.Sprintf("reported %d×", wc[k]), Kind: "validation"})
		}
	}
	return units, agree, matched, total
}
