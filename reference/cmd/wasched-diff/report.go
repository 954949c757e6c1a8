package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// tally: agreement counts of one family (or of all).
type tally struct {
	vCases, vCasesAgree   int
	vErrors, vErrorsMatch int
	sUnits, sUnitsAgree   int
	sCases, sCasesAgree   int
	nodesCmp, nodesSkip   int
	tieCases              int
}

func (t *tally) add(o tally) {
	t.vCases += o.vCases
	t.vCasesAgree += o.vCasesAgree
	t.vErrors += o.vErrors
	t.vErrorsMatch += o.vErrorsMatch
	t.sUnits += o.sUnits
	t.sUnitsAgree += o.sUnitsAgree
	t.sCases += o.sCases
	t.sCasesAgree += o.sCasesAgree
	t.nodesCmp += o.nodesCmp
	t.nodesSkip += o.nodesSkip
	t.tieCases += o.tieCases
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

func pctValue(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// divergence: one row of the report.
type divergence struct {
	Case, Field, Upstream, Wasched string
	Allowed                        *allowEntry
}

func runCompare(args []string) (int, error) {
	fl := flag.NewFlagSet("compare", flag.ExitOnError)
	casesDir := fl.String("cases", "", "folder written by gather")
	wres := fl.String("wasched-results", "", "folder written by `wasched-diff wasched`")
	ures := fl.String("upstream", "", "upstream results: schedule/<case>.json and validate/<case>.json")
	allowPath := fl.String("allow", "", "allowlist of known divergences")
	knownGaps := fl.String("known-gaps", "docs/known-gaps.md", "where the allowlist's anchors live")
	reportDir := fl.String("report", "", "folder for divergences.tsv and summary.txt")
	minV := fl.Float64("min-validation", 0, "fail below this % of validation cases agreeing")
	minS := fl.Float64("min-scheduling", 0, "fail below this % of scheduling outcomes agreeing")
	maxUnlisted := fl.Int("max-unlisted", 0, "fail above this many divergences not in the allowlist (a ratchet while the remaining ones are triaged)")
	plainKey := fl.Bool("validation-without-object", false, "compare validation errors as (type, field) only")
	expectValid := fl.String("expect-valid", "", "comma-separated families whose inputs must be valid (generated ones)")
	fl.Parse(args)
	if *casesDir == "" || *wres == "" || *ures == "" || *reportDir == "" {
		return 2, fmt.Errorf("compare: --cases, --wasched-results, --upstream and --report are required")
	}
	cases, err := readCases(*casesDir)
	if err != nil {
		return 2, err
	}
	allow, err := readAllow(*allowPath)
	if err != nil {
		return 2, err
	}
	if err := checkAnchors(allow, *knownGaps, *allowPath); err != nil {
		return 2, err
	}
	families := map[string]*tally{}
	var divs []divergence
	mustBeValid := map[string]bool{}
	for _, f := range strings.Split(*expectValid, ",") {
		if f != "" {
			mustBeValid[f] = true
		}
	}
	var invalid []string
	for _, c := range cases {
		t := families[c.Family]
		if t == nil {
			t = &tally{}
			families[c.Family] = t
		}
		var units []unit
		switch c.Mode {
		case "validate":
			var u, w ValidateResult
			uo, uok := loadOutcome(filepath.Join(*ures, "validate"), c.Name, &u)
			wo, wok := loadOutcome(filepath.Join(*wres, "validate"), c.Name, &w)
			var agree bool
			var matched, total int
			units, agree, matched, total = compareValidate(&u, &w, uok, wok, uo, wo, !*plainKey)
			if mustBeValid[c.Family] {
				for _, r := range []struct {
					who string
					ok  bool
					res *ValidateResult
				}{{"wasched", wok, &w}, {"upstream", uok, &u}} {
					if !r.ok {
						invalid = append(invalid, fmt.Sprintf("%s: %s gave no report", c.Name, r.who))
					} else if len(r.res.Errors) > 0 {
						e := r.res.Errors[0]
						invalid = append(invalid, fmt.Sprintf("%s: %s: %s %s %s: %s", c.Name, r.who, e.Object, e.Type, e.Field, e.Detail))
					}
				}
			}
			t.vCases++
			if agree {
				t.vCasesAgree++
			}
			t.vErrors += total
			t.vErrorsMatch += matched
		case "schedule":
			var u, w, p SchedResult
			uo, uok := loadOutcome(filepath.Join(*ures, "schedule"), c.Name, &u)
			wo, wok := loadOutcome(filepath.Join(*wres, "schedule"), c.Name, &w)
			po, pok := loadOutcome(filepath.Join(*wres, "probe"), c.Name, &p)
			var st schedStats
			classes, err := interchangeClasses(filepath.Join(*casesDir, "schedule", c.Name))
			if err != nil {
				return 2, err
			}
			units, st = compareSchedule(side{&u, uok, uo}, side{&w, wok, wo}, side{&p, pok, po}, classes)
			t.sCases++
			all := true
			for _, un := range units {
				t.sUnits++
				if un.Agree {
					t.sUnitsAgree++
				} else {
					all = false
				}
			}
			if all {
				t.sCasesAgree++
			}
			t.nodesCmp += st.nodesCompared
			t.nodesSkip += st.nodesSkipped
			if st.tie && uok && wok {
				t.tieCases++
			}
		}
		for _, un := range units {
			if un.Agree {
				continue
			}
			name := c.Name
			if c.Mode == "validate" {
				name += " (validate)"
			}
			d := divergence{Case: name, Field: un.Field, Upstream: un.Upstream, Wasched: un.Wasched}
			d.Allowed = match(allow, name, un)
			divs = append(divs, d)
		}
	}
	if err := os.MkdirAll(*reportDir, 0o755); err != nil {
		return 2, err
	}
	var tsv bytes.Buffer
	tsv.WriteString("case\tfield\tupstream\twasched\tknown gap\n")
	clean := func(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }
	notAllowed := 0
	for _, d := range divs {
		gap := "NOT ALLOWED"
		if d.Allowed != nil {
			gap = d.Allowed.Anchor
		} else {
			notAllowed++
		}
		fmt.Fprintf(&tsv, "%s\t%s\t%s\t%s\t%s\n", clean(d.Case), clean(d.Field), clean(d.Upstream), clean(d.Wasched), gap)
	}
	if err := os.WriteFile(filepath.Join(*reportDir, "divergences.tsv"), tsv.Bytes(), 0o644); err != nil {
		return 2, err
	}
	var sum bytes.Buffer
	var names []string
	for f := range families {
		names = append(names, f)
	}
	sort.Strings(names)
	var all tally
	fmt.Fprintf(&sum, "%-10s %-24s %-22s %-26s %-18s %s\n", "family", "validation cases", "validation errors",
		"scheduling outcomes", "scheduling cases", "node choices compared / tie-skipped (tie cases)")
	row := func(name string, t tally) {
		fmt.Fprintf(&sum, "%-10s %-24s %-22s %-26s %-18s %d / %d (%d)\n", name,
			fmt.Sprintf("%d/%d (%s)", t.vCasesAgree, t.vCases, pct(t.vCasesAgree, t.vCases)),
			fmt.Sprintf("%d/%d (%s)", t.vErrorsMatch, t.vErrors, pct(t.vErrorsMatch, t.vErrors)),
			fmt.Sprintf("%d/%d (%s)", t.sUnitsAgree, t.sUnits, pct(t.sUnitsAgree, t.sUnits)),
			fmt.Sprintf("%d/%d (%s)", t.sCasesAgree, t.sCases, pct(t.sCasesAgree, t.sCases)),
			t.nodesCmp, t.nodesSkip, t.tieCases)
	}
	for _, n := range names {
		row(n, *families[n])
		all.add(*families[n])
	}
	row("overall", all)
	fmt.Fprintf(&sum, "validation: %d/%d cases (%s), %d/%d errors (%s); scheduling: %d/%d outcomes (%s), %d/%d cases (%s); divergences: %d (%d known, %d not allowed)\n",
		all.vCasesAgree, all.vCases, pct(all.vCasesAgree, all.vCases), all.vErrorsMatch, all.vErrors, pct(all.vErrorsMatch, all.vErrors),
		all.sUnitsAgree, all.sUnits, pct(all.sUnitsAgree, all.sUnits), all.sCasesAgree, all.sCases, pct(all.sCasesAgree, all.sCases),
		len(divs), len(divs)-notAllowed, notAllowed)
	code := 0
	if v := pctValue(all.vCasesAgree, all.vCases); v < *minV {
		fmt.Fprintf(&sum, "FAIL: validation agreement %.1f%% is below %.1f%%\n", v, *minV)
		code = 1
	}
	if s := pctValue(all.sUnitsAgree, all.sUnits); s < *minS {
		fmt.Fprintf(&sum, "FAIL: scheduling agreement %.1f%% is below %.1f%%\n", s, *minS)
		code = 1
	}
	if notAllowed > *maxUnlisted {
		fmt.Fprintf(&sum, "FAIL: %d divergence(s) not in %s, more than --max-unlisted %d (NOT ALLOWED rows of %s)\n",
			notAllowed, *allowPath, *maxUnlisted, filepath.Join(*reportDir, "divergences.tsv"))
		code = 1
	} else if notAllowed > 0 {
		fmt.Fprintf(&sum, "note: %d divergence(s) not in %s yet (at most %d allowed by --max-unlisted; NOT ALLOWED rows of %s)\n",
			notAllowed, *allowPath, *maxUnlisted, filepath.Join(*reportDir, "divergences.tsv"))
	}
	for _, msg := range invalid {
		fmt.Fprintf(&sum, "FAIL: generated input is not valid: %s\n", msg)
		code = 1
	}
	for _, e := range allow {
		if e.Used == 0 {
			fmt.Fprintf(&sum, "note: %s:%d matched nothing in this run\n", *allowPath, e.Line)
		}
	}
	if err := os.WriteFile(filepath.Join(*reportDir, "summary.txt"), sum.Bytes(), 0o644); err != nil {
		return 2, err
	}
	os.Stdout.Write(sum.Bytes())
	return code, nil
}
