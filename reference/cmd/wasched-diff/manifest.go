package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// doc is one manifest decoded to JSON values (numbers kept as json.Number, so re-encoding
// writes them unchanged).
type doc = map[string]any

// readDocs: the documents of one manifest file (YAML streams split at `---`, JSON as is, `List`
// objects expanded to their items), in file order.
func readDocs(path string) ([]doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs []doc
	for {
		raw, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		js, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var d doc
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if d == nil {
			continue
		}
		if items, ok := d["items"].([]any); ok && isList(d) {
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					docs = append(docs, m)
				}
			}
			continue
		}
		docs = append(docs, d)
	}
	return docs, nil
}

func isList(d doc) bool {
	k, _ := d["kind"].(string)
	return k == "List" || (len(k) > 4 && k[len(k)-4:] == "List")
}

// caseFiles: the manifest files of a case folder, sorted by name.
func caseFiles(dir string) ([]string, error) {
	files, err := manifests(dir)
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// writeDocs: `docs` as JSON documents separated by `---`.
func writeDocs(path string, docs []doc) error {
	var buf bytes.Buffer
	for i, d := range docs {
		if i > 0 {
			buf.WriteString("---\n")
		}
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func str(m map[string]any, keys ...string) string {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[k]
	}
	s, _ := cur.(string)
	return s
}

func child(m map[string]any, keys ...string) map[string]any {
	cur := m
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}
