package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoad: folders are read recursively in path order, YAML documents and List items become
// objects with their file and document, typed lists give their items a kind.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b/20.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\n---\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p3}\n")
	write(t, dir, "a.json", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}]}`)
	write(t, dir, "c.yml", "apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p4}\n")
	write(t, dir, "skip.txt", "not a manifest")
	write(t, dir, "expected.json", `{"x": 1}`)
	objs, warnings, err := Load([]string{dir}, nil, Options{Skip: func(p string) bool { return filepath.Base(p) == "expected.json" }})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("err %v warnings %v", err, warnings)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.GetKind()+"/"+o.GetName()+"@"+filepath.Base(o.File)+":"+string(rune('0'+o.Doc)))
	}
	// The YAML reader drops the empty document between the two separators.
	want := "Node/n1@a.json:1 Pod/p2@20.yaml:1 Pod/p3@20.yaml:2 Pod/p4@c.yml:1"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	noKind := write(t, dir, "x.yaml", "apiVersion: v1\nmetadata: {name: p}\n")
	if _, _, err := Load([]string{noKind}, nil, Options{}); err == nil || !strings.Contains(err.Error(), "document 1") {
		t.Errorf("no kind: %v", err)
	}
	if _, _, err := Load([]string{filepath.Join(dir, "missing.yaml")}, nil, Options{}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing: %v", err)
	}
	bad := write(t, dir, "bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata: [\n")
	if _, _, err := Load([]string{bad}, nil, Options{}); err == nil {
		t.Errorf("malformed YAML accepted")
	}
	p := write(t, dir, "ok.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
	_, warnings, err := Load([]string{p, p}, nil, Options{})
	if err != nil || len(warnings) != 1 {
		t.Errorf("twice: %v %v", err, warnings)
	}
}
