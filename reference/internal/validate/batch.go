package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/manifest"
)

// BatchOptions configures RunBatch.
type BatchOptions struct {
	Client   *kube.Client
	CasesDir string
	OutDir   string
	Parallel int
	Log      io.Writer
}

// BatchSummary counts what RunBatch did.
type BatchSummary struct {
	Cases, WithErrors, Unreadable int
	Elapsed                       time.Duration
}

type vcase struct {
	rel        string // path of the case folder under CasesDir ("." for CasesDir itself)
	news, olds []string
}

// FindCases: every sub-folder of dir is a case, sorted by name. A case with a `new/` folder
// validates the manifests under it, as updates of those under `old/` when that exists (the
// differential suite's layout); otherwise it validates every manifest inside, recursively, with
// files named old.yaml / old.yml / old.json as its --old objects. expected.* files are skipped.
func FindCases(dir string) ([]vcase, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []vcase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := vcase{rel: e.Name()}
		root := filepath.Join(dir, e.Name())
		if st, err := os.Stat(filepath.Join(root, "new")); err == nil && st.IsDir() {
			c.news = []string{filepath.Join(root, "new")}
			if st, err := os.Stat(filepath.Join(root, "old")); err == nil && st.IsDir() {
				c.olds = []string{filepath.Join(root, "old")}
			}
		} else {
			err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !manifest.IsManifestFile(d.Name()) {
					return err
				}
				switch strings.TrimSuffix(d.Name(), filepath.Ext(d.Name())) {
				case "expected":
				case "old":
					c.olds = append(c.olds, p)
				default:
					c.news = append(c.news, p)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		if len(c.news) > 0 {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
}

// RunBatch validates every case and writes `<out>/<case>.json` (the report) and
// `<case>.outcome.json` ({"exitCode": 0 or 1}; {"refused": true, "exitCode": 1, "message"} for
// input that cannot be read, as the differential suite reads them). Cases that only touch namespaced objects run
// `Parallel` at a time, each in namespaces renamed with its own prefix ("vr<N>-", so that their
// --old objects cannot collide); cases that create cluster-scoped objects for real (their
// PriorityClasses, a cluster-scoped --old object) run one at a time afterwards.
func RunBatch(ctx context.Context, opts BatchOptions) (BatchSummary, error) {
	start := time.Now()
	var sum BatchSummary
	cases, err := FindCases(opts.CasesDir)
	if err != nil {
		return sum, err
	}
	sum.Cases = len(cases)
	type job struct {
		idx        int
		c          vcase
		objs, olds []manifest.Object
	}
	var parallel, serial []job
	for i, c := range cases {
		objs, _, err := manifest.Load(c.news, nil, manifest.Options{})
		var olds []manifest.Object
		if err == nil && len(c.olds) > 0 {
			olds, _, err = manifest.Load(c.olds, nil, manifest.Options{})
		}
		if err != nil {
			sum.Unreadable++
			if werr := WriteOutcome(opts.OutDir, c.rel, Outcome{Refused: true, ExitCode: 1, Message: err.Error()}); werr != nil {
				return sum, werr
			}
			continue
		}
		j := job{idx: i, c: c, objs: objs, olds: olds}
		if clusterScopedReal(opts.Client, objs, olds) {
			serial = append(serial, j)
		} else {
			parallel = append(parallel, j)
		}
	}
	var mu sync.Mutex
	var firstErr error
	do := func(j job, rename func(string) string, prefix string) {
		rep, warnings, err := Validate(ctx, Options{Client: opts.Client, Rename: rename}, j.objs, j.olds)
		mu.Lock()
		defer mu.Unlock()
		for _, w := range warnings {
			fmt.Fprintf(opts.Log, "%s: warning: %s\n", j.c.rel, strings.ReplaceAll(w, prefix, ""))
		}
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: %w", j.c.rel, err)
			}
			return
		}
		if prefix != "" {
			for i := range rep.Errors {
				rep.Errors[i].Detail = strings.ReplaceAll(rep.Errors[i].Detail, prefix, "")
				rep.Errors[i].Value = strings.ReplaceAll(rep.Errors[i].Value, prefix, "")
			}
		}
		code := 0
		if len(rep.Errors) > 0 {
			sum.WithErrors++
			code = 1
		}
		b, err := rep.JSON()
		if err == nil {
			err = write(opts.OutDir, j.c.rel, ".json", b)
		}
		if err == nil {
			err = WriteOutcome(opts.OutDir, j.c.rel, Outcome{ExitCode: code})
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	par := opts.Parallel
	if par < 1 {
		par = 1
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				prefix := fmt.Sprintf("vr%04d-", j.idx)
				do(j, func(ns string) string { return prefix + ns }, prefix)
			}
		}()
	}
	for _, j := range parallel {
		work <- j
	}
	close(work)
	wg.Wait()
	for _, j := range serial {
		do(j, nil, "")
	}
	sum.Elapsed = time.Since(start)
	return sum, firstErr
}

// clusterScopedReal: does validating the case create a cluster-scoped object for real?
func clusterScopedReal(c *kube.Client, objs, olds []manifest.Object) bool {
	for _, o := range objs {
		if apply.Rank(o.Unstructured) == apply.RankPriorityClass {
			return true
		}
	}
	for _, o := range olds {
		if ok, err := c.Namespaced(o.GroupVersionKind()); err == nil && !ok {
			return true
		}
	}
	return false
}

// Outcome is `<case>.outcome.json`: how the run ended when it did not simply print a result
// (the differential suite's reader, reference/cmd/wasched-diff/results.go).
type Outcome struct {
	Refused  bool   `json:"refused,omitempty"`
	Failed   bool   `json:"failed,omitempty"`
	ExitCode int    `json:"exitCode"`
	Message  string `json:"message,omitempty"`
}

// WriteOutcome writes `<dir>/<name>.outcome.json`.
func WriteOutcome(dir, name string, o Outcome) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return write(dir, name, ".outcome.json", append(b, '\n'))
}

func write(dir, rel, ext string, b []byte) error {
	name := rel
	if name == "." {
		name = "case"
	}
	p := filepath.Join(dir, name+ext)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
