// Package validate asks the reference API server what it thinks of each input object and
// renders the answer as wasched's validate report (design.md "validate JSON output"):
// `{"errors": [{"object", "type", "field", "origin", "detail"}]}`, plus `file`, `document` and
// `value` as wasched adds them.
//
// Each object is sent with dryRun=All: a create, or — when --old holds an object of the same
// group, kind, namespace and name — an update of that stored object (the --old object is
// created for real first). What admission needs to exist is created for real and removed
// afterwards: the namespaces, and the input's PriorityClasses (the Priority admission plugin
// resolves a pod's priorityClassName). The errors come from the Status the API server returns:
// each cause's reason maps to a type (FieldValueInvalid → Invalid, FieldValueRequired →
// Required, FieldValueNotSupported → NotSupported, FieldValueForbidden → Forbidden,
// FieldValueTooMany → TooMany, FieldValueDuplicate → Duplicate, InternalError →
// InternalError; NotFound, TooLong, TypeInvalid and the others become Invalid as in wasched's
// report), `field` is the cause's field, `detail` the cause's message without its leading
// "<Type>: <value>: " (the value goes to `value`). The API does not carry the
// declarative-validation origin, so `origin` is always "".
package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/manifest"
)

// Error is one line of the report.
type Error struct {
	Object   string `json:"object"`
	Type     string `json:"type"`
	Field    string `json:"field"`
	Origin   string `json:"origin"`
	Detail   string `json:"detail"`
	File     string `json:"file,omitempty"`
	Document int    `json:"document,omitempty"`
	Value    string `json:"value,omitempty"`
}

// Report is the whole document.
type Report struct {
	Errors []Error `json:"errors"`
}

