// Command wasched-diff is the differential suite's runner and comparator (tests/differential/
// README.md): the same inputs through `wasched` and through the real v1.37.2 control plane
// (wasched-reference), compared on what upstream makes deterministic.
//
//	wasched-diff gather  --repo ROOT --random DIR --out DIR [--families LIST]
//	wasched-diff wasched --wasched BIN --cases DIR --out DIR [--parallel N]
//	wasched-diff fake-upstream --cases DIR --wasched-results DIR --out DIR
//	wasched-diff compare --cases DIR --wasched-results DIR --upstream DIR --allow FILE
//	                     --known-gaps FILE --report DIR [--min-validation P] [--min-scheduling P]
//	                     [--max-unlisted N]
//
// `gather` copies every input family into one folder of cases: DIR/schedule/<case>/ (manifests
// for `schedule`) and DIR/validate/<case>/ (the new objects, and old.yaml for updates), with
// DIR/cases.json listing them. `wasched` runs build/src/wasched on every case, plus a second `schedule` run with node
// names and topology values renamed so that wasched's lowest-name tie-break picks the other end
// (the "tie probe": another answer wasched rates equally good). `compare` reads both sides and
// writes the divergence report and the agreement summary; it exits 1 when agreement is below a
// threshold or a divergence is not in the allowlist. `fake-upstream` writes the tie probe's
// answers as a stand-in upstream, to test the plumbing without a control plane.
//
// Standard library plus k8s.io/apimachinery's YAML decoder (the module's own graph).
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gather":
		err = runGather(os.Args[2:])
	case "wasched":
		err = runWasched(os.Args[2:])
	case "fake-upstream":
		err = runFakeUpstream(os.Args[2:])
	case "compare":
		var code int
		code, err = runCompare(os.Args[2:])
		if err == nil {
			os.Exit(code)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: wasched-diff gather|wasched|fake-upstream|compare [flags] (see -h of each)")
	os.Exit(2)
}
