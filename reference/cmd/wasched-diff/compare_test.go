package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func result(t *testing.T, js string) *SchedResult {
	t.Helper()
	var r SchedResult
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func ok(r *SchedResult) side { return side{r: r, ok: true} }

func disagreeing(units []unit) []string {
	var out []string
	for _, u := range units {
		if !u.Agree {
			out = append(out, u.Field+": "+u.Upstream+" vs "+u.Wasched)
		}
	}
	return out
}

const twoBound = `{"bindings":[{"pod":"default/a","node":"n1"},{"pod":"default/b","node":"n2"}],
 "pending":[{"pod":"default/c","reason":"Unschedulable"}],
 "groups":[{"kind":"PodGroup","name":"default/g","scheduled":2,"conditions":[{"type":"PodGroupInitiallyScheduled","status":"True","reason":"Scheduled"}]}]}`

func TestIdenticalResultsAgreeAndCompareNodes(t *testing.T) {
	units, st := compareSchedule(ok(result(t, twoBound)), ok(result(t, twoBound)), ok(result(t, twoBound)), nil)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("unexpected divergences %v", d)
	}
	// 3 pod outcomes, 2 nodes, 2 group units.
	if len(units) != 7 || st.nodesCompared != 2 || st.nodesSkipped != 0 || st.tie {
		t.Fatalf("units %d, stats %+v", len(units), st)
	}
}

func TestUpstreamNodeDiffersWithoutTieIsADivergence(t *testing.T) {
	up := result(t, strings.Replace(twoBound, `"node":"n1"`, `"node":"n3"`, 1))
	units, _ := compareSchedule(ok(up), ok(result(t, twoBound)), ok(result(t, twoBound)), nil)
	d := disagreeing(units)
	if len(d) != 1 || d[0] != "pod default/a node: n3 vs n1" {
		t.Fatalf("got %v", d)
	}
}

func TestTieCaseAcceptsTheProbeAnswerAndSkipsNodes(t *testing.T) {
	probe := result(t, strings.Replace(twoBound, `"node":"n1"`, `"node":"n3"`, 1))
	up := result(t, strings.Replace(twoBound, `"node":"n1"`, `"node":"n4"`, 1))
	units, st := compareSchedule(ok(up), ok(result(t, twoBound)), ok(probe), nil)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("unexpected divergences %v", d)
	}
	if !st.tie || st.nodesCompared != 0 || st.nodesSkipped != 2 {
		t.Fatalf("stats %+v", st)
	}
	// An outcome either wasched answer gives agrees; one neither gives does not.
	probe = result(t, strings.Replace(twoBound, `"reason":"Unschedulable"`, `"reason":"SchedulerError"`, 1))
	up = result(t, strings.Replace(twoBound, `"reason":"Unschedulable"`, `"reason":"SchedulerError"`, 1))
	units, _ = compareSchedule(ok(up), ok(result(t, twoBound)), ok(probe), nil)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("probe's answer rejected: %v", d)
	}
	up = result(t, strings.Replace(twoBound, `"reason":"Unschedulable"`, `"reason":"SchedulingGated"`, 1))
	units, _ = compareSchedule(ok(up), ok(result(t, twoBound)), ok(probe), nil)
	if d := disagreeing(units); len(d) != 1 || !strings.HasPrefix(d[0], "pod default/c: pending SchedulingGated vs pending Unschedulable (or pending SchedulerError") {
		t.Fatalf("got %v", d)
	}
}

func TestGroupCountsAndConditionsCompared(t *testing.T) {
	up := result(t, strings.Replace(strings.Replace(twoBound, `"scheduled":2`, `"scheduled":0`, 1), `"status":"True","reason":"Scheduled"`, `"status":"False","reason":"Unschedulable"`, 1))
	units, _ := compareSchedule(ok(up), ok(result(t, twoBound)), ok(result(t, twoBound)), nil)
	d := disagreeing(units)
	want := []string{"group PodGroup default/g scheduled: 0 vs 2",
		"group PodGroup default/g conditions: PodGroupInitiallyScheduled=False/Unschedulable vs PodGroupInitiallyScheduled=True/Scheduled"}
	if strings.Join(d, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %v", d)
	}
}

func TestEvictionsExactWhenUniqueElseCounted(t *testing.T) {
	ev := func(pods ...string) *SchedResult {
		var parts []string
		for _, p := range pods {
			parts = append(parts, `{"pod":"`+p+`","node":"n1","preemptor":"x"}`)
		}
		return result(t, `{"evictions":[`+strings.Join(parts, ",")+`]}`)
	}
	units, _ := compareSchedule(ok(ev("default/v2")), ok(ev("default/v1")), ok(ev("default/v1")), nil)
	if d := disagreeing(units); len(d) != 3 || d[2] != "evictions: default/v2 vs default/v1" {
		t.Fatalf("unique victims: got %v", d)
	}
	// The probe chose other victims: only the number counts.
	units, _ = compareSchedule(ok(ev("default/v3")), ok(ev("default/v1")), ok(ev("default/v2")), nil)
	for _, u := range units {
		if u.Field == "evictions count" && !u.Agree {
			t.Fatalf("count should agree: %+v", u)
		}
		if u.Field == "evictions" {
			t.Fatalf("victim set compared although the choice is not unique")
		}
	}
}