// JSON renders the report as wasched does (2-space indent, trailing newline).
func (r *Report) JSON() ([]byte, error) {
	if r.Errors == nil {
		r.Errors = []Error{}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Options configures Validate.
type Options struct {
	Client *kube.Client
	// Rename maps an input namespace to the one used in the cluster (batch isolation); nil keeps
	// names. Reports always use the input's names.
	Rename func(ns string) string
}

type objKey struct{ group, kind, ns, name string }

func keyOf(u *unstructured.Unstructured) objKey {
	gvk := u.GroupVersionKind()
	return objKey{gvk.Group, gvk.Kind, u.GetNamespace(), u.GetName()}
}

// Validate checks objs (each as a create, or as an update of its --old counterpart in olds)
// and returns the report. Errors that are not about the input (the API server unreachable)
// are returned as error.
func Validate(ctx context.Context, opts Options, objs, olds []manifest.Object) (*Report, []string, error) {
	c := opts.Client
	rename := opts.Rename
	if rename == nil {
		rename = func(ns string) string { return ns }
	}
	var warnings []string
	report := &Report{Errors: []Error{}}
	// Prepare copies in cluster names.
	prep := func(in []manifest.Object) ([]manifest.Object, error) {
		out := make([]manifest.Object, 0, len(in))
		for _, o := range in {
			cp := o
			cp.Unstructured = o.DeepCopy()
			if apply.Rank(cp.Unstructured) == apply.RankNamespace {
				cp.SetName(rename(cp.GetName()))
			} else if cp.GetNamespace() != "" || namespacedKind(c, cp.Unstructured) {
				ns := cp.GetNamespace()
				if ns == "" {
					ns = "default"
				}
				cp.SetNamespace(rename(ns))
			}
			out = append(out, cp)
		}
		return out, nil
	}
	cobjs, _ := prep(objs)
	colds, _ := prep(olds)

	// Real objects: namespaces, PriorityClasses, old objects.
	// Objects of a kind the API server does not serve are reported below, one by one; the
	// namespaces of the others exist, as they would for a user who created them first.
	// Every served kind counts here, those the scheduling harness skips (a ConfigMap) too.
	nsSet := map[string]bool{}
	for _, o := range append(append([]manifest.Object(nil), cobjs...), colds...) {
		if apply.Rank(o.Unstructured) == apply.RankNamespace {
			nsSet[o.GetName()] = true
			continue
		}
		if namespaced, err := c.Namespaced(o.GroupVersionKind()); err == nil && namespaced {
			ns := o.GetNamespace()
			if ns == "" {
				ns = rename("default")
			}
			nsSet[ns] = true
		}
	}
	var nss []string
	for ns := range nsSet {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	var created []apply.ClusterObject
	var createdNS []string
	var deleters []func()
	defer func() {
		for i := len(deleters) - 1; i >= 0; i-- {
			deleters[i]()
		}
		_ = apply.Cleanup(context.Background(), c, createdNS, created, time.Minute)
	}()
	for _, ns := range nss {
		if apply.ProtectedNamespace(ns) {
			continue
		}
		made, err := apply.EnsureNamespace(ctx, c, ns)
		if err != nil {
			return nil, nil, fmt.Errorf("creating namespace %s: %w", ns, err)
		}
		if made {
			createdNS = append(createdNS, ns)
		}
	}
	// PriorityClasses of the input exist for real while the others are checked: a create of
	// one validates it like a dry run would.
	done := map[int]bool{}
	for i, o := range cobjs {
		if apply.Rank(o.Unstructured) != apply.RankPriorityClass {
			continue
		}
		done[i] = true
		ri, m, err := c.ResourceFor(o.Unstructured)
		if err != nil {
			report.Errors = append(report.Errors, unserved(objs[i], err))
			continue
		}
		if _, err := ri.Create(ctx, prepare(o.Unstructured), metav1.CreateOptions{}); err != nil {
			report.Errors = append(report.Errors, FromAPIError(objs[i], err)...)
			continue
		}
		created = append(created, apply.ClusterObject{GVR: m.Resource, Name: o.GetName()})
	}
	// The --old objects are created with server-side apply under this tool's field manager, and
	// the new objects are applied (dry run, forced) under the same manager: fields the new object
	// leaves out are removed, while what the API server filled in (a Job's generated selector and
	// template labels, a PodGroup's priority from its PriorityClass) stays, as with `kubectl apply`.
	// A plain update would carry none of those and fail on them.
	stored := map[objKey]bool{}
	oldOrder := make([]int, len(colds))
	for i := range oldOrder {
		oldOrder[i] = i
	}
	sort.SliceStable(oldOrder, func(a, b int) bool {
		return apply.Rank(colds[oldOrder[a]].Unstructured) < apply.Rank(colds[oldOrder[b]].Unstructured)
	})
	for _, i := range oldOrder {
		o := colds[i]
		ri, m, err := c.ResourceFor(o.Unstructured)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: --old object: %v", o.Where(), err))
			continue
		}
		if stored[keyOf(o.Unstructured)] {
			// Given twice in the --old set: reported as -f reports duplicates.
			report.Errors = append(report.Errors, Error{Object: objectName(olds[i]), Type: "Duplicate", Field: "metadata.name",
				Detail: fmt.Sprintf("%q", o.GetName()), File: o.File, Document: o.Doc, Value: fmt.Sprintf("%q", o.GetName())})
			continue
		}
		if _, err := applyObject(ctx, ri, prepare(o.Unstructured), nil); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: --old object refused by the API server: %s", o.Where(), apply.DescribeAPIError(err)))
			continue
		}
		if status, ok, _ := unstructured.NestedMap(o.Object, "status"); ok && len(status) > 0 {
			if _, err := applyObject(ctx, ri, statusOnly(o.Unstructured), nil, "status"); err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: --old object's status refused by the API server: %s", o.Where(), apply.DescribeAPIError(err)))
			}
		}
		if o.GetNamespace() == "" {
			created = append(created, apply.ClusterObject{GVR: m.Resource, Name: o.GetName()})
		} else {
			name := o.GetName()
			deleters = append(deleters, func() {
				zero := int64(0)
				bg := metav1.DeletePropagationBackground
				_ = ri.Delete(context.Background(), name, metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &bg})
			})
		}
		stored[keyOf(o.Unstructured)] = true
	}
	// A dry run never stores anything, so a second object of the same kind, namespace and name
	// would pass too; a real `kubectl create -f` of the input fails it with AlreadyExists, which
	// is what is reported (FromAPIError's mapping: Duplicate at metadata.name).
	inInput := map[objKey]bool{}
	for i, o := range cobjs {
		if done[i] {
			continue
		}
		if apply.Rank(o.Unstructured) == apply.RankNamespace {
			continue // created above
		}
		if key := keyOf(o.Unstructured); inInput[key] && !stored[key] {
			report.Errors = append(report.Errors, Error{Object: objectName(objs[i]), Type: "Duplicate", Field: "metadata.name",
				Detail: fmt.Sprintf("%q already exists (an earlier object of the input)", o.GetName()), File: o.File, Document: o.Doc,
				Value: fmt.Sprintf("%q", o.GetName())})
			continue
		} else {
			inInput[key] = true
		}
		ri, _, err := c.ResourceFor(o.Unstructured)
		if err != nil {
			report.Errors = append(report.Errors, unserved(objs[i], err))
			continue
		}
		u := prepare(o.Unstructured)
		dry := []string{metav1.DryRunAll}
		if stored[keyOf(o.Unstructured)] {
			_, err = applyObject(ctx, ri, u, dry)
			errs := FromAPIError(objs[i], err)
			// A status in the new object is an update of the status subresource too (the main
			// resource ignores it), checked the same way.
			if status, ok, _ := unstructured.NestedMap(o.Object, "status"); ok && len(status) > 0 {
				_, serr := applyObject(ctx, ri, statusOnly(o.Unstructured), dry, "status")
				errs = appendNew(errs, FromAPIError(objs[i], serr))
			}
			report.Errors = append(report.Errors, errs...)
			continue
		}
		_, err = ri.Create(ctx, u, metav1.CreateOptions{DryRun: dry, FieldValidation: fieldValidation(dry)})
		report.Errors = append(report.Errors, FromAPIError(objs[i], err)...)
	}
	return report, warnings, nil
}

