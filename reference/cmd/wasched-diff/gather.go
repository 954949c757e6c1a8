package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one input of the suite: a folder of manifests run through `schedule`, or a `validate`
// input (new/ and, for updates, old/).
type Case struct {
	Name   string `json:"name"`   // <family>.<id>: the folder name under schedule/ or validate/
	Family string `json:"family"` // scenarios, bug, upstream, corpus, random, affinity
	Mode   string `json:"mode"`   // schedule or validate
	Source string `json:"source"` // where it came from, relative to the repository
}

// corpusDirs: the convert/validate corpus under tests/data (every manifest file is one validate
// case; a folder directly under bad/ is one case). Left out: hostile/ (inputs built to exhaust a
// parser, not manifests), traces and alibaba-openb (trace data), upstream-cases (own family).
var corpusDirs = []string{"validate", "convert", "bad", "jobs", "jobs-dangling", "jobs-invalid",
	"malformed", "dra", "kubernetes-website"}

func runGather(args []string) error {
	fl := flag.NewFlagSet("gather", flag.ExitOnError)
	repo := fl.String("repo", ".", "repository root")
	random := fl.String("random", "", "folder of generated cases (wasched-diffgen -out)")
	affinity := fl.String("affinity", "", "folder of generated affinity cases (wasched-diffgen -family affinity -out)")
	out := fl.String("out", "", "output folder")
	families := fl.String("families", "scenarios,bug,upstream,corpus,random,affinity", "families to gather")
	fl.Parse(args)
	if *out == "" {
		return fmt.Errorf("gather: --out is required")
	}
	want := map[string]bool{}
	for _, f := range strings.Split(*families, ",") {
		want[strings.TrimSpace(f)] = true
	}
	g := &gatherer{repo: *repo, out: *out}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	if want["scenarios"] {
		if err := g.folders("scenarios", "tests/scenarios", true); err != nil {
			return err
		}
	}
	if want["bug"] {
		if err := g.folders("bug", "tests/differential/cases/bug", true); err != nil {
			return err
		}
	}
	if want["upstream"] {
		if err := g.upstreamCases(); err != nil {
			return err
		}
	}
	if want["corpus"] {
		if err := g.corpus(); err != nil {
			return err
		}
	}
	if want["random"] && *random != "" {
		if err := g.foldersAbs("random", *random, *random, true); err != nil {
			return err
		}
	}
	if want["affinity"] && *affinity != "" {
		if err := g.foldersAbs("affinity", *affinity, *affinity, true); err != nil {
			return err
		}
	}
	sort.Slice(g.cases, func(i, j int) bool {
		if g.cases[i].Mode != g.cases[j].Mode {
			return g.cases[i].Mode < g.cases[j].Mode
		}
		return g.cases[i].Name < g.cases[j].Name
	})
	data, err := json.MarshalIndent(g.cases, "", "  ")
	if err != nil {
		return err
	}
	n := map[string]int{}
	for _, c := range g.cases {
		n[c.Mode]++
	}
	fmt.Printf("gathered %d schedule and %d validate cases in %s\n", n["schedule"], n["validate"], *out)
	return os.WriteFile(filepath.Join(*out, "cases.json"), append(data, '\n'), 0o644)
}

type gatherer struct {
	repo, out string
	cases     []Case
}

func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return name != "expected.json"
	}
	return false
}

// caseID: a folder-safe id: lower case letters, digits, '-', '_' and '.'.
func caseID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// manifests: the manifest files directly in dir, sorted (what `wasched -f dir` reads).
func manifests(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && isManifest(e.Name()) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files, nil
}

