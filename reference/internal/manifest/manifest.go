// Package manifest reads the inputs of `wasched-reference` the way `wasched -f PATH...` does
// (design.md "Command line"): files, folders (every *.yaml, *.yml and *.json inside, recursively,
// sorted by path), "-" for stdin, multi-document YAML, and `List` objects (v1 List and typed lists
// such as PodList, whose items may omit apiVersion/kind). Documents are decoded with
// k8s.io/apimachinery's YAML-or-JSON decoder into unstructured objects.
//
// Errors name the file and the 1-based document, as wasched's do; a document without apiVersion
// or kind is an error. Not safe for concurrent use of one Loader; Load itself keeps no state.
package manifest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Object is one decoded object with where it came from.
type Object struct {
	*unstructured.Unstructured
	File  string // the path as found ("-" for stdin)
	Doc   int    // 1-based document number in File
	Index int    // position in the whole input (files in order, documents, list items)
	Lane  int    // independent group of objects (a batch case); 0 for a single input
}

// Ref renders "Kind ns/name" (or "Kind name" for cluster-scoped objects), as wasched names
// objects in errors and in the validate report's `object`.
func (o Object) Ref() string { return Ref(o.Unstructured) }

// Ref renders "Kind ns/name" or "Kind name".
func Ref(u *unstructured.Unstructured) string {
	if ns := u.GetNamespace(); ns != "" {
		return u.GetKind() + " " + ns + "/" + u.GetName()
	}
	return u.GetKind() + " " + u.GetName()
}

// Where renders "file: document N: Kind ns/name" for error lines.
func (o Object) Where() string {
	return fmt.Sprintf("%s: document %d: %s", o.File, o.Doc, o.Ref())
}

// Options tunes Load.
type Options struct {
	// Skip returns true for file paths a folder walk must not read (batch mode skips a case's
	// expected.json). Paths named explicitly are always read.
	Skip func(path string) bool
}

// Load reads every path in order. Warnings (a file given twice, a folder without manifests)
// are returned beside the objects; any error stops the load.
// Complexity: O(total input size + files × log files).
func Load(paths []string, stdin io.Reader, opts Options) ([]Object, []string, error) {
	var objs []Object
	var warnings []string
	seen := map[string]bool{}
	for _, p := range paths {
		files, err := expand(p, opts)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no *.yaml, *.yml or *.json files inside", p))
		}
		for _, f := range files {
			key := f
			if f != "-" {
				if abs, err := filepath.EvalSymlinks(f); err == nil {
					key = abs
				}
			}
			if seen[key] {
				warnings = append(warnings, fmt.Sprintf("file %s given more than once; read once", f))
				continue
			}
			seen[key] = true
			got, err := decodeFile(f, stdin, len(objs))
			if err != nil {
				return nil, nil, err
			}
			objs = append(objs, got...)
		}
	}
	return objs, warnings, nil
}

// decodeFile decodes one file ("-": stdin).
func decodeFile(f string, stdin io.Reader, base int) ([]Object, error) {
	if f == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("-: no standard input")
		}
		return decodeAll(f, stdin, base)
	}
	fh, err := os.Open(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	defer fh.Close()
	return decodeAll(f, fh, base)
}

// IsManifestFile: *.yaml, *.yml and *.json, as wasched reads from folders.
func IsManifestFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

func expand(p string, opts Options) ([]string, error) {
	if p == "-" {
		return []string{"-"}, nil
	}
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: not found", p)
		}
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !IsManifestFile(d.Name()) {
			return nil
		}
		if opts.Skip != nil && opts.Skip(path) {
			return nil
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	sort.Strings(files)
	return files, nil
}

// decodeAll decodes every document of one file; `List` documents are expanded in place.
func decodeAll(file string, r io.Reader, base int) ([]Object, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(r), 4096)
	var out []Object
	for doc := 1; ; doc++ {
		var m map[string]interface{}
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: document %d: %v", file, doc, err)
		}
		if m == nil {
			continue // empty document (`---` with nothing after it)
		}
		u := &unstructured.Unstructured{Object: m}
		if u.GetAPIVersion() == "" || u.GetKind() == "" {
			return nil, fmt.Errorf("%s: document %d: not an object: apiVersion and kind are required", file, doc)
		}
		items, err := expandList(u)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", file, doc, err)
		}
		for _, it := range items {
			out = append(out, Object{Unstructured: it, File: file, Doc: doc, Index: base + len(out)})
		}
	}
}

// expandList: a v1 List or a typed list (kind ending in "List" with an `items` array) becomes
// its items; items without apiVersion/kind take the list's apiVersion and the kind without
// "List". Nested lists are expanded too.
func expandList(u *unstructured.Unstructured) ([]*unstructured.Unstructured, error) {
	kind := u.GetKind()
	rawItems, hasItems := u.Object["items"]
	if !strings.HasSuffix(kind, "List") || !hasItems {
		return []*unstructured.Unstructured{u}, nil
	}
	items, ok := rawItems.([]interface{})
	if !ok {
		if rawItems == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: items: must be a list", kind)
	}
	var out []*unstructured.Unstructured
	for i, it := range items {
		m, ok := it.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("%s: items[%d]: must be an object", kind, i)
		}
		item := &unstructured.Unstructured{Object: m}
		if kind != "List" {
			if item.GetKind() == "" {
				item.SetKind(strings.TrimSuffix(kind, "List"))
			}
			if item.GetAPIVersion() == "" {
				item.SetAPIVersion(u.GetAPIVersion())
			}
		}
		if item.GetAPIVersion() == "" || item.GetKind() == "" {
			return nil, fmt.Errorf("%s: items[%d]: apiVersion and kind are required", kind, i)
		}
		sub, err := expandList(item)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}