var nsGVR = kube.Namespaces

// fieldManager owns the fields of the --old objects and of the new objects applied over them.
const fieldManager = "wasched-reference"

// applyObject server-side applies u (forced), as a dry run when dry is set, to the object or to
// one of its subresources. A dry run (the object checked) uses strict field validation, as
// `kubectl apply` does by default (--validate=strict): an unknown field is an error. The stored
// --old objects are applied with unknown fields dropped and a warning.
func applyObject(ctx context.Context, ri dynamic.ResourceInterface, u *unstructured.Unstructured, dry []string, subresources ...string) (*unstructured.Unstructured, error) {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	force := true
	return ri.Patch(ctx, u.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{
		DryRun: dry, Force: &force, FieldManager: fieldManager, FieldValidation: fieldValidation(dry)}, subresources...)
}

// fieldValidation: "Strict" for a dry run (what is checked), "Warn" for what is stored.
func fieldValidation(dry []string) string {
	if len(dry) > 0 {
		return "Strict"
	}
	return "Warn"
}

// statusOnly: apiVersion, kind, name, namespace and status of u (a status subresource apply).
func statusOnly(in *unstructured.Unstructured) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": in.GetAPIVersion(), "kind": in.GetKind(), "status": in.Object["status"]}}
	u.SetName(in.GetName())
	u.SetNamespace(in.GetNamespace())
	return u
}

// appendNew appends the errors of more that list does not hold yet (same type, field, detail).
func appendNew(list, more []Error) []Error {
	for _, m := range more {
		dup := false
		for _, e := range list {
			if e.Type == m.Type && e.Field == m.Field && e.Detail == m.Detail {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, m)
		}
	}
	return list
}

func namespacedKind(c *kube.Client, u *unstructured.Unstructured) bool {
	ok, err := c.Namespaced(u.GroupVersionKind())
	return err == nil && ok
}