func copyFiles(files []string, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// add: one case of `files`; schedule cases also get a validate twin of the same input. A
// validate case is a folder with the new objects' files and, for updates, the stored objects in
// old.yaml (wasched-reference validate-batch's layout).
func (g *gatherer) add(family, id, source string, files, old []string, schedule bool) error {
	name := family + "." + caseID(id)
	if schedule {
		if err := copyFiles(files, filepath.Join(g.out, "schedule", name)); err != nil {
			return err
		}
		g.cases = append(g.cases, Case{name, family, "schedule", source})
	}
	dir := filepath.Join(g.out, "validate", name)
	if err := copyFiles(files, dir); err != nil {
		return err
	}
	for _, f := range files {
		if isOldFile(filepath.Base(f)) {
			return fmt.Errorf("%s: a new object's file may not be named %s", source, filepath.Base(f))
		}
	}
	if len(old) > 0 {
		var buf []byte
		for i, f := range old {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if i > 0 {
				buf = append(buf, "\n---\n"...)
			}
			buf = append(buf, data...)
		}
		if err := os.WriteFile(filepath.Join(dir, "old.yaml"), buf, 0o644); err != nil {
			return err
		}
	}
	g.cases = append(g.cases, Case{name, family, "validate", source})
	return nil
}

// isOldFile: the stored objects of a validate case (old.yaml, old.yml, old.json).
func isOldFile(base string) bool {
	return strings.TrimSuffix(base, filepath.Ext(base)) == "old"
}

// folders: every sub-folder of repo/rel holding manifests is one case.
func (g *gatherer) folders(family, rel string, schedule bool) error {
	return g.foldersAbs(family, filepath.Join(g.repo, rel), rel, schedule)
}

func (g *gatherer) foldersAbs(family, dir, source string, schedule bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, err := manifests(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			continue
		}
		if err := g.add(family, e.Name(), filepath.Join(source, e.Name()), files, nil, schedule); err != nil {
			return err
		}
	}
	return nil
}

// upstreamCases: tests/data/upstream-cases/<section>/<id>/ new.yaml (+ old.yaml). Every case is
// compared with every gate on (the reference runs so); gates.txt is not used.
func (g *gatherer) upstreamCases() error {
	root := filepath.Join(g.repo, "tests/data/upstream-cases")
	sections, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, s := range sections {
		if !s.IsDir() {
			continue
		}
		ids, err := os.ReadDir(filepath.Join(root, s.Name()))
		if err != nil {
			return err
		}
		for _, id := range ids {
			dir := filepath.Join(root, s.Name(), id.Name())
			newFile := filepath.Join(dir, "new.yaml")
			if _, err := os.Stat(newFile); err != nil {
				continue
			}
			var old []string
			if _, err := os.Stat(filepath.Join(dir, "old.yaml")); err == nil {
				old = []string{filepath.Join(dir, "old.yaml")}
			}
			src := filepath.Join("tests/data/upstream-cases", s.Name(), id.Name())
			if err := g.add("upstream", id.Name(), src, []string{newFile}, old, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// corpus: every manifest file under the corpus folders (a folder directly under bad/ is one
// case), plus the update pair validate/updated-workload.yaml over validate/stored-workload.yaml.
func (g *gatherer) corpus() error {
	for _, d := range corpusDirs {
		root := filepath.Join(g.repo, "tests/data", d)
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join(g.repo, "tests/data"), path)
			if e.IsDir() {
				if d == "bad" && path != root {
					files, err := manifests(path)
					if err != nil {
						return err
					}
					if err := g.add("corpus", rel, filepath.Join("tests/data", rel), files, nil, false); err != nil {
						return err
					}
					return filepath.SkipDir
				}
				return nil
			}
			if !isManifest(e.Name()) {
				return nil
			}
			return g.add("corpus", strings.TrimSuffix(rel, filepath.Ext(rel)), filepath.Join("tests/data", rel),
				[]string{path}, nil, false)
		})
		if err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	v := filepath.Join(g.repo, "tests/data/validate")
	if _, err := os.Stat(filepath.Join(v, "updated-workload.yaml")); err == nil {
		return g.add("corpus", "validate/updated-workload--old-stored-workload", "tests/data/validate",
			[]string{filepath.Join(v, "updated-workload.yaml")}, []string{filepath.Join(v, "stored-workload.yaml")}, false)
	}
	return nil
}

func readCases(dir string) ([]Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		return nil, err
	}
	var cases []Case
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "cases.json"), err)
	}
	return cases, nil
}