func TestRefusedInputs(t *testing.T) {
	refused := side{o: Outcome{Refused: true, ExitCode: 1, Message: "error: bad"}}
	units, _ := compareSchedule(refused, refused, side{}, nil)
	if len(units) != 1 || !units[0].Agree {
		t.Fatalf("both refused should agree: %+v", units)
	}
	units, _ = compareSchedule(ok(result(t, twoBound)), refused, side{}, nil)
	if len(units) != 1 || units[0].Agree || units[0].Field != "input" {
		t.Fatalf("one refused should diverge: %+v", units)
	}
}

func TestJobPodsComparedByJobAndIndex(t *testing.T) {
	mk := func(hash string) *SchedResult {
		return result(t, `{"bindings":[{"pod":"default/train-`+hash+`-0-abcde","node":"n1"}],
		 "groups":[{"kind":"PodGroup","name":"default/train-`+hash+`-pg","scheduled":1,"conditions":[]}],
		 "generated":[
		  {"kind":"PodGroup","metadata":{"name":"train-`+hash+`-pg","namespace":"default","ownerReferences":[{"kind":"Job","name":"train"}]}},
		  {"kind":"Pod","metadata":{"name":"train-`+hash+`-0-abcde","namespace":"default",
		   "annotations":{"batch.kubernetes.io/job-completion-index":"0"},"ownerReferences":[{"kind":"Job","name":"train"}]}}]}`)
	}
	units, _ := compareSchedule(ok(mk("1111")), ok(mk("2222")), ok(mk("2222")), nil)
	if d := disagreeing(units); len(d) != 0 {
		t.Fatalf("unexpected divergences %v", d)
	}
	if units[0].Field != "pod default/train[0]" {
		t.Fatalf("alias not applied: %+v", units[0])
	}
}

func TestValidateMultiset(t *testing.T) {
	v := func(js string) *ValidateResult {
		var r ValidateResult
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	a := v(`{"errors":[{"object":"Workload default/w","type":"Invalid","field":"spec","detail":"x"},
	                   {"object":"Workload default/w","type":"Invalid","field":"spec","detail":"y"}]}`)
	b := v(`{"errors":[{"object":"Workload default/w","type":"Invalid","field":"spec","detail":"other words"}]}`)
	units, agree, matched, total := compareValidate(a, a, true, true, Outcome{}, Outcome{}, true)
	if !agree || len(units) != 0 || matched != 2 || total != 2 {
		t.Fatalf("same report: agree %v units %v %d/%d", agree, units, matched, total)
	}
	units, agree, matched, total = compareValidate(a, b, true, true, Outcome{}, Outcome{}, true)
	if agree || len(units) != 1 || matched != 1 || total != 2 || units[0].Field != "error Workload default/w Invalid spec" {
		t.Fatalf("one missing: agree %v units %+v %d/%d", agree, units, matched, total)
	}
}

func TestGlobAndSlug(t *testing.T) {
	for _, c := range []struct {
		p, s string
		want bool
	}{{"*", "anything at/all", true}, {"scenarios.s6-*", "scenarios.s6-xy", true}, {"pod */a", "pod default/a", true},
		{"pod */a", "pod default/ab", false}, {"?x", "ax", true}, {"", "", true}, {"a", "", false}} {
		if glob(c.p, c.s) != c.want {
			t.Errorf("glob(%q, %q) != %v", c.p, c.s, c.want)
		}
	}
	if s := slug("Gang placement: the complete-search fallback (S6)"); s != "gang-placement-the-complete-search-fallback-s6" {
		t.Errorf("slug %q", s)
	}
}

func TestValidateInputRefusedByKubectlAgreesWithReportedErrors(t *testing.T) {
	var was ValidateResult
	if err := json.Unmarshal([]byte(`{"errors":[{"object":"","type":"Required","field":"kind","detail":"x"}]}`), &was); err != nil {
		t.Fatal(err)
	}
	refused := Outcome{Refused: true, ExitCode: 1, Message: "not an object: apiVersion and kind are required"}
	units, agree, matched, total := compareValidate(nil, &was, false, true, refused, Outcome{ExitCode: 1}, true)
	if !agree || len(units) != 0 || matched != 1 || total != 1 {
		t.Fatalf("refused input vs reported errors: agree %v units %+v %d/%d", agree, units, matched, total)
	}
	var empty ValidateResult
	if _, agree, _, _ := compareValidate(nil, &empty, false, true, refused, Outcome{}, true); agree {
		t.Fatal("refused input vs a clean report must diverge")
	}
}

func TestDecodeErrorComparedWithoutIndices(t *testing.T) {
	var up, was ValidateResult
	_ = json.Unmarshal([]byte(`{"errors":[{"object":"Workload default/w","type":"Invalid","field":"spec.podGroupTemplates.schedulingPolicy.gang.minCount","origin":"decode"}]}`), &up)
	_ = json.Unmarshal([]byte(`{"errors":[{"object":"Workload default/w","type":"Invalid","field":"spec.podGroupTemplates[0].schedulingPolicy.gang.minCount"}]}`), &was)
	if _, agree, _, _ := compareValidate(&up, &was, true, true, Outcome{}, Outcome{}, true); !agree {
		t.Fatal("a decoding error's path must match wasched's path without indices")
	}
}