func prepare(in *unstructured.Unstructured) *unstructured.Unstructured {
	u := in.DeepCopy()
	unstructured.RemoveNestedField(u.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	unstructured.RemoveNestedField(u.Object, "metadata", "uid")
	return u
}

// unserved: an object of a kind or version the API server does not serve. kubectl refuses it
// itself ("no matches for kind …"), so there is no API error type: it is reported as wasched
// reports it, NotSupported at apiVersion, the object named as written (no default namespace:
// without a served kind it is not known to be namespaced).
func unserved(o manifest.Object, err error) Error {
	name := o.GetKind() + " " + o.GetName()
	if ns := o.GetNamespace(); ns != "" {
		name = o.GetKind() + " " + ns + "/" + o.GetName()
	}
	return Error{Object: name, Type: "NotSupported", Field: "apiVersion", Detail: err.Error(), File: o.File, Document: o.Doc}
}

func objectName(o manifest.Object) string {
	ns := o.GetNamespace()
	if ns == "" && o.GetKind() != "Namespace" && o.GetKind() != "Node" && o.GetKind() != "PriorityClass" &&
		o.GetKind() != "DeviceClass" && o.GetKind() != "ResourceSlice" {
		ns = "default"
	}
	if ns == "" {
		return strings.TrimSpace(o.GetKind() + " " + o.GetName())
	}
	return o.GetKind() + " " + ns + "/" + o.GetName()
}

// FromAPIError turns an API error into report lines (none for nil).
func FromAPIError(o manifest.Object, err error) []Error {
	if err == nil {
		return nil
	}
	base := Error{Object: objectName(o), File: o.File, Document: o.Doc}
	st, ok := err.(apierrors.APIStatus)
	if !ok {
		e := base
		e.Type, e.Detail = "InternalError", err.Error()
		return []Error{e}
	}
	status := st.Status()
	if status.Details != nil && len(status.Details.Causes) > 0 && status.Reason == metav1.StatusReasonInvalid {
		var out []Error
		for _, cause := range status.Details.Causes {
			e := base
			e.Field = cause.Field
			e.Type, e.Value, e.Detail = ParseCause(string(cause.Type), cause.Message)
			out = append(out, e)
		}
		return out
	}
	e := base
	e.Detail = status.Message
	if strings.Contains(status.Message, "no kind \"") && strings.Contains(status.Message, "is registered for version") {
		// A kind the scheme does not know (`kind: pod`): as an unserved kind, named as written.
		e.Object = strings.TrimSpace(o.GetKind() + " " + o.GetName())
		if ns := o.GetNamespace(); ns != "" {
			e.Object = o.GetKind() + " " + ns + "/" + o.GetName()
		}
		e.Type, e.Field = "NotSupported", "kind"
		return []Error{e}
	}
	if fields := unknownFields(status.Message); len(fields) > 0 {
		// Strict field validation: "strict decoding error: unknown field "spec.x", unknown field
		// "spec.y"" (a BadRequest without causes), one error per field as wasched reports them.
		var out []Error
		for _, f := range fields {
			e := base
			e.Type, e.Field, e.Detail = "Invalid", f, fmt.Sprintf("unknown field %q", f)
			out = append(out, e)
		}
		return out
	}
	if f, ok := decodeField(status.Message); ok {
		// A value of the wrong JSON type never reaches validation: the API server names the Go
		// struct field, its path without list indices ("spec.podGroupTemplates.schedulingPolicy").
		e.Type, e.Field, e.Origin = "Invalid", f, DecodeOrigin
		return []Error{e}
	}
	switch status.Reason {
	case metav1.StatusReasonForbidden:
		e.Type = "Forbidden"
		e.Field = admissionField(status.Message)
	case metav1.StatusReasonAlreadyExists:
		e.Type, e.Field = "Duplicate", "metadata.name"
	case metav1.StatusReasonInternalError:
		e.Type = "InternalError"
	default:
		e.Type = "Invalid"
	}
	return []Error{e}
}

// causeTypes: StatusCause reason → (wasched type, the ErrorType.String() the message starts
// with), from k8s.io/apimachinery/pkg/util/validation/field/errors.go.
var causeTypes = map[string][2]string{
	"FieldValueNotFound":     {"Invalid", "Not found"},
	"FieldValueRequired":     {"Required", "Required value"},
	"FieldValueDuplicate":    {"Duplicate", "Duplicate value"},
	"FieldValueInvalid":      {"Invalid", "Invalid value"},
	"FieldValueNotSupported": {"NotSupported", "Unsupported value"},
	"FieldValueForbidden":    {"Forbidden", "Forbidden"},
	"FieldValueTooLong":      {"Invalid", "Too long"},
	"FieldValueTooMany":      {"TooMany", "Too many"},
	"InternalError":          {"InternalError", "Internal error"},
	"FieldValueTypeInvalid":  {"Invalid", "Invalid value"},
	"FieldValueTooShort":     {"Invalid", "Too short"},
	"FieldValueTooFew":       {"Invalid", "Too few"},
}

// ParseCause splits a cause message (field.Error.ErrorBody: "<Type>[: <value>][: <detail>]")
// into wasched's type, the rendered value and the detail. A NotFound becomes Invalid with the
// detail `not found: <value>[: detail]`, an empty TooLong detail "too long", as wasched writes
// them. The value is recognised as a Go-quoted string, a JSON object or array, or a number /
// boolean / null token followed by ": " or the end; anything else is detail.
func ParseCause(reason, msg string) (typ, value, detail string) {
	ct, ok := causeTypes[reason]
	if !ok {
		ct = [2]string{"Invalid", ""}
	}
	typ = ct[0]
	rest := msg
	if ct[1] != "" && strings.HasPrefix(rest, ct[1]) {
		rest = strings.TrimPrefix(rest, ct[1])
		rest = strings.TrimPrefix(rest, ": ")
	}
	switch reason {
	case "FieldValueRequired", "FieldValueForbidden", "FieldValueTooLong", "FieldValueTooShort", "InternalError":
		// no value in the message (ErrorBody)
	default:
		value, rest = splitValue(rest)
	}
	detail = rest
	switch reason {
	case "FieldValueNotFound":
		d := "not found"
		if value != "" {
			d += ": " + value
		}
		if detail != "" {
			d += ": " + detail
		}
		detail = d
	case "FieldValueTooLong":
		if detail == "" {
			detail = "too long"
		}
	}
	return typ, value, detail
}

func splitValue(s string) (string, string) {
	if s == "" {
		return "", ""
	}
	switch s[0] {
	case '"':
		if q, err := strconv.QuotedPrefix(s); err == nil {
			return q, strings.TrimPrefix(s[len(q):], ": ")
		}
	case '{', '[':
		dec := json.NewDecoder(strings.NewReader(s))
		var v interface{}
		if err := dec.Decode(&v); err == nil {
			n := int(dec.InputOffset())
			if n == len(s) || strings.HasPrefix(s[n:], ": ") {
				return s[:n], strings.TrimPrefix(s[n:], ": ")
			}
		}
	}
	tok, after, found := strings.Cut(s, ": ")
	if isScalar(tok) {
		if found {
			return tok, after
		}
		return tok, ""
	}
	return "", s
}

func isScalar(t string) bool {
	if t == "true" || t == "false" || t == "null" || t == "<nil>" {
		return true
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return true
	}
	return false
}

// admissionMessages: the field an admission plugin's Forbidden message is about. Admission
// errors carry no field (no StatusCause), so the Priority plugin's messages
// (plugin/pkg/admission/priority/admission.go) are mapped to the field they name, to be compared
// with wasched's, which reports them at that field.
var admissionMessages = []struct{ contains, field string }{
	{"the string value of PreemptionPolicy", "spec.preemptionPolicy"},
	{"the integer value of priority", "spec.priority"},
	{"must match the priority computed", "spec.priority"},
	{"no PriorityClass with name", "spec.priorityClassName"},
}

// unknownFields: the paths of a strict decoding error's `unknown field "path"` entries.
func unknownFields(message string) []string {
	const marker = "strict decoding error: "
	i := strings.Index(message, marker)
	if i < 0 {
		return nil
	}
	var out []string
	for _, part := range strings.Split(message[i+len(marker):], ", ") {
		const prefix = "unknown field "
		if !strings.HasPrefix(part, prefix) {
			continue
		}
		if f, err := strconv.Unquote(strings.TrimSpace(part[len(prefix):])); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// DecodeOrigin marks an error of the API server's JSON decoding: its field path has no list
// indices, so the comparison drops wasched's indices for it.
const DecodeOrigin = "decode"

// decodeField: the field path of a decoding error ("json: cannot unmarshal number 1.5 into Go
// struct field JobSpec.spec.parallelism of type int32" → "spec.parallelism"), false when the
// message is not one.
func decodeField(message string) (string, bool) {
	const marker = "into Go struct field "
	i := strings.Index(message, marker)
	if i < 0 || !strings.Contains(message, "cannot be handled as a") {
		return "", false
	}
	rest := message[i+len(marker):]
	j := strings.Index(rest, " of type ")
	if j < 0 {
		return "", false
	}
	path := rest[:j]
	// The Go type name comes first ("JobSpec."), then the JSON path.
	if k := strings.Index(path, "."); k >= 0 {
		path = path[k+1:]
	}
	if path == "" {
		return "", false
	}
	return path, true
}

// admissionField: the field of an admission plugin's Forbidden message, "" when unknown.
func admissionField(message string) string {
	for _, m := range admissionMessages {
		if strings.Contains(message, m.contains) {
			return m.field
		}
	}
	return ""
}
